import ConsoleKitTerminal
import Foundation
import Ocular

/// Progress of long work. On a terminal, ConsoleKit's progress bar redrawn in place, its title
/// giving the count, the rate and the time left; elsewhere (a pipe, a log, CI) a plain line on
/// standard error at every tenth, so logs stay readable and scripts can follow along.
final class ProgressDisplay {
    private let title: String
    private let unit: String
    private let total: Int?
    private let indicator: ActivityIndicator<ProgressBar>?
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var done = 0
    private var lastTenthReported = 0

    /// - Parameters:
    ///   - title: What is being done, e.g. "process".
    ///   - total: How many steps there will be, when known.
    ///   - unit: What a step is, e.g. "frames".
    init(title: String, total: Int?, unit: String = "") {
        self.title = title
        self.unit = unit
        self.total = total.map { max($0, 1) }
        start = clock.now
        let terminal = Terminal()
        if terminal.supportsANSICommands {
            let indicator = terminal.progressBar(title: title)
            indicator.start(refreshRate: 100)
            self.indicator = indicator
        } else {
            indicator = nil
        }
    }

    /// Counts `steps` more steps done.
    func advance(by steps: Int = 1) {
        done += steps
        let progress = FrameRunProgress(framesDone: done, frameCount: total, elapsed: clock.now - start)
        let counted = total.map { "\(min(done, $0))/\($0)" } ?? "\(done)"
        var parts = [unit.isEmpty ? counted : "\(counted) \(unit)"]
        // The first fifth of a second says nothing yet about the rate.
        if progress.elapsed >= .milliseconds(200) {
            parts.append(String(format: "%.1f %@/s", progress.framesPerSecond, unit.isEmpty ? "steps" : unit))
            if let remaining = progress.remaining { parts.append("\(Self.describe(seconds: remaining / .seconds(1))) left") }
        }
        let text = "\(title) " + parts.joined(separator: ", ")
        if let indicator {
            indicator.activity.title = text
            indicator.activity.currentProgress = total.map { Double(done) / Double($0) } ?? 0
        } else if let total {
            let tenth = min(done, total) * 10 / total
            if tenth > lastTenthReported {
                lastTenthReported = tenth
                FileHandle.standardError.write(Data("\(text) (\(tenth * 10)%)\n".utf8))
            }
        }
    }

    /// Ends the display: the bar shows done, or failed.
    func finish(succeeded: Bool = true) {
        guard let indicator else { return }
        if succeeded { indicator.succeed() } else { indicator.fail() }
    }

    /// "4 s", "2 min 5 s".
    static func describe(seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        return whole < 60 ? "\(whole) s" : "\(whole / 60) min \(whole % 60) s"
    }
}
