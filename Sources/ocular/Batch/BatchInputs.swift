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
    private var byKey: [String: String] = [:]

    /// - Parameters:
    ///   - arguments: Files, folders (walked recursively, by extension; hidden files skipped) and
    ///     manifests, as the command line gave them.
    ///   - format: The images' output format, which names the outputs.
    ///   - outputFolder: Never read as input, when it lies inside a folder walked.
    /// - Throws: ``BatchError`` for a missing input, an unreadable or malformed manifest, or two
    ///   inputs whose outputs would be the same file.
    init(_ arguments: [String], format: BatchOutputFormat, outputFolder: String) throws(BatchError) {
        let excluded = URL(fileURLWithPath: outputFolder).standardizedFileURL.path
        for argument in arguments {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isFolder) else {
                throw .missingInput(argument)
            }
            if isFolder.boolValue {
                try addFolder(argument, excluding: excluded, format: format)
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
        if let earlier = byKey[outputKey] { throw .sameOutput(outputKey, first: earlier, second: path) }
        byKey[outputKey] = path
        items.append(BatchItem(path: path, key: outputKey, isVideo: isVideo))
    }

    /// A folder's images and videos, recursively, sorted by path; the outputs keep the folder's own
    /// name and the paths below it (`cp -r` would put them there too).
    private mutating func addFolder(_ folder: String, excluding excluded: String, format: BatchOutputFormat) throws(BatchError) {
        let root = URL(fileURLWithPath: folder).standardizedFileURL
        let name = root.lastPathComponent
        guard let walk = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [], options: [.skipsHiddenFiles]) else {
            throw .missingInput(folder)
        }
        var found: [(path: String, relative: String)] = []
        let rootPath = root.path.hasSuffix("/") ? root.path : root.path + "/"
        for case let url as URL in walk {
            let path = url.standardizedFileURL.path
            if path == excluded || path.hasPrefix(excluded + "/") {
                walk.skipDescendants()
                continue
            }
            let fileExtension = BatchFormats.fileExtension(path)
            guard BatchFormats.images.contains(fileExtension) || BatchFormats.videos.contains(fileExtension),
                  // stat, not resourceValues: Foundation reads the user and group databases for each file.
                  (try? FileAccess.regularFileSize(path)) != nil,
                  path.hasPrefix(rootPath) else { continue }
            found.append((path, String(path.dropFirst(rootPath.count))))
        }
        for file in found.sorted(by: { $0.relative < $1.relative }) {
            try add(path: file.path, key: name.isEmpty || name == "/" ? file.relative : name + "/" + file.relative, format: format)
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
        for (index, rawLine) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = rawLine.trimmingCharacters(in: .whitespacesAndNewlines)
            if line.isEmpty || line.hasPrefix("#") { continue }
            let entry: ManifestEntry
            if line.hasPrefix("{") {
                do {
                    entry = try JSONDecoder().decode(ManifestEntry.self, from: Data(line.utf8))
                } catch {
                    throw .badManifestLine(manifest, line: index + 1, reason: "not a JSON object with a \"path\" string: \(line.prefix(80))")
                }
            } else {
                entry = ManifestEntry(path: line, output: nil)
            }
            guard !entry.path.isEmpty else { throw .badManifestLine(manifest, line: index + 1, reason: "the path is empty") }
            let path = entry.path.hasPrefix("/") || base.isEmpty ? entry.path : base + "/" + entry.path
            var output: String?
            if let given = entry.output {
                guard let safe = Self.relativeName(given, refusingUpward: true) else {
                    throw .badManifestLine(manifest, line: index + 1, reason: "the output '\(given)' must be a relative path inside the output folder")
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
    case unwritableResults(String, reason: String)
    case unreadableResults(String, reason: String)

    var code: ErrorCode {
        switch self {
        case .missingInput: ErrorCode("batch.missingInput", .notFound)
        case .unreadableManifest: ErrorCode("batch.unreadableManifest", .ioFailure)
        case .badManifestLine: ErrorCode("batch.badManifest", .badInput)
        case .sameOutput: ErrorCode("batch.sameOutput", .badInput)
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
        case .unwritableResults(let path, let reason): "cannot write the results file \(path): \(reason)"
        case .unreadableResults(let path, let reason): "cannot read the results file \(path): \(reason)"
        }
    }
}
