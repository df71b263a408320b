import Foundation

/// A trained classifier kept on disk so that start-up does not retrain (beyond the textbook).
///
/// The model is a cache: it sits in the user's cache folder (`$XDG_CACHE_HOME/ocular`, else
/// `~/.cache/ocular`), named by a checksum of the list's bytes and the profile, never beside the list
/// (which may be a read-only or version-controlled data folder), unless the caller names a file. It
/// records a fingerprint of its inputs: the profile, the list's bytes and every picture's bytes
/// (CRC-32s). A file whose fingerprint differs, or that is damaged, is retrained and replaced.
public enum BlobModel {
    /// How the classifier came to be.
    public struct Report: Sendable {
        /// Where the model is kept (or where it was meant to be, when it could not be written).
        public var modelPath: String
        /// Whether it was read from the file (true) or trained now (false).
        public var loaded: Bool
        /// Pictures of the list that could not be used.
        public var problems: [TrainingProblem]
        /// Why a stored model was not used, when there was one; why the new one was not saved.
        public var notes: [String]
    }

    /// The version of the file's layout; a different one is retrained.
    static let formatVersion = 7

    /// The classifier of a training list: loaded from its model file when that matches the list and
    /// pictures as they are now, trained (and the file written) otherwise.
    /// - Parameters:
    ///   - listPath: The training list (JSON or property list).
    ///   - profile: How blobs are described and compared.
    ///   - threshold: nil for the profile's default.
    ///   - retrain: Train even when the stored model matches.
    ///   - modelFile: Where to keep the model; nil for the user's cache folder.
    ///   - progress: Called before each picture trained, with its index, the count and its name.
    /// - Returns: The classifier and the pictures that could not be used.
    /// - Throws: ``BlobError/badTrainingList(path:reason:)`` for a list that cannot train, or the
    ///   ``OcularError`` of a file that cannot be read.
    public static func classifier(forList listPath: String, profile: BlobProfile, threshold: Double? = nil,
                                  retrain: Bool = false, modelFile: String? = nil, progress: (Int, Int, String) -> Void = { _, _, _ in })
        throws -> (classifier: BlobClassifier, report: Report) {
        let list = try TrainingList(contentsOfFile: listPath)
        let fingerprint = try Self.fingerprint(listPath: listPath, list: list, profile: profile)
        let modelPath: String
        if let modelFile { modelPath = modelFile } else { modelPath = try Self.modelPath(forList: listPath, profile: profile) }
        var notes: [String] = []
        if !retrain, FileManager.default.fileExists(atPath: modelPath) {
            do {
                let stored = try StoredModel.read(modelPath, profile: profile)
                if stored.fingerprint == fingerprint {
                    let classifier = try BlobClassifier(profile: profile, labelDescriptions: stored.labelDescriptions,
                                                        references: stored.references, threshold: threshold, values: list.values,
                                                        millimetres: list.millimetres)
                    return (classifier, Report(modelPath: modelPath, loaded: true, problems: stored.problems, notes: []))
                }
                notes.append("the training list or its pictures changed since '\(modelPath)' was made: retrained")
            } catch {
                notes.append("'\(modelPath)' cannot be used (\(error.description)): retrained")
            }
        }
        let (classifier, problems) = try BlobClassifier.train(list, profile: profile, threshold: threshold, progress: progress)
        let stored = StoredModel(fingerprint: fingerprint, profile: profile.name, labelDescriptions: list.labelDescriptions,
                                 references: classifier.references, problems: problems)
        do {
            try stored.write(to: modelPath)
        } catch {
            notes.append("the model was not saved: \(error.description)")
        }
        return (classifier, Report(modelPath: modelPath, loaded: false, problems: problems, notes: notes))
    }

    /// In the user's cache folder, named by a checksum of the list's bytes (two lists with the same
    /// bytes in different folders name their pictures relative to themselves, so the checksum also
    /// covers the list's folder) and the profile: `…/ocular/1a2b3c4d-labels.default.blobmodel`.
    /// - Parameters:
    ///   - listPath: The training list.
    ///   - profile: The profile.
    /// - Returns: The model file's path.
    /// - Throws: ``OcularError`` when the list cannot be read.
    public static func modelPath(forList listPath: String, profile: BlobProfile) throws(OcularError) -> String {
        let absolute = URL(fileURLWithPath: listPath).standardizedFileURL.path
        let folder = (absolute as NSString).deletingLastPathComponent
        let base = ((absolute as NSString).lastPathComponent as NSString).deletingPathExtension
        let checksum = String(Checksum.of(Array(try FileAccess.read(listPath)) + Array(folder.utf8)), radix: 16)
        return (cacheFolder as NSString).appendingPathComponent("\(checksum)-\(base).\(profile.name).blobmodel")
    }

    /// `$XDG_CACHE_HOME/ocular`, else `~/.cache/ocular`.
    public static var cacheFolder: String {
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSTemporaryDirectory()) as NSString).appendingPathComponent(".cache")
        return (cache as NSString).appendingPathComponent("ocular")
    }

    /// What the model depends on, in one string: the profile and the CRC-32 of the list and of each
    /// picture ("missing" for one that cannot be read).
    static func fingerprint(listPath: String, list: TrainingList, profile: BlobProfile) throws(OcularError) -> String {
        var parts = ["v\(formatVersion)", profile.name, String(Checksum.of(try FileAccess.read(listPath)), radix: 16)]
        for entry in list.entries {
            let bytes = try? FileAccess.read(list.path(of: entry))
            parts.append(bytes.map { String(Checksum.of($0), radix: 16) } ?? "missing")
        }
        return parts.joined(separator: " ")
    }
}

/// The model file's contents: a binary property list, the descriptors as raw little-endian bytes.
struct StoredModel: Codable {
    struct Reference: Codable {
        var imageFilename: String
        var label: Int
        var colour: Data
        var hueSaturation: Data
        var keypoints: Data
        /// The colour and hue-saturation histograms under the profile's other white balances, in order.
        var otherColours: [Data]
        var otherHueSaturations: [Data]
        /// The object's size and outline, when its pixels were found.
        var form: BlobDescriptor.Form?
    }

    struct Problem: Codable {
        var imageFilename: String
        var reason: String
    }

    var format = BlobModel.formatVersion
    var fingerprint: String
    var profile: String
    var labelDescriptions: [String]
    var storedReferences: [Reference]
    var storedProblems: [Problem]

    init(fingerprint: String, profile: String, labelDescriptions: [String], references: [BlobReference], problems: [TrainingProblem]) {
        self.fingerprint = fingerprint
        self.profile = profile
        self.labelDescriptions = labelDescriptions
        self.storedReferences = references.map {
            Reference(imageFilename: $0.imageFilename, label: $0.label, colour: Self.bytes(of: $0.descriptor.colour),
                      hueSaturation: Self.bytes(of: $0.descriptor.hueSaturation), keypoints: Data($0.descriptor.keypoints),
                      otherColours: $0.descriptor.otherWhiteBalances.map { Self.bytes(of: $0.colour) },
                      otherHueSaturations: $0.descriptor.otherWhiteBalances.map { Self.bytes(of: $0.hueSaturation) },
                      form: $0.descriptor.form)
        }
        self.storedProblems = problems.map { Problem(imageFilename: $0.imageFilename, reason: $0.reason) }
    }

    var problems: [TrainingProblem] { storedProblems.map { TrainingProblem(imageFilename: $0.imageFilename, reason: $0.reason) } }

    /// The references, each size checked against the profile.
    func references(for profile: BlobProfile) throws(OcularError) -> [BlobReference] {
        let colourCount = profile.colourBins * profile.colourBins * profile.colourBins
        let hueSaturationCount = profile.hueSaturation ? BlobProfile.hueBins * BlobProfile.saturationBins : 0
        var references: [BlobReference] = []
        for (index, stored) in storedReferences.enumerated() {
            guard stored.colour.count == colourCount * 4, stored.hueSaturation.count == hueSaturationCount * 4,
                  stored.keypoints.count % BlobDescriptor.keypointBytes == 0,
                  stored.otherColours.count == profile.whiteBalances.count, stored.otherHueSaturations.count == profile.whiteBalances.count,
                  stored.otherColours.allSatisfy({ $0.count == colourCount * 4 }),
                  stored.otherHueSaturations.allSatisfy({ $0.count == hueSaturationCount * 4 }),
                  labelDescriptions.indices.contains(stored.label) else {
                throw .invalidArgument("reference \(index) does not fit the \(profile.name) profile")
            }
            references.append(BlobReference(imageFilename: stored.imageFilename, label: stored.label,
                                            descriptor: BlobDescriptor(colour: Self.floats(of: stored.colour),
                                                                       hueSaturation: Self.floats(of: stored.hueSaturation),
                                                                       keypoints: [UInt8](stored.keypoints),
                                                                       otherWhiteBalances: zip(stored.otherColours, stored.otherHueSaturations).map {
                                                                           BlobDescriptor.Colours(colour: Self.floats(of: $0), hueSaturation: Self.floats(of: $1))
                                                                       }, form: stored.form)))
        }
        return references
    }

    /// The file starts with this, then the CRC-32 of the rest (big-endian), then the property list:
    /// a model is checked whole before any of it is used, so any damage retrains.
    static let signature = Array("OCULARBM".utf8)

    static func read(_ path: String, profile: BlobProfile) throws(OcularError) -> (fingerprint: String, labelDescriptions: [String], references: [BlobReference], problems: [TrainingProblem]) {
        let file = [UInt8](try FileAccess.read(path))
        guard file.count > signature.count + 4, file.starts(with: signature) else { throw .invalidArgument("not a blob model of this version") }
        let recorded = file[signature.count..<(signature.count + 4)].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        let body = Array(file[(signature.count + 4)...])
        guard Checksum.of(body) == recorded else { throw .invalidArgument("damaged: its checksum does not match its bytes") }
        let data = Data(body)
        let stored: StoredModel
        do {
            stored = try PropertyListDecoder().decode(StoredModel.self, from: data)
        } catch {
            throw .invalidArgument("not a blob model")
        }
        guard stored.format == BlobModel.formatVersion, stored.profile == profile.name else {
            throw .invalidArgument("made by another version or profile")
        }
        return (stored.fingerprint, stored.labelDescriptions, try stored.references(for: profile), stored.problems)
    }

    /// Written whole or not at all (a temporary file renamed over the old one).
    func write(to path: String) throws(OcularError) {
        let folder = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let encoder = PropertyListEncoder()
        encoder.outputFormat = .binary
        let data: Data
        do {
            data = try encoder.encode(self)
        } catch {
            throw .writeFailed(path: path, reason: "\(error)")
        }
        let checksum = Checksum.of([UInt8](data))
        let header = Self.signature + (0..<4).map { UInt8(truncatingIfNeeded: checksum >> (24 - 8 * UInt32($0))) }
        try FileAccess.write(Data(header) + data, to: path)
    }

    static func bytes(of values: [Float]) -> Data {
        values.withUnsafeBufferPointer { Data(buffer: $0) }
    }

    static func floats(of data: Data) -> [Float] {
        data.withUnsafeBytes { raw in
            (0..<raw.count / 4).map { Float(bitPattern: raw.loadUnaligned(fromByteOffset: $0 * 4, as: UInt32.self)) }
        }
    }
}
