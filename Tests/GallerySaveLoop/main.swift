// Saves photos into a gallery until it is killed: the SIGKILL test's victim (GalleryKillTests); with
// COUNT, saves that many and exits, closing the gallery as the CLI does beside a running studio.
// Usage: gallery-save-loop FOLDER SEED [COUNT]. Prints "ready" once the gallery is open, then
// "saved ID" after each save has returned (so its row is committed).
import Foundation
import Ocular
import OcularGallery

/// One line, written at once (print's buffer would hold it back from the test reading the pipe).
func say(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

let arguments = CommandLine.arguments
guard arguments.count == 3 || arguments.count == 4, let seed = UInt64(arguments[2]),
      let count = arguments.count == 4 ? Int(arguments[3]) : 2_000 else {
    FileHandle.standardError.write(Data("usage: gallery-save-loop FOLDER SEED [COUNT]\n".utf8))
    exit(2)
}
do {
    let gallery = try Gallery(folder: arguments[1])
    say("ready")
    // Noise does not compress: each PNG is about 0.9 MB, so a kill often lands inside a write. A
    // 48 KiB tile repeats beyond deflate's 32 KiB window, and is quick to make in a debug build.
    let width = 640, height = 480
    var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
    let tile = (0..<48 << 10).map { _ -> UInt8 in
        state ^= state << 13; state ^= state >> 7; state ^= state << 17
        return UInt8(truncatingIfNeeded: state)
    }
    var bytes = [UInt8]()
    bytes.reserveCapacity(width * height * 3)
    while bytes.count < width * height * 3 { bytes += tile.prefix(width * height * 3 - bytes.count) }
    // Never outlive the test: a test runner that dies (or is killed) must not leave a saver filling
    // the disk. The parent is checked before every save, and there is a ceiling besides.
    let parent = getppid()
    for index in 0..<count {
        guard getppid() == parent else { break }
        // Each photo differs from the last in its first pixels.
        withUnsafeBytes(of: UInt64(index).littleEndian) { bytes.replaceSubrange(0..<8, with: $0) }
        let picture = try Image(width: width, height: height, format: .bgr8, bytes: bytes)
        let item = try gallery.save(picture, source: "save loop \(seed)", caption: "photo \(index)")
        say("saved \(item.id)")
    }
} catch {
    FileHandle.standardError.write(Data("gallery-save-loop: \(error)\n".utf8))
    exit(1)
}
