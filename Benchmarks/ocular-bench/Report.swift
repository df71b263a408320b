// Formatting the tables.
import Foundation

func pad(_ text: String, _ width: Int, right: Bool = true) -> String {
    let count = text.count
    guard count < width else { return text }
    let padding = String(repeating: " ", count: width - count)
    return right ? padding + text : text + padding
}

func milliseconds(_ nanoseconds: Double) -> String { String(format: "%.3f", nanoseconds / 1e6) }

func machineDescription() -> String {
    let cpuInfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let modelLine = cpuInfo.split(separator: "\n").first { $0.hasPrefix("model name") }
    let model = modelLine?.split(separator: ":", maxSplits: 1).last?.trimmingCharacters(in: .whitespaces) ?? "unknown CPU"
    let load = ((try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)) ?? "?")
        .split(separator: " ").prefix(3).joined(separator: " ")
    return "\(model), \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(load)"
}

