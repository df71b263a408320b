// Timing the same work on the Swift and the C++ side of one process, in alternating rounds.
import BenchBaseline
import Foundation

@inline(__always) func nanosecondsNow() -> UInt64 {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)  // what std::chrono::steady_clock reads on Linux
    return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

func median(_ values: [Double]) -> Double {
    precondition(!values.isEmpty)
    let sorted = values.sorted()
    let middle = sorted.count / 2
    return sorted.count.isMultiple(of: 2) ? (sorted[middle - 1] + sorted[middle]) / 2 : sorted[middle]
}

func percentile(_ values: [Double], _ fraction: Double) -> Double {
    precondition(!values.isEmpty)
    let sorted = values.sorted()
    // Nearest rank: the smallest value with at least `fraction` of the values at or below it.
    let rank = Int((fraction * Double(sorted.count)).rounded(.up))
    return sorted[min(max(rank, 1), sorted.count) - 1]
}

/// Keeps results observable so the optimiser cannot drop the work.
nonisolated(unsafe) var sink = 0

/// One operation measured on both sides of the process.
struct Operation {
    let name: String
    let size: String
    /// One call of the Swift API; returns the output's bytes.
    let swift: () throws -> [UInt8]
    /// `iterations` calls of the C++ baseline, durations into `samples`, the last output's hash into `checksum`.
    let cxx: (Int32, UnsafeMutablePointer<Double>, UnsafeMutablePointer<UInt64>?, UnsafeMutablePointer<BaselineError>) -> Bool

    var key: String { "\(name)@\(size)" }

    func runSwift(_ iterations: Int) throws -> [Double] {
        var samples = [Double]()
        samples.reserveCapacity(iterations)
        for _ in 0..<iterations {
            let start = nanosecondsNow()
            do {
                let output = try swift()
                sink &+= output.count
            }  // the output is freed here, inside the timing, as the C++ Mat is
            samples.append(Double(nanosecondsNow() - start))
        }
        return samples
    }

    func runCxx(_ iterations: Int, checksum: UnsafeMutablePointer<UInt64>? = nil) throws -> [Double] {
        var samples = [Double](repeating: 0, count: iterations)
        var error = BaselineError()
        let succeeded = samples.withUnsafeMutableBufferPointer { cxx(Int32(iterations), $0.baseAddress!, checksum, &error) }
        guard succeeded else {
            throw BenchError(error, prefix: "C++ \(key): ")
        }
        return samples
    }
}

struct Measurement {
    let operation: Operation
    let swift: [Double]
    let cxx: [Double]
    /// Swift median / C++ median of each round.
    let roundRatios: [Double]
    let sameOutput: Bool
    var ratio: Double { median(swift) / median(cxx) }
}

/// Warms up, then runs rounds that alternate which side goes first; every sample is one call.
func measure(_ operation: Operation, options: OcularBench) throws -> Measurement {
    // Warm-up: first calls pay for lazy initialisation, page faults and cold caches.
    _ = try operation.runSwift(2)
    _ = try operation.runCxx(2)
    let oneCall = max(median(try operation.runSwift(3)), median(try operation.runCxx(3)), 1_000)
    let perRound = max(options.minimumIterationsPerRound,
                       Int(options.secondsPerSide / Double(options.rounds) * 1e9 / oneCall))
    var swift = [Double](), cxx = [Double](), ratios = [Double]()
    for round in 0..<options.rounds {
        let s: [Double], c: [Double]
        if round.isMultiple(of: 2) {
            s = try operation.runSwift(perRound)
            c = try operation.runCxx(perRound)
        } else {
            c = try operation.runCxx(perRound)
            s = try operation.runSwift(perRound)
        }
        swift += s
        cxx += c
        ratios.append(median(s) / median(c))
    }
    // Same work? Compare a hash of each side's output.
    var cxxHash: UInt64 = 0
    _ = try operation.runCxx(1, checksum: &cxxHash)
    let output = try operation.swift()
    let swiftHash = output.withUnsafeBufferPointer { baseline_fnv1a($0.baseAddress!, $0.count) }
    return Measurement(operation: operation, swift: swift, cxx: cxx, roundRatios: ratios, sameOutput: swiftHash == cxxHash)
}

