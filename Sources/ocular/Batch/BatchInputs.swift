import Foundation
import Ocular

/// One input of a batch and where its output goes.
struct BatchItem: Sendable, Equatable {
    /// The input file, as it is opened.
    let path: String
    /// The output's name under the output folder, its extension already the output's format:
    /// `holiday/beach.png`. Shards are chosen by a hash of it (``BatchShard``).
    let key: String
    /// Whether it goes through the recipe frame by frame, as `ocular process` runs videos.
    let isVideo: Bool
    /// Why the folder walk found it and could not hand it over (a name that is not UTF-8, a folder that
    /// cannot be listed): it is recorded failed with this, unread, rather than left out unsaid.
    var refusal: BatchResult.Failure? = nil
}

/// The files a batch reads, by extension, when it walks a folder.
enum BatchFormats {
    static let images: Set<String> = ["jpg", "jpeg", "jpe", "png", "webp", "bmp", "dib", "tif", "tiff", "pbm", "pgm", "ppm", "pnm", "pxm", "sr", "ras", "hdr", "pic", "exr", "jp2"]
    static let videos: Set<String> = ["mp4", "avi", "mov", "mkv", "m4v", "webm", "mpg", "mpeg"]
    /// A manifest names the inputs: one path a line, or JSON lines with "path" and an optional "output".
    static let manifests: Set<String> = ["txt", "list", "jsonl", "manifest"]

    static func fileExtension(_ path: String) -> String { (path as NSString).pathExtension.lowercased() }
}

/// What a batch writes for an image: PNG, JPEG, or the input's own format.
enum BatchOutputFormat: String, CaseIterable, Sendable {
    case png, jpeg, same

    /// `key` (an input's relative path) with the output's extension. Videos keep an .mp4 or .avi
    /// container, and other containers become .mp4, whatever the image format.
    func outputKey(for key: String, isVideo: Bool) -> String {
        let stem = (key as NSString).deletingPathExtension
        let inputExtension = (key as NSString).pathExtension
        if isVideo { return VideoOutput.isVideo(key) ? key : stem + ".mp4" }
        switch self {
        case .png: return stem + ".png"
        case .jpeg: return stem + ".jpg"
        case .same: return inputExtension.isEmpty ? stem + ".png" : key
        }
    }
}

/// A batch's inputs gathered from files, folders and manifests, in a stable order, each with its
/// output's name.
struct BatchInputs {
    private(set) var items: [BatchItem] = []
    private var byKey: [PathKey: String] = [:]

    /// - Parameters:
    ///   - arguments: Files, folders (walked recursively, by extension; hidden files skipped) and
    ///     manifests, as the command line gave them.
    ///   - format: The images' output format, which names the outputs.
    ///   - outputFolder: Never read as input, however a folder walked reaches it.
    /// - Throws: ``BatchError`` for a missing input, an unreadable or malformed manifest, or two
    ///   inputs whose outputs would be the same file.
    init(_ arguments: [String], format: BatchOutputFormat, outputFolder: String) throws(BatchError) {
        for argument in arguments {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else {
                throw .missingInput(argument)
            }
            if isFolder.boolValue {
                try addFolder(argument, outputFolder: outputFolder, format: format)
            } else if BatchFormats.manifests.contains(BatchFormats.fileExtension(argument)) {
                try addManifest(argument, format: format)
            } else {
                try add(path: argument, key: (argument as NSString).lastPathComponent, format: format)
            }
        }
    }

    private mutating func add(path: String, key: String, output: String? = nil, format: BatchOutputFormat) throws(BatchError) {
        let isVideo = BatchFormats.videos.contains(BatchFormats.fileExtension(path))
        let outputKey = output ?? format.outputKey(for: key, isVideo: isVideo)
        if let earlier = byKey[PathKey(outputKey)] { throw .sameOutput(outputKey, first: earlier, second: path) }
        byKey[PathKey(outputKey)] = path
        items.append(BatchItem(path: path, key: outputKey, isVideo: isVideo))
    }

    /// A folder's images and videos, recursively (through symbolic links too), sorted by path; the outputs
    /// keep the folder's own name and the paths below it (`cp -r` would put them there too). The walk goes
    /// by what the file system says, not by spelling: the folder named through a symbolic link is walked
    /// at its real place; the output folder, and the folder this one's outputs go to, are skipped however
    /// they are reached (by device and inode, so through a link inside the input too: read again as input
    /// they had grown every run); a folder reached twice (a link to an ancestor) is walked once. What the
    /// walk cannot hand over is recorded failed, never left out unsaid: a name that is not UTF-8 (the
    /// path could not be opened again by name) and a subfolder that cannot be listed.
    /// - Throws: When this folder's outputs would land on the folder itself (`-o .` for `photos`, which
    ///   would write `./photos/…` over the inputs).
    private mutating func addFolder(_ folder: String, outputFolder: String, format: BatchOutputFormat) throws(BatchError) {
        let name = URL(fileURLWithPath: folder).standardizedFileURL.lastPathComponent
        guard let root = FolderWalk.identity(of: folder) else { throw .missingInput(folder) }
        let outputs = outputFolder + "/" + name
        if FolderWalk.identity(of: outputs) == root {
            throw .outputsOverInputs(folder, outputs: outputs)
        }
        var walk = FolderWalk(skipping: [outputFolder, outputs].compactMap(FolderWalk.identity(of:)))
        if let reason = walk.visit(folder, relative: "", identity: root) { throw .unlistableFolder(folder, reason: reason) }
        func key(_ relative: String) -> String { name.isEmpty || name == "/" ? relative : name + "/" + relative }
        for file in walk.found.sorted(by: { $0.relative < $1.relative }) {
            if let refusal = file.refusal {
                items.append(BatchItem(path: file.path, key: key(file.relative), isVideo: false, refusal: refusal))
            } else {
                try add(path: file.path, key: key(file.relative), format: format)
            }
        }
    }

    /// A manifest: a path a line (blank lines and `#` comments skipped), or a JSON object a line
    /// with "path" and optionally "output" (its output's name under the output folder). Relative
    /// paths are read from the manifest's folder; an output keeps the path as written.
    private mutating func addManifest(_ manifest: String, format: BatchOutputFormat) throws(BatchError) {
        let text: String
        do {
            text = String(decoding: try FileAccess.read(manifest), as: UTF8.self)
        } catch {
            throw .unreadableManifest(manifest, reason: error.description)
        }
        let base = (manifest as NSString).deletingLastPathComponent
        // By isNewline, not "\n": Swift reads "\r\n" as one Character, and a manifest with Windows line ends was one line.
        for (index, rawLine) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let entry: ManifestEntry
            if line.hasPrefix("{") {
                do {
                    entry = try JSONDecoder().decode(ManifestEntry.self, from: Data(line.utf8))
                } catch {
                    throw .badManifestLine(manifest, line: index + 1, reason: "not a JSON object with a \"path\" string: \(line.prefix(80))")
                }
                if let repeated = JSONDuplicateKeys.first(in: Data(line.utf8)) {
                    throw .badManifestLine(manifest, line: index + 1, reason: "it names \(StageError.quoted(repeated)) twice; each key may appear once")
                }
            } else {
                entry = ManifestEntry(path: line, output: nil)
            }
            guard !entry.path.isEmpty else { throw .badManifestLine(manifest, line: index + 1, reason: "the path is empty") }
            let path = entry.path.hasPrefix("/") || base.isEmpty ? entry.path : base + "/" + entry.path
            var output: String?
            if let given = entry.output {
                guard let safe = Self.relativeName(given, refusingUpward: true) else {
                    throw .badManifestLine(manifest, line: index + 1, reason: "the output \(StageError.quoted(given)) must be a relative path inside the output folder, without control characters")
                }
                output = safe
            }
            try add(path: path, key: Self.relativeName(entry.path, refusingUpward: false) ?? (entry.path as NSString).lastPathComponent,
                    output: output, format: format)
        }
    }

    private struct ManifestEntry: Decodable {
        let path: String
        let output: String?
    }

    /// `path` as a name under the output folder: without a leading `/`, `.` or `..` components (or
    /// nil for `..` when `refusingUpward`), nil when nothing is left.
    static func relativeName(_ path: String, refusingUpward: Bool) -> String? {
        // A control character (a NUL above all, where C cuts the name short) is no part of a file's name:
        // two outputs differing after a NUL once shared one partial file.
        if refusingUpward, path.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) { return nil }
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            if part == "." { continue }
            if part == ".." {
                if refusingUpward { return nil }
                continue
            }
            parts.append(part)
        }
        if refusingUpward, path.hasPrefix("/") { return nil }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }
}

/// A stable share of a batch's inputs: shard `index` of `count` takes the inputs whose output name
/// hashes to it (64-bit FNV-1a, the same on every machine). Shards are disjoint and together cover
/// every input, and adding a file moves no other file to another shard.
struct BatchShard: Sendable, Equatable {
    let index: Int
    let count: Int

    static let whole = BatchShard(index: 0, count: 1)

    func contains(_ item: BatchItem) -> Bool {
        count == 1 || Int(Self.hash(item.key) % UInt64(count)) == index
    }

    static func hash(_ key: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in key.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01b3
        }
        return hash
    }
}

/// What can stop a batch before it starts, or its merge.
enum BatchError: CodedError {
    case missingInput(String)
    case unreadableManifest(String, reason: String)
    case badManifestLine(String, line: Int, reason: String)
    case sameOutput(String, first: String, second: String)
    case outputsOverInputs(String, outputs: String)
    case unlistableFolder(String, reason: String)
    case unwritableResults(String, reason: String)
    case unreadableResults(String, reason: String)

    var code: ErrorCode {
        switch self {
        case .missingInput: ErrorCode("batch.missingInput", .notFound)
        case .unreadableManifest: ErrorCode("batch.unreadableManifest", .ioFailure)
        case .badManifestLine: ErrorCode("batch.badManifest", .badInput)
        case .sameOutput: ErrorCode("batch.sameOutput", .badInput)
        case .outputsOverInputs: ErrorCode("batch.outputsOverInputs", .badInput)
        case .unlistableFolder: ErrorCode("batch.unlistableFolder", .ioFailure)
        case .unwritableResults: ErrorCode("batch.unwritableResults", .ioFailure)
        case .unreadableResults: ErrorCode("batch.unreadableResults", .ioFailure)
        }
    }

    var description: String {
        switch self {
        case .missingInput(let path): "no such file or folder: \(path)"
        case .unreadableManifest(let path, let reason): "cannot read the manifest \(path): \(reason)"
        case .badManifestLine(let path, let line, let reason): "\(path), line \(line): \(reason)"
        case .sameOutput(let key, let first, let second):
            "\(first) and \(second) would both be written to \(key); give them different names with a manifest's \"output\""
        case .outputsOverInputs(let folder, let outputs):
            "the outputs of \(folder) would be written over it: \(outputs) is that folder; choose an output folder that does not hold it directly"
        case .unlistableFolder(let path, let reason): "cannot list the folder \(path): \(reason)"
        case .unwritableResults(let path, let reason): "cannot write the results file \(path): \(reason)"
        case .unreadableResults(let path, let reason): "cannot read the results file \(path): \(reason)"
        }
    }
}
