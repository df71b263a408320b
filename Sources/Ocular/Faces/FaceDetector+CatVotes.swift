import Foundation

// Cats sought by vote: the cat cascade run over shrunk, bordered copies, a box kept where enough agree.
extension FaceDetector {
    /// The cats `vote` finds, in the search image's coordinates (boxes may reach past its edges;
    /// they are clipped when turned into frame coordinates).
    func votedCats(in search: SearchImage, _ vote: FaceDetectionProfile.CatVote) throws(OcularError) -> [PixelRectangle] {
        guard let catFace, profile.catFaces != nil else { return [] }
        let gray = search.unequalized
        let shortSide = Double(min(gray.width, gray.height))
        var candidates: [PixelRectangle] = []
        for side in vote.shortSides {
            let shrink = Double(side) / shortSide
            guard shrink < 1 else { continue }
            let small = try gray.scaled(by: shrink, averaging: true)
            let sizes = max(catFace.windowWidth, Int(vote.smallest * Double(side)))...max(catFace.windowWidth, Int(vote.largest * Double(side)))
            for border in vote.borders {
                let pad = Int(border * Double(side))
                let padded = try small.padded(left: pad, top: pad, right: pad, bottom: pad, value: 128)
                let found = try catFace.detect(in: padded, scaleStep: vote.scaleStep, minimumNeighbours: vote.minimumNeighbours, sizes: sizes)
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
}
