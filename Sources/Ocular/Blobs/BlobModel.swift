import Foundation

/// A trained classifier kept on disk so that start-up does not retrain (SPEC §5, "go beyond").
///
/// The file sits beside the training list (`labels.json` → `labels.default.blobmodel`), or in the
/// user's cache folder when the list's folder cannot be written (a shared, read-only data set). It
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
    static let formatVersion = 2

    /// The classifier of a training list: loaded from its model file when that matches the list and
    /// pictures as they are now, trained (and the file written) otherwise.
    /// - Parameters:
    ///   - listPath: The training list (JSON or property list).
    ///   - threshold: nil for the profile's default.
    ///   - retrain: Train even when the stored model matches.
    ///   - progress: Called before each picture trained, with its index, the count and its name.
    ///   - inCache: Keep the model in the user's cache folder even when the list's folder can be
    ///     written (the studio's demo list lies in the folder it serves, where nothing may be written).
    public static func classifier(forList listPath: String, profile: BlobProfile, threshold: Double? = nil,
                                  retrain: Bool = false, inCache: Bool = false, progress: (Int, Int, String) -> Void = { _, _, _ in })
        throws(OcularError) -> (classifier: BlobClassifier, report: Report) {
        let list = try TrainingList(contentsOfFile: listPath)
        let fingerprint = try Self.fingerprint(listPath: listPath, list: list, profile: profile)
        let modelPath = Self.modelPath(forList: listPath, profile: profile, inCache: inCache)
        var notes: [String] = []
        if !retrain, FileManager.default.fileExists(atPath: modelPath) {
            do {
                let stored = try StoredModel.read(modelPath, profile: profile)
                if stored.fingerprint == fingerprint {
                    let classifier = try BlobClassifier(profile: profile, labelDescriptions: stored.labelDescriptions,
                                                        references: stored.references, threshold: threshold)
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

    /// Beside the list when its folder can be written, else in the user's cache folder under a name
    /// that includes a checksum of the list's full path (two lists never share a file).
    public static func modelPath(forList listPath: String, profile: BlobProfile, inCache: Bool = false) -> String {
        let absolute = URL(fileURLWithPath: listPath).standardizedFileURL.path
        let folder = (absolute as NSString).deletingLastPathComponent
        let base = ((absolute as NSString).lastPathComponent as NSString).deletingPathExtension
        let name = "\(base).\(profile.name).blobmodel"
        // A folder nobody may write to is meant to stay as it is, even for root (whom access() lets through).
        var status = stat()
        if !inCache, access(folder, W_OK) == 0, stat(folder, &status) == 0, status.st_mode & 0o222 != 0 {
            return (folder as NSString).appendingPathComponent(name)
        }
        let environment = ProcessInfo.processInfo.environment
        let cache = environment["XDG_CACHE_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? ((environment["HOME"] ?? NSTemporaryDirectory()) as NSString).appendingPathComponent(".cache")
        let checksum = String(Checksum.of(Array(absolute.utf8)), radix: 16)
        return ((cache as NSString).appendingPathComponent("ocular") as NSString).appendingPathComponent("\(checksum)-\(name)")
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
                      hueSaturation: Self.bytes(of: $0.descriptor.hueSaturation), keypoints: Data($0.descriptor.keypoints))
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
                  labelDescriptions.indices.contains(stored.label) else {
                throw .invalidArgument("reference \(index) does not fit the \(profile.name) profile")
            }
            references.append(BlobReference(imageFilename: stored.imageFilename, label: stored.label,
                                            descriptor: BlobDescriptor(colour: Self.floats(of: stored.colour),
                                                                       hueSaturation: Self.floats(of: stored.hueSaturation),
                                                                       keypoints: [UInt8](stored.keypoints))))
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
