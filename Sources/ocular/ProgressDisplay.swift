import ConsoleKitTerminal
import Foundation
import Ocular

/// Progress of long work, shown by every command the same way: ``showing(_:total:unit:_:)`` runs the
/// work and ends the display as done or failed. On a terminal, ConsoleKit's progress bar redrawn in
/// place, its title giving the count, the rate and the time left; elsewhere (a pipe, a log, CI) a plain
/// line on standard error at every tenth, so logs stay readable and scripts can follow along. Nothing
/// shows until the first step is done, so work that turns out to have nothing to do (a model read
/// from the cache instead of trained) leaves no bar behind.
final class ProgressDisplay {
    private let title: String
    private let unit: String
    /// How many steps there will be, when known; work that learns it on the way sets it.
    var total: Int? {
        didSet { total = total.map { max($0, 1) } }
    }
    /// Said after the count and rate while not empty: "3 failed".
    var note = ""
    private var indicator: ActivityIndicator<ProgressBar>?
    private let clock = ContinuousClock()
    private let start: ContinuousClock.Instant
    private var done = 0
    private var lastTenthReported = 0

    private init(title: String, total: Int?, unit: String) {
        self.title = title
        self.unit = unit
        self.total = total.map { max($0, 1) }
        start = clock.now
    }

    /// Runs `work` with a display of its progress, which ends as done when the work returns and as
    /// failed when it throws.
    /// - Parameters:
    ///   - title: What is being done, e.g. "process".
    ///   - total: How many steps there will be, when known.
    ///   - unit: What a step is, e.g. "frames".
    ///   - work: The work; it calls ``advance(by:)`` on the display it is given.
    static func showing<Result>(_ title: String, total: Int?, unit: String = "", _ work: (ProgressDisplay) throws -> Result) throws -> Result {
        let display = ProgressDisplay(title: title, total: total, unit: unit)
        do {
            let result = try work(display)
            display.finish(succeeded: true)
            return result
        } catch {
            display.finish(succeeded: false)
            throw error
        }
    }

    /// Counts `steps` more steps done.
    func advance(by steps: Int = 1) {
        done += steps
        if done == steps {
            let terminal = Terminal()
            if terminal.supportsANSICommands {
                indicator = terminal.progressBar(title: title)
                indicator?.start(refreshRate: 100)
            }
        }
        let progress = FrameRunProgress(framesDone: done, frameCount: total, elapsed: clock.now - start)
        let counted = total.map { "\(min(done, $0))/\($0)" } ?? "\(done)"
        var parts = [unit.isEmpty ? counted : "\(counted) \(unit)"]
        // The first fifth of a second says nothing yet about the rate.
        if progress.elapsed >= .milliseconds(200) {
            parts.append(String(format: "%.1f %@/s", progress.framesPerSecond, unit.isEmpty ? "steps" : unit))
            if let remaining = progress.remaining { parts.append("\(Self.describe(seconds: remaining / .seconds(1))) left") }
        }
        if !note.isEmpty { parts.append(note) }
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
    private func finish(succeeded: Bool) {
        guard let indicator else { return }
        if succeeded { indicator.succeed() } else { indicator.fail() }
    }

    /// "4 s", "2 min 5 s".
    static func describe(seconds: Double) -> String {
        let whole = Int(seconds.rounded(.up))
        return whole < 60 ? "\(whole) s" : "\(whole / 60) min \(whole % 60) s"
    }
}
