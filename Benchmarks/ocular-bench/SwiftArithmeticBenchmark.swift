// Ocular's own pixel loops are C++ (the OcularAlgorithms target), not Swift. This row keeps that
// choice measured: Screen, the simplest blend mode, written in Swift twice — the plain loop one would
// write first, and on SIMD16<UInt16> lanes as the C++ is — with the rows spread over the cores as the
// C++ spreads them, against Ocular's Screen on the same frames.
import Dispatch
import Foundation
import Ocular

enum SwiftScreen {
    /// round(x / 255) for 0 ≤ x ≤ 65025, as the C++ computes it.
    @inline(__always) static func divideBy255(_ x: UInt16) -> UInt16 {
        let t = x &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    @inline(__always) static func divideBy255(_ x: SIMD16<UInt16>) -> SIMD16<UInt16> {
        let t = x &+ 128
        return (t &+ (t &>> 8)) &>> 8
    }

    /// Splits `count` bytes into one run of whole 16-byte blocks a core and hands each to `body`.
    static func spread(_ count: Int, _ body: @Sendable (Range<Int>) -> Void) {
        let cores = ProcessInfo.processInfo.activeProcessorCount, blocks = count / 16
        DispatchQueue.concurrentPerform(iterations: cores) { core in
            let start = blocks * core / cores * 16, end = core == cores - 1 ? count : blocks * (core + 1) / cores * 16
            body(start..<end)
        }
    }

    /// a + b − ab/255, byte by byte.
    static func plain(_ frame: [UInt8], _ picture: [UInt8]) -> [UInt8] {
        // Left unfilled, as Ocular's output is: every byte is written below.
        [UInt8](unsafeUninitializedCapacity: frame.count) { out, initialized in
            frame.withUnsafeBufferPointer { a in
                picture.withUnsafeBufferPointer { b in
                    // Each core writes its own bytes of `out`; the pointers outlive the loop.
                    nonisolated(unsafe) let a = a.baseAddress!, b = b.baseAddress!
                    nonisolated(unsafe) let out = out.baseAddress!
                    spread(frame.count) { range in
                        for i in range {
                            let x = UInt16(a[i]), y = UInt16(b[i])
                            out[i] = UInt8(truncatingIfNeeded: x &+ y &- divideBy255(x &* y))
                        }
                    }
                }
            }
            initialized = frame.count
        }
    }

    /// The same on sixteen 16-bit lanes at a time, the tail byte by byte.
    static func lanes(_ frame: [UInt8], _ picture: [UInt8]) -> [UInt8] {
        // Left unfilled, as Ocular's output is: every byte is written below.
        [UInt8](unsafeUninitializedCapacity: frame.count) { out, initialized in
            frame.withUnsafeBufferPointer { a in
                picture.withUnsafeBufferPointer { b in
                    nonisolated(unsafe) let a = UnsafeRawPointer(a.baseAddress!), b = UnsafeRawPointer(b.baseAddress!)
                    nonisolated(unsafe) let out = UnsafeMutableRawPointer(out.baseAddress!)
                    spread(frame.count) { range in
                        var i = range.lowerBound
                        while i + 16 <= range.upperBound {
                            let x = SIMD16<UInt16>(truncatingIfNeeded: a.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
                            let y = SIMD16<UInt16>(truncatingIfNeeded: b.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
                            out.storeBytes(of: SIMD16<UInt8>(truncatingIfNeeded: x &+ y &- divideBy255(x &* y)), toByteOffset: i, as: SIMD16<UInt8>.self)
                            i += 16
                        }
                        while i < range.upperBound {
                            let x = UInt16(a.load(fromByteOffset: i, as: UInt8.self)), y = UInt16(b.load(fromByteOffset: i, as: UInt8.self))
                            out.storeBytes(of: UInt8(truncatingIfNeeded: x &+ y &- divideBy255(x &* y)), toByteOffset: i, as: UInt8.self)
                            i += 1
                        }
                    }
                }
            }
            initialized = frame.count
        }
    }

    /// Prints the row: each Swift loop's median against Ocular's Screen, and whether their bytes agree.
    static func report(_ inputs: BlendInputs, quick: Bool) throws {
        let iterations = quick ? 10 : 60
        let blend = try Blend(source: inputs.pictureImage, mode: .screen)
        let ocular = try blend.apply(to: inputs.frameImage).bytes
        let ocularTime = try medianNanoseconds(iterations: iterations) { try blend.apply(to: inputs.frameImage).bytes }
        print("")
        print("Screen's arithmetic written in Swift, rows over the cores as the C++ does (\(inputs.size) BGRA):")
        print("  " + pad("Ocular (C++, OcularAlgorithms)", 34, right: false) + pad(milliseconds(ocularTime), 8) + " ms")
        for (name, body) in [("Swift, a plain loop", plain), ("Swift, SIMD16<UInt16> lanes", lanes)] {
            let (frame, picture) = (inputs.frame, inputs.picture)
            let time = medianNanoseconds(iterations: iterations) { body(frame, picture) }
            let same = body(frame, picture) == ocular
            print("  " + pad(name, 34, right: false) + pad(milliseconds(time), 8) + " ms  "
                  + String(format: "%.2f× Ocular's time", time / ocularTime) + (same ? ", the same bytes" : ", DIFFERENT bytes"))
        }
    }
}
