import Foundation

// Cats sought by vote: the cat cascade run over shrunk, bordered copies, a box kept where enough agree.
extension FaceDetector {
    /// Cats sought by vote. The cat cascade, trained on whole heads, answers a face whose ears the
    /// frame cuts off (or that fills it) only weakly and only at some sizes; so the gray frame is
    /// shrunk to each of `shortSides`, put inside grey borders of each of `borders` (fractions of the
    /// short side) that give room where ears would be, and searched with few neighbours; a box counts
    /// where at least `votes` of the searches agree on it (IoU ≥ 0.5), averaged over them.
    struct CatVote {
        var shortSides: [Int]
        var borders: [Double]
        var votes: Int
        var scaleStep = 1.05
        /// The smallest box sought, as a fraction of the shrunk copy's short side (0: the cascade's window).
        var smallest: Double
        /// Looks for one cat filling the frame: run only when nothing else was found.
        var fillsTheFrame = false

        /// A cat filling the frame (0.6 to 1.25 of its short side), cheaply: what streams follow such a cat with.
        static let fillingTheFrame = CatVote(shortSides: [48, 56, 64, 72], borders: [0.25, 0.5], votes: 3, smallest: 0.6, fillsTheFrame: true)
        /// Cats of any size (about 0.24 s at 1280×720): chosen on the sweep's cat frames, where it finds
        /// 20 of 22 with no false box (with the Haar cat cascade; 19 with LBP's).
        static let anywhere = CatVote(shortSides: [64, 80, 100, 125, 160, 200], borders: [0.25, 0.5], votes: 4, smallest: 0)
    }

    /// The cats `vote` finds, in the search image's coordinates (boxes may reach past its edges;
    /// they are clipped when turned into frame coordinates).
    func votedCats(in search: SearchImage, _ vote: CatVote) throws(OcularError) -> [PixelRectangle] {
        guard let catFace, profile.catFaces != nil else { return [] }
        let gray = search.unequalized
        let shortSide = Double(min(gray.width, gray.height))
        var candidates: [PixelRectangle] = []
        for side in vote.shortSides {
            let shrink = Double(side) / shortSide
            guard shrink < 1 else { continue }
            let small = try gray.scaled(by: shrink, averaging: true)
            let sizes = max(catFace.windowWidth, Int(vote.smallest * Double(side)))...max(catFace.windowWidth, side * 5 / 4)
            for border in vote.borders {
                let pad = Int(border * Double(side))
                let padded = try small.padded(left: pad, top: pad, right: pad, bottom: pad, value: 128)
                let found = try catFace.detect(in: padded, scaleStep: vote.scaleStep, minimumNeighbours: 2, sizes: sizes)
                candidates += found.map { $0.bounds.offsetBy(dx: -pad, dy: -pad).scaled(by: 1 / shrink) }
            }
        }
        // The best-supported box first, averaged over the searches that agree with it; then the next.
        var cats: [PixelRectangle] = []
        var remaining = candidates
        while !remaining.isEmpty {
            let supported = remaining.map { box in remaining.filter { $0.intersectionOverUnion(box) >= profile.catVoteAgreement } }
            guard let agreeing = supported.max(by: { $0.count < $1.count }), agreeing.count >= vote.votes else { break }
            func mean(_ value: (PixelRectangle) -> Int) -> Int { (agreeing.map(value).reduce(0, +) + agreeing.count / 2) / agreeing.count }
            let cat = PixelRectangle(x: mean(\.x), y: mean(\.y), width: mean(\.width), height: mean(\.height))
            cats.append(cat)
            remaining.removeAll { agreeing.contains($0) || $0.intersectionOverUnion(cat) >= profile.sameCat }
        }
        return cats
    }

    // MARK: - Landmarks
}
