import Foundation
import Hummingbird
internal import HTTPTypes
internal import NIOCore
internal import NIOPosix
import Ocular
import OcularGallery
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `POST /api/gallery/clips?page=lightWork&recipe={…}`: a clip a page recorded (its processed frames
/// and the microphone), the body the clip's file as MediaRecorder made it, typed `video/webm` or
/// `video/mp4`. The body is streamed to a partial file in the gallery's videos folder, never held
/// whole; then its container is walked (``ClipProbe``) and its first frame decoded, and only then is it
/// registered: `201` with the item (`hasAudio`, `duration`, `url`, `thumbnailURL`). A WebM gets an MP4
/// made beside it in the background where FFmpeg is installed (``ClipConverter``); the item's
/// `alternateURL` appears when it is done.
///
/// Refusals, each with `{"error":"…"}`, leaving nothing in the gallery: another type 415; a body
/// over ``StudioConfiguration/maxClipBytes`` 413 (told by Content-Length before any byte is read,
/// else when the limit is crossed); a clip longer than ``StudioConfiguration/maxRecordingSeconds``
/// (and a little slack) 413; a recipe that is not one 400; an empty body 400; bytes that are not a
/// whole WebM or MP4 with a video track, or whose first frame does not decode, 422; a gallery whose
/// quota the clip would cross 507 (told by Content-Length before any byte is written, else with its
/// row), and a full disk 507; a read-only gallery 409. An upload's announced size counts against the
/// quota from its first byte to its end, so parallel uploads cannot each find room that only one has.
struct ClipsController {
    let configuration: StudioConfiguration
    let registry: StageRegistry
    let gallery: StudioGallery
    let converter: ClipConverter?
    /// The bytes announced by uploads under way.
    let reservations = UploadReservations()

    static let path = GalleryController.path + "/clips"
    /// A recording stopped at the limit may run this much over it (the last chunk, timer jitter).
    static let durationSlack = 10.0

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.post(RouterPath(stringLiteral: Self.path)) { request, context in
            try await upload(request, context: context)
        }
    }

    func upload(_ request: Request, context: BasicRequestContext) async throws -> Response {
        // A form or text/plain body is what another web page can send without asking: a clip must say it is one.
        let type = request.headers[.contentType]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased() ?? ""
        let declared: ClipProbe.Container
        switch type {
        case "video/webm": declared = .webm
        case "video/mp4": declared = .mp4
        default:
            throw StudioHTTPError(.unsupportedMediaType,
                "send the clip with Content-Type video/webm or video/mp4, not '\(StudioAccess.printable(type))'")
        }
        let query = request.uri.queryParameters
        let recipe: Recipe
        do {
            recipe = try Pipeline(Recipe(json: query.get("recipe") ?? "{\"stages\":[]}"), registry: registry).recipe
        } catch {
            throw StudioHTTPError(.badRequest, "the recipe is not one: \(error)")
        }
        let page = String((query.get("page") ?? "").prefix(40).filter { $0.isASCII && ($0.isLetter || $0.isNumber) })
        let limit = configuration.maxClipBytes
        let tooLarge = "the clip is larger than the limit of \(limit) bytes (\(limit >> 20) MB)"
        let declaredLength = request.headers[.contentLength].flatMap { Int($0) }
        if let declaredLength, declaredLength > limit { throw StudioHTTPError(.contentTooLarge, tooLarge) }

        let opened = await blocking { () throws(GalleryError) in try self.gallery.open() }
        let gallery: Gallery
        switch opened {
        case .success(let found): gallery = found
        case .failure(let error): throw StudioHTTPError(error, message: self.gallery.clientMessage(for: error))
        }
        if gallery.isReadOnly {
            throw StudioHTTPError(GalleryError.readOnly(path: gallery.folder), message: self.gallery.readOnlyNotice)
        }
        // A full gallery refuses the clip before a byte of it is written (and again with its row);
        // uploads under way count with what they announced.
        let quota = configuration.galleryQuotaBytes
        var reserved: Int64 = 0
        defer { reservations.release(reserved) }
        if let declaredLength, case .success(let used) = await blocking({ () throws(GalleryError) in try gallery.bytesUsed() }) {
            if let pending = reservations.reserve(Int64(declaredLength), used: used, quota: quota) {
                let error = GalleryError.quotaExceeded(used: used + pending, adding: declaredLength, quota: quota)
                throw StudioHTTPError(error, message: self.gallery.clientMessage(for: error))
            }
            reserved = Int64(declaredLength)
        }
        let partial = gallery.partialClipPath(for: declared)
        // Whatever happens below, the partial file goes unless the clip was placed (then it is gone already).
        defer {
            unlink(partial)
            PartialFiles.finished(partial)
        }
        let received: Int
        switch try await receive(request.body, into: partial, limit: limit) {
        case .written(let count): received = count
        case .tooLarge: throw StudioHTTPError(.contentTooLarge, tooLarge)
        case .failed(let reason, let code):
            context.logger.error("clip upload: \(reason)")
            if code == ENOSPC || code == EDQUOT {
                throw StudioHTTPError(StudioHTTPError.insufficientStorage,
                                                    "the clip could not be written: the disk is full (\(reason))")
            }
            throw StudioHTTPError(.internalServerError, "the clip could not be written: \(reason)")
        }
        guard received > 0 else { throw StudioHTTPError(.badRequest, "the request has no body: send the clip's file as the body") }
        if let declaredLength, declaredLength != received {
            throw StudioHTTPError(.badRequest, "the upload ended after \(received) of the \(declaredLength) bytes announced: try again")
        }

        let checked = await Self.check(partial, declared: declared, maxSeconds: configuration.maxRecordingSeconds)
        let probe: ClipProbe, firstFrame: Image
        switch checked {
        case .success(let found): (probe, firstFrame) = found
        case .failure(let refusal): throw refusal
        }
        let source = page.isEmpty ? "studio recording" : "studio \(page) recording"
        let stored = await blocking { () throws(GalleryError) in
            try gallery.addClip(partialFileAt: partial, probe: probe, firstFrame: firstFrame, recipe: recipe, source: source, withinBytes: quota)
        }
        switch stored {
        case .success(let item):
            context.logger.info("clip \(item.id): \(item.fileName), \(received) bytes, \(probe.duration) s, \(probe.videoCodec)\(probe.audioCodec.map { "+" + $0 } ?? "")")
            if probe.container == .webm, let converter { converter.enqueue(itemID: item.id, gallery: gallery) }
            return try jsonResponse(GalleryItemResource(item: item), status: .created, datesAs: .iso8601)
        case .failure(let error):
            throw StudioHTTPError(error, message: self.gallery.clientMessage(for: error))
        }
    }

    /// Walks the clip's container and decodes its first frame, off the cooperative threads.
    static func check(_ path: String, declared: ClipProbe.Container, maxSeconds: Double) async -> Result<(ClipProbe, Image), StudioHTTPError> {
        let outcome = try? await NIOThreadPool.singleton.runIfActive { () -> Result<(ClipProbe, Image), StudioHTTPError> in
            let damaged = HTTPResponse.Status.unprocessableContent
            let probe: ClipProbe
            switch Result(catching: { () throws(OcularError) in try ClipProbe(contentsOfFile: path) }) {
            case .success(let found): probe = found
            case .failure(.unreadableMedia(_, let reason)):
                return .failure(StudioHTTPError(damaged, "the clip is not a whole WebM or MP4: \(reason)"))
            case .failure(let error):
                return .failure(StudioHTTPError(damaged, "the clip cannot be read: \(error)"))
            }
            guard probe.container == declared else {
                return .failure(StudioHTTPError(damaged, "the clip was sent as video/\(declared.rawValue) but is a\(probe.container == .mp4 ? "n" : "") \(probe.container.name) file"))
            }
            guard probe.duration <= maxSeconds + durationSlack else {
                return .failure(StudioHTTPError(.contentTooLarge,
                                                String(format: "the clip lasts %.1f s, longer than the studio's limit of %.0f s", probe.duration, maxSeconds)))
            }
            guard probe.width > 0, probe.height > 0 else {
                return .failure(StudioHTTPError(damaged, "the clip's video track declares no frame size"))
            }
            do {
                return .success((probe, try Image(firstFrameOfVideo: path)))
            } catch {
                return .failure(StudioHTTPError(damaged, "the clip's first frame does not decode: its frames are damaged"))
            }
        }
        return outcome ?? .failure(StudioHTTPError(.serviceUnavailable, "the server is shutting down"))
    }

    enum Received {
        case written(Int)
        case tooLarge
        /// The reason, and the errno that gave it.
        case failed(String, Int32)
    }

    /// Streams the body into a new file, chunk by chunk, stopping at `limit` bytes.
    private func receive(_ body: RequestBody, into path: String, limit: Int) async throws -> Received {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return .failed(String(cString: strerror(errno)), errno) }
        defer { close(descriptor) }
        var count = 0
        for try await chunk in body {
            let (total, overflow) = count.addingReportingOverflow(chunk.readableBytes)
            guard !overflow, total <= limit else { return .tooLarge }
            let bytes = Array(chunk.readableBytesView)
            let failure = try await NIOThreadPool.singleton.runIfActive { () -> (String, Int32)? in
                bytes.withUnsafeBytes { buffer in
                    var offset = 0
                    while offset < buffer.count {
                        let result = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                        if result < 0 {
                            if errno == EINTR { continue }
                            return (String(cString: strerror(errno)), errno)
                        }
                        offset += result
                    }
                    return nil
                }
            }
            if let failure { return .failed(failure.0, failure.1) }
            count = total
        }
        return .written(count)
    }
}

/// What uploads under way have announced, held against the gallery's quota until each ends.
final class UploadReservations: Sendable {
    private let reserved = Mutex<Int64>(0)

    /// Reserves `bytes` when the committed `used` bytes, the other reservations and these fit in `quota`.
    /// - Returns: nil when reserved; else the bytes other uploads hold.
    func reserve(_ bytes: Int64, used: Int64, quota: Int64) -> Int64? {
        reserved.withLock { held in
            guard used + held + bytes <= quota else { return held }
            held += bytes
            return nil
        }
    }

    func release(_ bytes: Int64) {
        guard bytes > 0 else { return }
        reserved.withLock { $0 -= bytes }
    }
}
