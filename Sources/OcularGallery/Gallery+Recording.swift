import Foundation
import Ocular
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Recording processed frames into the gallery: numbered videos 0.mp4, 1.mp4, ….
///
/// While frames come, they go to a hidden partial file in the videos folder; when the recording
/// ends, the file is flushed, linked under the next free number (never replacing a file) and its
/// row inserted. A recording killed midway leaves only a partial file, which the next open removes.
public final class GalleryRecording: FrameSink {
    public let gallery: Gallery
    public let framesPerSecond: Double
    /// How the item will say it was made.
    public let source: String
    public let recipe: Recipe?
    public let caption: String
    private var writer: VideoWriter?

    /// - Parameters:
    ///   - gallery: Where the video goes.
    ///   - framesPerSecond: Its playback rate, normally the source's.
    ///   - source: What it was recorded from, e.g. "ocular record --camera 0".
    ///   - recipe: The stages its frames went through.
    ///   - caption: Shown under it.
    public init(into gallery: Gallery, framesPerSecond: Double, source: String, recipe: Recipe?, caption: String = "") {
        self.gallery = gallery
        self.framesPerSecond = framesPerSecond
        self.source = source
        self.recipe = recipe
        self.caption = caption
    }

    deinit {
        // Abandoned (an error before finish): the partial file goes.
        if let writer { let partial = writer.close(); unlink(partial); PartialFiles.finished(partial) }
    }

    public func write(_ frame: Frame) throws {
        if writer == nil {
            // The placeholder name only shapes the partial file's name; the video gets a number.
            writer = try VideoWriter(path: gallery.folder + "/" + GalleryItem.Kind.video.folderName + "/recording.mp4",
                                     width: frame.image.width, height: frame.image.height, framesPerSecond: framesPerSecond)
        }
        try writer?.write(frame.image)
    }

    /// Ends the recording and adds it to the gallery.
    /// - Returns: The new item, its file named "N.mp4".
    /// - Throws: ``GalleryError`` when no frame was recorded, or the file or row cannot be written;
    ///   nothing is left behind then.
    public func finish() throws(GalleryError) -> GalleryItem {
        guard let writer else { throw .file(.invalidArgument("no frame came to record")) }
        self.writer = nil
        let partial = writer.close()
        defer {
            unlink(partial)  // gone already once linked under its number
            PartialFiles.finished(partial)
        }
        let videos = gallery.folder + "/" + GalleryItem.Kind.video.folderName
        let number = Gallery.nextRecordingNumber(in: videos)
        let draft = GalleryItem(draftOf: .video, source: source, recipe: recipe, width: writer.writtenWidth, height: writer.writtenHeight,
                                duration: writer.duration, caption: caption, labels: [], hasAudio: false)
        let thumbnail = try? Gallery.thumbnail(of: Image(firstFrameOfVideo: partial))
        return try gallery.store(draft, thumbnail: thumbnail, preferredName: "\(number).mp4") { (folder, preferredName) throws(GalleryError) in
            let name = try DurableFiles.placeNumbered(partial, in: folder, from: number, fileExtension: "mp4", named: folder + "/" + preferredName)
            let found = try DurableFiles.checksum(ofFileAt: folder + "/" + name)
            return (name, found.checksum, found.byteCount)
        }
    }
}
