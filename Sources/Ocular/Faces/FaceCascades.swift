import Foundation
internal import OpenCVBridge
internal import OpenCVCascades
import Synchronization

/// Which cascade files face detection loads. By default OpenCV's data package's (Debian's
/// opencv-data: /usr/share/opencv4/haarcascades and lbpcascades); any file may be named instead.
public struct FaceCascades: Sendable, Hashable {
    /// The path of the frontal human face cascade.
    public var humanFace: String
    /// The path of the cat face cascade.
    public var catFace: String
    /// The cascades are named after the person's own eyes: the subject's left eye shows on the
    /// viewer's right (measured: haarcascade_lefteye_2splits finds astronaut.png's eye in the right
    /// half of her face and nothing in the left).
    public var subjectsLeftEye: String
    /// The path of the subject's right eye cascade.
    public var subjectsRightEye: String
    /// The path of the smile cascade.
    public var smile: String

    /// Creates cascade paths.
    /// - Parameters:
    ///   - humanFace: The frontal human face cascade.
    ///   - catFace: The frontal cat face cascade.
    ///   - subjectsLeftEye: The subject's left eye cascade.
    ///   - subjectsRightEye: The subject's right eye cascade.
    ///   - smile: The smile cascade.
    public init(humanFace: String, catFace: String, subjectsLeftEye: String, subjectsRightEye: String, smile: String) {
        self.humanFace = humanFace
        self.catFace = catFace
        self.subjectsLeftEye = subjectsLeftEye
        self.subjectsRightEye = subjectsRightEye
        self.smile = smile
    }

    /// Where OpenCV's data package puts its cascades on Debian, from source builds, and on Homebrew.
    public static let dataFolders = ["/usr/share/opencv4", "/usr/local/share/opencv4", "/opt/homebrew/share/opencv4"]

    /// The shipped cascades of `kind` (the LBP variants exist for faces only: eyes and smile stay Haar),
    /// from the first data folder that has the frontal face cascade.
    /// - Parameters:
    ///   - kind: Haar or LBP face cascades.
    ///   - folder: A data folder holding `haarcascades/` and `lbpcascades/`; nil searches ``dataFolders``.
    /// - Returns: The cascades' paths (the first folder's, or the standard folder's when none has them).
    public static func shipped(_ kind: FaceDetectionProfile.CascadeKind = .haar, in folder: String? = nil) -> FaceCascades {
        let root = folder ?? dataFolders.first { FileManager.default.fileExists(atPath: "\($0)/haarcascades/haarcascade_frontalface_alt.xml") }
            ?? dataFolders[0]
        let haar = "\(root)/haarcascades/haarcascade_"
        let lbp = "\(root)/lbpcascades/lbpcascade_"
        return FaceCascades(
            humanFace: kind == .haar ? haar + "frontalface_alt.xml" : lbp + "frontalface.xml",
            catFace: kind == .haar ? haar + "frontalcatface_extended.xml" : lbp + "frontalcatface.xml",
            subjectsLeftEye: haar + "lefteye_2splits.xml",
            subjectsRightEye: haar + "righteye_2splits.xml",
            smile: haar + "smile.xml")
    }
}

/// One cascade file, loaded. OpenCV's classifier keeps scratch buffers, so a classifier serves one
/// search at a time: searches on several threads at once (`ocular batch`'s workers) each take an idle
/// copy, and another copy is read from the file only when all are busy, so there are never more copies
/// than searches that ran at once. The first copy is read once per file and process (``load(_:role:)``).
public final class Cascade: Sendable {
    /// The file it was loaded from.
    public let path: String
    /// The detection window: the smallest object the cascade sees.
    public let windowWidth: Int
    /// The height of the cascade's detection window, in pixels.
    public let windowHeight: Int
    /// A classifier handed between threads: one thread at a time uses it (``withClassifier(_:)``).
    private struct Classifier: @unchecked Sendable {
        let pointer: OpaquePointer
    }

    /// Copies not in use.
    private let idle: Mutex<[Classifier]>
    private let role: String

    private init(path: String, role: String) throws(FaceError) {
        do throws(OcularError) {
            _ = try FileAccess.regularFileSize(path)
        } catch {
            throw .unusableCascade(role: role, path: path, reason: Self.reason(error))
        }
        let loaded = try Self.read(path, role: role)
        var width: Int32 = 0, height: Int32 = 0
        ocv_cascade_window(loaded, &width, &height)
        self.path = path
        self.role = role
        self.windowWidth = Int(width)
        self.windowHeight = Int(height)
        self.idle = Mutex([Classifier(pointer: loaded)])
    }

    deinit {
        idle.withLock { $0.forEach { ocv_cascade_release($0.pointer) } }
    }

    private static func read(_ path: String, role: String) throws(FaceError) -> OpaquePointer {
        var loaded: OpaquePointer?
        var failure = OCVError()
        let status = ocv_cascade_load(path, &loaded, &failure)
        guard status == OCV_STATUS_OK, let loaded else {
            throw .unusableCascade(role: role, path: path, reason: OpenCV.message(of: &failure))
        }
        return loaded
    }

    /// Runs `body` with a classifier no other thread is using, given back afterwards.
    private func withClassifier<Result>(_ body: (OpaquePointer) throws(OcularError) -> Result) throws(OcularError) -> Result {
        let classifier: Classifier
        if let taken = idle.withLock({ $0.popLast() }) {
            classifier = taken
        } else {
            do {
                classifier = Classifier(pointer: try Self.read(path, role: role))
            } catch {
                // The file was read once already: it changed or went away since.
                throw .unreadableFile(path: path, reason: error.description)
            }
        }
        defer { idle.withLock { $0.append(classifier) } }
        return try body(classifier.pointer)
    }

    private static let loaded = Mutex<[String: Cascade]>([:])

    /// The cascade in `path`, loaded on first use and kept for the life of the process.
    /// - Parameters:
    ///   - path: The cascade's XML file.
    ///   - role: What it is for ("human face"), for the error message.
    /// - Returns: The cascade.
    /// - Throws: ``FaceError/unusableCascade(role:path:reason:)`` when the file is missing or
    ///   holds no classifier OpenCV can read.
    public static func load(_ path: String, role: String) throws(FaceError) -> Cascade {
        if let cascade = loaded.withLock({ $0[path] }) { return cascade }
        let cascade = try Cascade(path: path, role: role)
        return loaded.withLock { cache in
            if let earlier = cache[path] { return earlier }
            cache[path] = cascade
            return cascade
        }
    }

    private static func reason(_ error: OcularError) -> String {
        switch error {
        case .fileNotFound: "no such file (install opencv-data, or point at the file)"
        case .unreadableFile(_, let reason): reason
        default: error.description
        }
    }

    /// What one search found: the box (in the searched image) and how many windows agreed on it.
    public struct Detection: Sendable, Hashable {
        /// Where the cascade found it.
        public var bounds: PixelRectangle
        /// How many overlapping windows voted for it.
        public var neighbours: Int
    }

    /// detectMultiScale on a rectangle of an 8-bit gray image.
    /// - Parameters:
    ///   - gray: The image.
    ///   - region: Where to search (inside the image); nil for all of it.
    ///   - scaleStep: The pyramid's step.
    ///   - minimumNeighbours: How many windows must agree.
    ///   - sizes: The objects' widths in pixels to look for; the upper bound may be `Int.max`.
    /// - Returns: The boxes in the coordinates of `gray` (not of `region`).
    /// - Throws: ``OcularError`` when OpenCV fails or the image is not 8-bit gray.
    public func detect(in gray: Image, region: PixelRectangle? = nil, scaleStep: Double, minimumNeighbours: Int,
                       sizes: ClosedRange<Int>) throws(OcularError) -> [Detection] {
        guard gray.format == .gray8 else { throw .invalidArgument("a cascade searches gray images, not \(gray.format)") }
        let area = region ?? PixelRectangle(x: 0, y: 0, width: gray.width, height: gray.height)
        guard area.clipped(toWidth: gray.width, height: gray.height) == area else {
            throw .invalidArgument("the region \(area) lies outside the \(gray.width)×\(gray.height) image")
        }
        let smallest = Int32(clamping: sizes.lowerBound), largest = sizes.upperBound >= Int(Int32.max) ? 0 : Int32(sizes.upperBound)
        return try withClassifier { (classifier) throws(OcularError) -> [Detection] in
            var count: Int32 = 0
            try gray.withMatrix(of: area) { (view) throws(OcularError) in
                try OpenCV.call("detectMultiScale(\((path as NSString).lastPathComponent), \(area))") {
                    ocv_cascade_detect(classifier, view, scaleStep, Int32(clamping: minimumNeighbours), smallest, largest, &count, $0)
                }
            }
            guard count > 0 else { return [] }
            var found = [OCVDetection](repeating: OCVDetection(), count: Int(count))
            found.withUnsafeMutableBufferPointer { ocv_cascade_detections(classifier, $0.baseAddress!, count) }
            return found.map {
                Detection(bounds: PixelRectangle(x: Int($0.x) + area.x, y: Int($0.y) + area.y, width: Int($0.width), height: Int($0.height)),
                          neighbours: Int($0.neighbours))
            }
        }
    }
}
