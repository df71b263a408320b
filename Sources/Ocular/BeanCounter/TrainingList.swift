import Foundation

/// A labelled list of blob pictures: what each label means (index 0 is "unidentified")
/// and which picture shows which label. Read from JSON or from the textbook's property list, both
/// with the keys `labelDescriptions` and `blobs: [{imageFilename, label}]`, and optionally
/// `values: [{label, value, currency}]` (what one of a label is worth: a coin's face value in an
/// ISO 4217 currency such as "CAD"), from which a tally adds up the money, and
/// `sizes: [{label, millimetres}]` (an object's long side: a coin's diameter), from which objects
/// of one colour are told apart by size whatever distance their pictures were taken from.
public struct TrainingList: Sendable, Hashable {
    /// One training picture and its label.
    public struct Entry: Sendable, Hashable, Codable {
        /// As the list gives it: relative to the list's folder unless absolute.
        public var imageFilename: String
        /// The label: an index into the list's label descriptions.
        public var label: Int

        /// Creates an entry.
        /// - Parameters:
        ///   - imageFilename: The picture, relative to the list's folder.
        ///   - label: Its label.
        public init(imageFilename: String, label: Int) {
            self.imageFilename = imageFilename
            self.label = label
        }

        private enum CodingKeys: String, CodingKey {
            case imageFilename, label
        }

        /// A label must be a whole number: 1.5 or "1" is named as such, not as a decoder's error.
        /// - Parameter decoder: The decoder.
        /// - Throws: `DecodingError` naming the entry at fault.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            imageFilename = try container.decode(String.self, forKey: .imageFilename)
            let number: Double
            do {
                number = try container.decode(Double.self, forKey: .label)
            } catch DecodingError.typeMismatch {
                throw DecodingError.dataCorruptedError(forKey: .label, in: container, debugDescription: "must be a whole number, not text or another kind of value")
            }
            guard number.rounded() == number, let whole = Int(exactly: number) else {
                throw DecodingError.dataCorruptedError(forKey: .label, in: container, debugDescription: "must be a whole number, not \(number)")
            }
            label = whole
        }
    }

    /// What one object of a label is worth.
    public struct Worth: Sendable, Hashable, Codable {
        /// The label this worth belongs to.
        public var label: Int
        /// What one object with this label is worth.
        public var value: Double
        /// ISO 4217: "CAD", "USD", "EUR".
        public var currency: String

        /// Creates a worth.
        /// - Parameters:
        ///   - label: The label.
        ///   - value: What one object is worth.
        ///   - currency: Its currency ("EUR").
        public init(label: Int, value: Double, currency: String) {
            self.label = label
            self.value = value
            self.currency = currency
        }
    }

    /// How long one object of a label is.
    public struct Size: Sendable, Hashable, Codable {
        /// The label this size belongs to.
        public var label: Int
        /// The object's long side (a coin's diameter) in millimetres.
        public var millimetres: Double

        /// Creates a size.
        /// - Parameters:
        ///   - label: The label.
        ///   - millimetres: The object's long side in millimetres.
        public init(label: Int, millimetres: Double) {
            self.label = label
            self.millimetres = millimetres
        }
    }

    /// What each label means; index 0 is "unidentified".
    public var labelDescriptions: [String]
    /// The training pictures and their labels.
    public var entries: [Entry]
    /// What the labels that have a value are worth (coins), by label.
    public var values: [Int: Worth] = [:]
    /// The long side in millimetres of the labels that give one, by label.
    public var millimetres: [Int: Double] = [:]
    /// Where relative image names are looked up.
    public var folder: String

    /// A list larger than this is not a training list (a model of 10 000 pictures would hold 1.3 GB).
    public static let maximumBytes = 16 << 20
    /// The most pictures a list may name.
    public static let maximumEntries = 10_000
    /// The most pixels a list's pictures may hold together (about 2 GB of colour pixels): training
    /// stops with an error past it rather than exhausting memory and time.
    public static let maximumTotalPixels = 700_000_000

    /// Creates a list.
    /// - Parameters:
    ///   - labelDescriptions: What each label means, by label.
    ///   - entries: The pictures and their labels.
    ///   - folder: Where the pictures' file names are relative to.
    public init(labelDescriptions: [String], entries: [Entry], folder: String) {
        self.labelDescriptions = labelDescriptions
        self.entries = entries
        self.folder = folder
    }

    /// Reads a list.
    /// - Parameter path: A JSON or property-list file.
    /// - Throws: ``BlobError/badTrainingList(path:reason:)`` naming what is wrong, or the
    ///   ``OcularError`` of a file that cannot be read.
    public init(contentsOfFile path: String) throws {
        let size = try FileAccess.regularFileSize(path)
        guard size <= Self.maximumBytes else {
            throw BlobError.badTrainingList(path: path, reason: "it holds \(size) bytes, more than a training list's \(Self.maximumBytes)")
        }
        let data = try FileAccess.read(path)
        let folder = (path as NSString).deletingLastPathComponent
        self = try Self.decode(data, folder: folder.isEmpty ? "." : folder, path: path)
    }

    private struct Contents: Decodable {
        var labelDescriptions: [String]
        var blobs: [Entry]
        var values: [Worth]?
        var sizes: [Size]?
    }

    /// Decodes a list's bytes, JSON or property list by their first character.
    static func decode(_ data: Data, folder: String, path: String) throws(BlobError) -> TrainingList {
        guard !data.isEmpty else { throw .badTrainingList(path: path, reason: "the file is empty") }
        let first = data.first { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
        let contents: Contents
        do {
            if first == UInt8(ascii: "{") {
                contents = try JSONDecoder().decode(Contents.self, from: data)
            } else if first == UInt8(ascii: "<") || data.starts(with: Array("bplist".utf8)) {
                contents = try PropertyListDecoder().decode(Contents.self, from: data)
            } else {
                throw BlobError.badTrainingList(path: path, reason: "it is neither JSON nor a property list")
            }
        } catch let error as BlobError {
            throw error
        } catch let error as DecodingError {
            let reason = Recipe.explain(error)
            throw .badTrainingList(path: path, reason: reason == "not valid JSON" && first != UInt8(ascii: "{") ? "not a valid property list" : reason)
        } catch {
            throw .badTrainingList(path: path, reason: "\(error)")
        }
        var list = TrainingList(labelDescriptions: contents.labelDescriptions, entries: contents.blobs, folder: folder)
        for (index, worth) in (contents.values ?? []).enumerated() {
            guard (1..<list.labelDescriptions.count).contains(worth.label) else {
                throw .badTrainingList(path: path, reason: "values[\(index)] is for label \(worth.label); labels run from 1 to \(list.labelDescriptions.count - 1)")
            }
            guard worth.value.isFinite, worth.value >= 0, worth.value <= 1_000_000 else {
                throw .badTrainingList(path: path, reason: "values[\(index)] is worth \(worth.value); a value runs from 0 to 1000000")
            }
            guard worth.currency.count == 3, worth.currency.allSatisfy({ $0.isASCII && $0.isUppercase }) else {
                throw .badTrainingList(path: path, reason: "values[\(index)] has currency '\(worth.currency.prefix(20))'; a currency is three capitals (ISO 4217: CAD, USD, EUR)")
            }
            guard list.values[worth.label] == nil else {
                throw .badTrainingList(path: path, reason: "values[\(index)] gives label \(worth.label) a second value")
            }
            list.values[worth.label] = worth
        }
        for (index, size) in (contents.sizes ?? []).enumerated() {
            guard (1..<list.labelDescriptions.count).contains(size.label) else {
                throw .badTrainingList(path: path, reason: "sizes[\(index)] is for label \(size.label); labels run from 1 to \(list.labelDescriptions.count - 1)")
            }
            guard size.millimetres.isFinite, size.millimetres >= 0.1, size.millimetres <= 10_000 else {
                throw .badTrainingList(path: path, reason: "sizes[\(index)] is \(size.millimetres) mm long; a size runs from 0.1 to 10000 millimetres")
            }
            guard list.millimetres[size.label] == nil else {
                throw .badTrainingList(path: path, reason: "sizes[\(index)] gives label \(size.label) a second size")
            }
            list.millimetres[size.label] = size.millimetres
        }
        try list.check(path: path)
        return list
    }

    /// Refuses what cannot train: no label beyond "unidentified", labels off the list, empty names.
    func check(path: String) throws(BlobError) {
        guard entries.count <= Self.maximumEntries else {
            throw .badTrainingList(path: path, reason: "it names \(entries.count) pictures; a training list may name at most \(Self.maximumEntries)")
        }
        guard labelDescriptions.count >= 2 else {
            throw .badTrainingList(path: path, reason: "labelDescriptions needs \"unidentified\" and at least one label")
        }
        for (index, entry) in entries.enumerated() {
            guard (1..<labelDescriptions.count).contains(entry.label) else {
                throw .badTrainingList(path: path, reason: "blobs[\(index)] has label \(entry.label); labels run from 1 to \(labelDescriptions.count - 1) (0 is \"unidentified\")")
            }
            guard !entry.imageFilename.isEmpty, !entry.imageFilename.contains("\0") else {
                throw .badTrainingList(path: path, reason: "blobs[\(index)] has no imageFilename")
            }
        }
    }

    /// Where an entry's picture is.
    /// - Parameter entry: The entry.
    /// - Returns: Its picture's path.
    public func path(of entry: Entry) -> String {
        entry.imageFilename.hasPrefix("/") ? entry.imageFilename : (folder as NSString).appendingPathComponent(entry.imageFilename)
    }

    /// The description of a label, "label N" past the list's end.
    /// - Parameter label: The label.
    /// - Returns: Its description.
    public func description(of label: Int) -> String {
        labelDescriptions.indices.contains(label) ? labelDescriptions[label] : "label \(label)"
    }
}
