extension FaceDetectionProfile {
    /// A second network that rules on the first one's unsure faces. YuNet over a whole 1280-pixel frame
    /// takes a sixth of CenterFace's time and finds as many faces, but at the scores that keep its
    /// small and turned faces it also calls cats and busy backgrounds people, which CenterFace does
    /// not. So every box the first network scores from ``candidates`` up is a face when it scores
    /// ``sure`` or more, and otherwise only when the checking network, run on the square around it,
    /// finds a face there: a few small runs a frame instead of a second whole-frame one.
    public struct NetworkCheck: Sendable, Hashable {
        /// The checking network, with its threshold, its box and the side of the square it is run on
        /// (``NetworkSearch/followSide``). Without the first network's file it searches alone, with these settings.
        public var network: NetworkSearch
        /// The least score of the first network's that is checked at all.
        public var candidates: Double
        /// From this score on, the first network's faces stand unchecked.
        public var sure: Double
        /// How far around a candidate the check looks, as a fraction of its size on each side.
        public var margin: Double
        /// A face whose eye line the first network draws turned this far or more (degrees, either way)
        /// takes the checking network's eyes, nose and mouth: YuNet's follow a turned head badly.
        public var turnedEyes: Double
        /// … run on the square around the face shrunk to this many pixels a side (a multiple of 32): at the
        /// check's own 96, the face is too few pixels for its eyes to be placed to a degree.
        public var landmarkSide: Int

        /// Creates a check.
        /// - Parameters:
        ///   - network: The checking network's settings.
        ///   - candidates: The least first-network score checked.
        ///   - sure: The score from which no check is needed.
        ///   - margin: The context around a candidate, as a fraction of its size on each side.
        ///   - turnedEyes: The eye line's turn (degrees) from which the checking network places the landmarks.
        ///   - landmarkSide: The side of the square the checking network places them in.
        public init(network: NetworkSearch, candidates: Double, sure: Double, margin: Double, turnedEyes: Double, landmarkSide: Int) {
            self.network = network
            self.candidates = candidates
            self.sure = sure
            self.margin = margin
            self.turnedEyes = turnedEyes
            self.landmarkSide = landmarkSide
        }
    }
}
