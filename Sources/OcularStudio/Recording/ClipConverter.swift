import Foundation
import Logging
import Ocular
import OcularGallery
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Makes an MP4 (H.264 and AAC, which every browser and phone plays) beside each recorded WebM, with
/// FFmpeg, one clip at a time in the background: a recording is in the gallery as soon as it is
/// uploaded, and its MP4 follows. The MP4 is written to a partial file, walked (``ClipProbe``) and
/// only then attached to the item (``Gallery/setAlternate(id:partialFileAt:container:)``); a clip
/// deleted meanwhile gets none. Where FFmpeg is not installed there is no converter: WebM only.
///
/// FFmpeg never outlives the studio: on Linux it is started through `setpriv --pdeathsig KILL`, so
/// the kernel kills it when the thread that waits for it ends, however the studio ends (Ctrl-C,
/// SIGTERM, SIGKILL); the partial MP4 it leaves is removed when the gallery is next opened, and the
/// studio queues again, on start, every WebM that has no MP4. Deleting a clip stops its conversion.
final class ClipConverter: Sendable {
    /// FFmpeg's executable.
    let ffmpeg: String
    private let logger: Logger
    private let queue = Mutex<(waiting: [(Int64, Gallery)], running: Bool)>(([], false))
    /// The conversion under way: its item and FFmpeg's process, which a delete stops.
    private let current = Mutex<(id: Int64, process: Process, cancelled: Bool)?>(nil)
    /// util-linux's setpriv, which sets the parent-death signal and executes FFmpeg in its place.
    static let setpriv = ["/usr/bin/setpriv", "/bin/setpriv"].first { FileManager.default.isExecutableFile(atPath: $0) }
    /// Conversions finished (or failed) so far, for tests and the log.
    let finished = Atomic<Int>(0)

    /// The arguments after `-i INPUT`: H.264 at a quality that keeps the processed frames' detail,
    /// even sizes (4:2:0), AAC sound when there is sound, the index first so that playback starts
    /// before the whole file arrives.
    static let encoding = ["-map", "0:v:0", "-map", "0:a:0?", "-c:v", "libx264", "-preset", "veryfast", "-crf", "23",
                           "-pix_fmt", "yuv420p", "-vf", "scale=trunc(iw/2)*2:trunc(ih/2)*2", "-c:a", "aac", "-b:a", "128k",
                           "-movflags", "+faststart", "-f", "mp4"]

    init(ffmpeg: String, logger: Logger) {
        self.ffmpeg = ffmpeg
        self.logger = logger
    }

    /// The converter for `configuration`: FFmpeg at its configured path, else found on PATH; nil
    /// when there is none (or the configuration turns conversion off with an empty path).
    static func make(configuration: StudioConfiguration, logger: Logger) -> ClipConverter? {
        if let chosen = configuration.ffmpegPath {
            return chosen.isEmpty ? nil : ClipConverter(ffmpeg: chosen, logger: logger)
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for folder in path.split(separator: ":") where access(folder + "/ffmpeg", X_OK) == 0 {
            return ClipConverter(ffmpeg: folder + "/ffmpeg", logger: logger)
        }
        logger.notice("FFmpeg is not installed: recorded clips are kept as WebM only (install ffmpeg for an MP4 beside each)")
        return nil
    }

    /// Queues every WebM of the gallery that has no MP4 yet: conversions a stopped studio left undone.
    /// - Returns: How many were queued.
    @discardableResult
    func enqueueUnconverted(in gallery: Gallery) -> Int {
        guard !gallery.isReadOnly, let ids = try? gallery.clipsWithoutAlternate() else { return 0 }
        for id in ids { enqueue(itemID: id, gallery: gallery) }
        if !ids.isEmpty { logger.info("queued \(ids.count) clips whose MP4 was not made: \(ids.map(String.init).joined(separator: ", "))") }
        return ids.count
    }

    /// Stops an item's conversion, waiting or under way (its clip was deleted).
    func cancel(itemID: Int64) {
        queue.withLock { state in state.waiting.removeAll { $0.0 == itemID } }
        current.withLock { running in
            guard let found = running, found.id == itemID, found.process.processIdentifier > 0 else { return }
            running?.cancelled = true
            kill(found.process.processIdentifier, SIGKILL)
        }
    }

    /// Queues a clip; conversions run one after another.
    func enqueue(itemID: Int64, gallery: Gallery) {
        let start = queue.withLock { state -> Bool in
            state.waiting.append((itemID, gallery))
            guard !state.running else { return false }
            state.running = true
            return true
        }
        guard start else { return }
        Thread.detachNewThread { [self] in
            while let (id, gallery) = queue.withLock({ state -> (Int64, Gallery)? in
                guard !state.waiting.isEmpty else {
                    state.running = false
                    return nil
                }
                return state.waiting.removeFirst()
            }) {
                convert(id, in: gallery)
                finished.add(1, ordering: .sequentiallyConsistent)
            }
        }
    }

    /// Converts one item's WebM; failures are logged, the WebM stays as it is.
    private func convert(_ id: Int64, in gallery: Gallery) {
        let item: GalleryItem
        do {
            item = try gallery.item(id: id)
        } catch {
            return  // deleted before its turn
        }
        let input = gallery.path(of: item)
        let partial = gallery.partialClipPath(for: .mp4)
        let started = ContinuousClock.now
        let process = Process()
        let arguments = ["-nostdin", "-v", "error", "-y", "-i", input] + Self.encoding + [partial]
        if let setpriv = Self.setpriv {
            process.executableURL = URL(fileURLWithPath: setpriv)
            process.arguments = ["--pdeathsig", "KILL", "--", ffmpeg] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: ffmpeg)
            process.arguments = arguments
        }
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        // Registered and started under the lock, so that a delete either finds it or prevents it.
        let launched: Result<Void, any Error> = current.withLock { running in
            running = (id, process, false)
            return Result { try process.run() }
        }
        defer { current.withLock { $0 = nil } }
        if case .failure(let error) = launched {
            logger.error("clip \(id): cannot run \(ffmpeg): \(error)")
            unlink(partial)
            PartialFiles.finished(partial)
            return
        }
        // A clip deleted between its turn and its start.
        if (try? gallery.item(id: id)) == nil { cancel(itemID: id) }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile().suffix(2000), as: UTF8.self)
        process.waitUntilExit()
        if current.withLock({ $0?.cancelled ?? false }) {
            logger.info("clip \(id): deleted while its MP4 was being made; the conversion was stopped")
            unlink(partial)
            PartialFiles.finished(partial)
            return
        }
        guard process.terminationStatus == 0 else {
            logger.error("clip \(id): FFmpeg failed (\(process.terminationStatus)): \(message)")
            unlink(partial)
            PartialFiles.finished(partial)
            return
        }
        do {
            let probe = try ClipProbe(contentsOfFile: partial)
            guard probe.hasAudio == (item.hasAudio ?? false) else {
                throw OcularError.unreadableMedia(path: partial, reason: "FFmpeg's MP4 \(probe.hasAudio ? "has" : "lacks") the sound the WebM \(probe.hasAudio ? "lacks" : "has")")
            }
        } catch {
            logger.error("clip \(id): FFmpeg's MP4 is not usable: \(error)")
            unlink(partial)
            PartialFiles.finished(partial)
            return
        }
        do {
            if let updated = try gallery.setAlternate(id: id, partialFileAt: partial, container: .mp4) {
                logger.info("clip \(id): \(updated.alternateFileName ?? "") made in \(ContinuousClock.now - started)")
            }
        } catch {
            logger.error("clip \(id): the MP4 could not be kept: \(error)")
        }
    }
}
