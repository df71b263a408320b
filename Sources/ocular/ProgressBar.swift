#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A progress bar on standard error, drawn only when standard error is a terminal (so pipes and
/// logs stay clean).
struct ProgressBar {
    let title: String
    let total: Int
    private(set) var done = 0
    private let isTerminal = isatty(STDERR_FILENO) == 1
    private var drawnPercent = -1

    init(title: String, total: Int) {
        self.title = title
        self.total = max(total, 1)
    }

    mutating func advance(by steps: Int = 1) {
        done = min(done + steps, total)
        let percent = done * 100 / total
        guard isTerminal, percent != drawnPercent else { return }
        drawnPercent = percent
        let width = 30, filled = done * width / total
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        writeToStandardError("\r\(title) \(bar) \(percent)% (\(done)/\(total))")
    }

    func finish() {
        if isTerminal, drawnPercent >= 0 { writeToStandardError("\n") }
    }

    private func writeToStandardError(_ text: String) {
        var text = text
        text.withUTF8 { _ = write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }
}
