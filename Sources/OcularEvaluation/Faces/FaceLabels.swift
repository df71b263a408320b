import Foundation
import Ocular

/// A face someone marked in a picture: its species and box, spelt in JSON as `faces detect --json`
/// prints a face: `{"species":"human","bounds":[x,y,width,height]}`.
package struct LabelledFace: Sendable, Hashable, Codable {
    package var species: Species
    package var bounds: PixelRectangle

    package init(species: Species, bounds: PixelRectangle) {
        self.species = species
        self.bounds = bounds
    }

    enum CodingKeys: String, CodingKey { case species, bounds }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        species = try container.decode(Species.self, forKey: .species)
        let numbers = try container.decode([Int].self, forKey: .bounds)
        guard numbers.count == 4, numbers[2] > 0, numbers[3] > 0 else {
            throw DecodingError.dataCorruptedError(forKey: .bounds, in: container,
                                                   debugDescription: "bounds are [x, y, width, height] with a positive width and height, got \(numbers)")
        }
        bounds = PixelRectangle(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(species, forKey: .species)
        try container.encode([bounds.x, bounds.y, bounds.width, bounds.height], forKey: .bounds)
    }
}

/// Pictures with the faces they hold, for `ocular faces evaluate`: a JSON list
/// `[{"file":"a.jpg","faces":[{"species":"human","bounds":[x,y,w,h]}]}]` (files relative to the
/// list's folder; a picture without faces checks for false boxes), or a folder holding `faces.json`.
package struct FaceLabelList: Sendable {
    package struct Entry: Sendable, Hashable, Codable {
        package var file: String
        package var faces: [LabelledFace]
        /// What the picture stands for, when figures are wanted per group (the sweep's axes).
        package var group: String?
        /// A sweep source held apart: used only for the held-apart group scenes, never to choose anything.
        package var heldApart: Bool?

        package init(file: String, faces: [LabelledFace], group: String? = nil, heldApart: Bool? = nil) {
            self.file = file
            self.faces = faces
            self.group = group
            self.heldApart = heldApart
        }
    }

    /// The list's file name inside a labelled folder.
    package static let fileName = "faces.json"
    /// More entries than this is no list of pictures but an attempt to exhaust memory.
    package static let maximumEntries = 100_000

    package var entries: [Entry]
    /// The folder the entries' relative paths start from.
    package var folder: String

    package init(entries: [Entry], folder: String) {
        self.entries = entries
        self.folder = folder
    }

    /// Reads a list file, or the `faces.json` of a folder.
    /// - Throws: ``FaceError/badLabels(path:reason:)`` naming what is wrong with it, or the
    ///   ``OcularError`` of a file that cannot be read.
    package init(contentsOf path: String) throws {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { throw OcularError.fileNotFound(path: path) }
        let file = isFolder.boolValue ? (path as NSString).appendingPathComponent(Self.fileName) : path
        if isFolder.boolValue, !FileManager.default.fileExists(atPath: file) {
            throw FaceError.badLabels(path: path, reason: "the folder holds no \(Self.fileName) naming its pictures and their faces")
        }
        let data: Data
        do {
            _ = try FileAccess.regularFileSize(file)
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch let error as OcularError {
            throw error
        } catch {
            throw OcularError.unreadableFile(path: file, reason: FileAccess.reason(for: error))
        }
        let folder = (file as NSString).deletingLastPathComponent
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode([Entry].self, from: data)
        } catch let listError {
            // The shared data's own lists (faces/faces.json, cats/labels.json) are objects keyed by path.
            guard let keyed = try? JSONDecoder().decode(KeyedByPath.self, from: data) else {
                throw FaceError.badLabels(path: file, reason: "not a JSON list of {\"file\", \"faces\": [{\"species\", \"bounds\": [x, y, w, h]}]}, "
                    + "nor {\"files\": {PATH: {\"faces\": [{\"species\", \"bbox\": [x, y, w, h]}]}}}: \(Self.describe(listError))")
            }
            entries = keyed.files.keys.sorted().map { key in
                Entry(file: Self.resolve(key, from: folder), faces: keyed.files[key]!.faces.map(\.labelled))
            }
        }
        guard entries.count <= Self.maximumEntries else {
            throw FaceError.badLabels(path: file, reason: "\(entries.count) pictures; at most \(Self.maximumEntries) are read")
        }
        if let empty = entries.first(where: { $0.file.isEmpty }) {
            throw FaceError.badLabels(path: file, reason: "an entry names no file (\(empty.faces.count) faces)")
        }
        self.init(entries: entries, folder: folder)
    }

    /// `{"files": {"cats/a.jpg": {"faces": [{"species": "cat", "bbox": [x, y, w, h], …}]}}}`, as the
    /// shared data labels its pictures (other keys, such as landmarks, are not read).
    private struct KeyedByPath: Decodable {
        struct Picture: Decodable { let faces: [Box] }
        struct Box: Decodable {
            let species: Species
            let bbox: [Int]
            var labelled: LabelledFace {
                LabelledFace(species: species, bounds: PixelRectangle(x: bbox[0], y: bbox[1], width: bbox[2], height: bbox[3]))
            }

            init(from decoder: any Decoder) throws {
                let container = try decoder.container(keyedBy: CodingKeys.self)
                species = try container.decode(Species.self, forKey: .species)
                bbox = try container.decode([Int].self, forKey: .bbox)
                guard bbox.count == 4, bbox[2] > 0, bbox[3] > 0 else {
                    throw DecodingError.dataCorruptedError(forKey: .bbox, in: container, debugDescription: "a bbox is [x, y, width, height], got \(bbox)")
                }
            }

            enum CodingKeys: String, CodingKey { case species, bbox }
        }
        let files: [String: Picture]
    }

    /// A key of such a list: a path from the list's folder or, as the shared data writes them
    /// ("cats/a.jpg" in cats/labels.json), from one of its ancestors, the nearest that holds it.
    private static func resolve(_ key: String, from folder: String) -> String {
        guard !key.hasPrefix("/") else { return key }
        // Absolute, so that the entry's path is not taken from the list's folder a second time.
        let start = folder.hasPrefix("/") ? folder : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(folder)
        var base = (start as NSString).standardizingPath
        while true {
            let candidate = (base as NSString).appendingPathComponent(key)
            if FileManager.default.fileExists(atPath: candidate) { return candidate }
            let parent = (base as NSString).deletingLastPathComponent
            if parent == base || parent.isEmpty { return (start as NSString).appendingPathComponent(key) }
            base = parent
        }
    }

    /// Where an entry's picture is.
    package func path(of entry: Entry) -> String {
        entry.file.hasPrefix("/") ? entry.file : (folder as NSString).appendingPathComponent(entry.file)
    }

    /// The list as JSON, one picture a line.
    package func encoded() throws(OcularError) -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        var lines: [String] = []
        for entry in entries {
            do {
                lines.append(String(decoding: try encoder.encode(entry), as: UTF8.self))
            } catch {
                throw .invalidArgument("cannot encode the labels of \(entry.file): \(error)")
            }
        }
        return Data(("[\n" + lines.joined(separator: ",\n") + "\n]\n").utf8)
    }

    static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .dataCorrupted(let context)?, .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .keyNotFound(_, let context)?:
            let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
            return (path.isEmpty ? "" : "at \(path): ") + context.debugDescription
        default:
            return "\(error)"
        }
    }
}
