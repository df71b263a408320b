import Dispatch
import Synchronization

/// Total-variation denoising and the pencil drawing: the two smoothing samples.

/// OpenCV's denoise_TVL1 on each channel: noise flattened, edges kept.
public struct TotalVariationStage: Stage {
    public static let name = "totalVariation"
    public static let title = "Total-variation denoise"
    public static let category = StageCategory.sample
    public static let summary = "Removes noise while keeping edges sharp (total-variation denoising, TV-L1): "
        + "use it on grainy low-light frames; it flattens fine texture too. Slow on large colour frames."

    /// The “Fidelity (λ)” parameter: How closely the result keeps to the frame: smaller is smoother.
    public static let lambda = Key<Double>.number("lambda", title: "Fidelity (λ)", in: 0.05...5, step: 0.05, default: 1,
                                                  help: "How closely the result keeps to the frame: smaller is smoother.")
    /// The “Iterations” parameter: More converge further and cost more.
    public static let iterations = Key<Int>.integer("iterations", title: "Iterations", in: 1...100, default: 30,
                                                    help: "More converge further and cost more.")
    public static let parameters = declared(lambda, iterations)

    /// The values of the parameters this stage was built with.
    public let values: (lambda: Double, iterations: Int)

    public init(_ values: StageValues) {
        self.values = (values[Self.lambda], values[Self.iterations])
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        let image = try frame.image.packed
        let planes = try image.splitChannels()
        // Alpha is not noise: it is kept as it is. OpenCV's TV-L1 runs on one thread: the channels are
        // denoised side by side.
        let colours = image.format.hasAlpha ? 3 : planes.count
        let results = Mutex([Result<Image, OcularError>?](repeating: nil, count: colours))
        let (lambda, iterations) = values
        DispatchQueue.concurrentPerform(iterations: colours) { index in
            let result = Result { () throws(OcularError) in try planes[index].totalVariationDenoised(lambda: lambda, iterations: iterations) }
            results.withLock { $0[index] = result }
        }
        var denoised = try results.withLock { $0 }.map { (result) throws(OcularError) in try result!.get() }
        if image.format.hasAlpha { denoised.append(planes[3]) }
        frame.image = try Image.merged(denoised, as: image.format)
        return frame
    }
}

/// The tutorial's drawing canvas: a bilateral filter smooths the surfaces, then an adaptive threshold
/// keeps the lines, black on white.
public struct DrawingCanvasStage: Stage {
    public static let name = "drawingCanvas"
    public static let title = "Drawing canvas"
    public static let category = StageCategory.sample
    public static let summary = "A pencil drawing of the frame: black lines on white paper; use it for a sketch look, "
        + "or to see a picture's outlines without its colours."

    /// The “Smoothing” parameter: The bilateral filter's sigma: higher smooths more texture away before the lines are drawn.
    public static let smoothing = Key<Double>.number("smoothing", title: "Smoothing", in: 1...200, step: 1, default: 50,
                                                     help: "The bilateral filter's sigma: higher smooths more texture away before the lines are drawn.")
    /// The “Line scale” parameter: The neighbourhood each pixel is compared with: larger draws broader lines.
    public static let blockSize = Key<Int>.integer("blockSize", title: "Line scale", in: 3...51, step: 2, default: 9,
                                                   help: "The neighbourhood each pixel is compared with: larger draws broader lines.")
    /// The “Paper” parameter: How much darker than its neighbourhood a pixel must be to become a line: higher is cleaner paper.
    public static let offset = Key<Double>.number("offset", title: "Paper", in: 0...30, step: 0.5, default: 5,
                                                  help: "How much darker than its neighbourhood a pixel must be to become a line: higher is cleaner paper.")
    public static let parameters = declared(smoothing, blockSize, offset)

    /// The values of the parameters this stage was built with.
    public let values: (smoothing: Double, blockSize: Int, offset: Double)

    public init(_ values: StageValues) {
        self.values = (values[Self.smoothing], values[Self.blockSize], values[Self.offset])
    }

    public func process(_ frame: Frame) throws(OcularError) -> Frame {
        var frame = frame
        let gray = try frame.image.converted(to: .gray8)
        let smooth = try gray.bilateralFiltered(diameter: 9, sigmaColour: values.smoothing, sigmaSpace: values.smoothing)
        frame.image = try smooth.adaptiveThreshold(blockSize: values.blockSize, offset: values.offset, gaussian: false)
        return frame
    }
}
