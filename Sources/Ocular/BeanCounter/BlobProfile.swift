/// How blobs are described and compared.
///
/// - `textbook`: the book's baseline, kept by name for comparison. The textbook's detection; a 32³ BGR histogram of the whole
///   rectangle divided by its pixel count, and ORB descriptors of the CLAHE-equalised gray blob;
///   distance 0.98 × alternative chi-square + 0.02 × the sum of the nearest Hamming distances. With
///   about 500 keypoints the Hamming sum (~40 000 before weighting) outweighs the histogram (at most
///   4) by two hundred times, and grows with the keypoint count, so it cannot be given a threshold.
/// - `default`: Ocular's. Blobs found on a lit table with touching objects split
///   (``BlobDetector/Method/separating(_:)``). Both parts scaled to [0, 1] so that their weights mean what they say: the
///   colour term averages the BGR histogram's chi-square and that of a 30 × 32 hue-saturation
///   histogram (lighting changes brightness more than hue), each divided by its maximum of 4; the
///   texture term is the mean nearest Hamming distance divided by 256 bits. Distance = 0.2 × colour
///   + 0.8 × texture, between 0 and 1, so one threshold serves any training set; plus 0.2 × how far
///   apart the two outlines' elongations are (|log| of their ratio), when both are known, and among a
///   photo's objects their sizes help pick (``BlobClassifier/classifications(of:)``). Measured on 140
///   crops (each training object rotated, scaled 0.25–0.7, relit ±15 % on new backgrounds): 100 %
///   against the textbook's 96.4 %; Benchmarks/BeanCounterMeasured.md has the held-apart figures.
public struct BlobProfile: Sendable, Hashable, CustomStringConvertible {
    /// How a blob's parts are weighed into one distance.
    public enum Distance: String, Sendable, Hashable, Codable {
        /// 0.98 × chi-square + 0.02 × Σ Hamming.
        case textbook
        /// 0.2 × colour + 0.8 × texture, each in [0, 1].
        case normalised
    }

    /// `default` or `textbook`.
    public let name: String
    /// Bins per channel of the BGR histogram.
    public let colourBins: Int
    /// Whether a hue-saturation histogram is added to the description.
    public let hueSaturation: Bool
    /// How two descriptors are compared.
    public let distance: Distance
    /// ORB's keypoint budget.
    public let keypoints: Int
    /// How blobs are found, with every constant of the finding: ``BlobDetector/Method/separating(_:)``
    /// (a lit table, touching objects split) or the textbook's mean-and-deviation mask.
    public let detection: BlobDetector.Method
    /// Whether blobs are found by ``BlobDetector/Method/separating(_:)`` rather than the textbook's mask.
    public var separates: Bool {
        if case .separating = detection { true } else { false }
    }
    /// Blobs are resized so their long side is this many pixels before they are described (ORB
    /// finds next to nothing in a 60-pixel coin, and training pictures are 400–700 pixels); nil: as
    /// they are. Chosen on the table scenes: 96 px names 69 % of the objects, 128–192 px 98–99 %,
    /// 256 px 97.7 %, 384 px 94.7 %.
    public let describedSide: Int?
    /// The distance above which a blob is "unidentified" unless told otherwise; nil: never.
    public let defaultThreshold: Double?
    /// Each training picture's colours are also described with the white balance off by each of these
    /// kelvin, and a blob's colour term is its distance to the nearest of them: a camera's white
    /// balance a few hundred kelvin off moved pinto beans on white paper from 0.31 to 0.34, past the
    /// threshold (rings chosen on: 95 % named, 62.5 % exact tallies). With ±300 K, 100 % and 83.3 %
    /// (±600 K and both did the same), scattered scenes unchanged. Dividing each channel by the
    /// table's colour instead cost scattered scenes on tinted tables 15 % of their names. The texture
    /// (gray) hardly moves with white balance, so it is described once.
    public let whiteBalances: [Double]

    /// The profile's name.
    public var description: String { name }

    /// What people read.
    public var title: String { separates ? "Ocular's default" : "Textbook" }

    /// The hue-saturation histogram's bins (hue over OpenCV's [0, 180)).
    static let hueBins = 30, saturationBins = 32

    /// The textbook's profile: a 32-bin colour histogram compared by its own distance.
    public static let textbook = BlobProfile(name: "textbook", colourBins: 32, hueSaturation: false, distance: .textbook,
                                             keypoints: 500, detection: .textbook(BlobDetector.Settings()), describedSide: nil,
                                             defaultThreshold: nil, whiteBalances: [])
    /// Ocular's default. The threshold sat at 0.33, between the farthest correct answer on the
    /// held-apart crops (0.31) and the nearest picture of something else (0.35 for a coffee cup), then
    /// 0.38 once the outline counted. With colour weighed over texture (``BlobDescriber``), real
    /// photos' objects lie up to 0.45 from their own label's pictures; at 0.45 the tables' photos
    /// kept for tuning lose no name to the threshold that 0.5 would give.
    public static let standard = BlobProfile(name: "default", colourBins: 32, hueSaturation: true, distance: .normalised,
                                             keypoints: 500, detection: .separating(BlobDetector.Separation()), describedSide: 160,
                                             defaultThreshold: 0.45, whiteBalances: [-300, 300])

    /// The named profiles, as `--profile` and the stage's choice list them.
    public enum Name: String, ParameterChoice {
        /// Ocular's profile, chosen on the classification sweep.
        case standard = "default"
        /// The textbook's profile.
        case textbook

        /// The profile this name stands for.
        public var profile: BlobProfile {
            switch self {
            case .standard: .standard
            case .textbook: .textbook
            }
        }

        public var title: String { profile.title }
    }

    /// The named profiles, in the order ``Name`` lists them.
    public static let all = Name.allCases.map(\.profile)

    /// The profile of that name, nil for none.
    /// - Parameter name: `default` or `textbook`.
    /// - Returns: The profile.
    public static func named(_ name: String) -> BlobProfile? {
        Name(rawValue: name)?.profile
    }
}
