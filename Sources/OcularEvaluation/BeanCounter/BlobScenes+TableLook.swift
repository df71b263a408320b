import Foundation
import Ocular

/// What real photos of tables show that a made scene must too, measured on `tables/photos`.
///
/// The 22 real photos of coins and beans (1512×1512 to 2000×1500, a phone's): white paper exposed to
/// 171–199 of 255 (not the 230–240 a scanner gives), nearly even (corners 0.95–1.0 of the middle);
/// dark card at 40–59 whose corners fall to 0.31–0.48 of its middle under a desk lamp; each object 5–18 %
/// of the short side; metal glinting, 0.2–3.5 % of a coin's box brighter than the paper. The paper's
/// own grain (1.3–2.5 levels at 2 px, 1.6–3.1 at 12 px) is a sensor's noise, which every scene adds.
/// Drawn from a generator of its own, so a scene's other choices stay what they were.
struct TableLook {
    /// Dark card under a lamp, not white paper: one scene in three.
    var darkCard: Bool
    /// The card's colour (blue, green, red) when it is one.
    var card: [UInt8]
    /// The camera's exposure on paper (1 on card): what 1.0 of the light comes out as.
    var exposure: Double
    /// How dark the card's corners fall at least (1 − the fraction of the middle's light they keep).
    var cardVignetting: Double
    /// What the camera's distance does to the arrangement's fill of the frame: one scene in three is
    /// seen from farther (0.7: the arrangement 25–56 % of the short side, its smallest objects 5 %).
    var fillFactor: Double

    init(random: inout SeededGenerator) {
        darkCard = Int.random(in: 0..<3, using: &random) == 0
        let cards: [[UInt8]] = [[44, 42, 40], [58, 57, 55], [42, 40, 36], [36, 38, 42]]
        card = cards[Int.random(in: 0..<cards.count, using: &random)]
        exposure = darkCard ? 1 : Double.random(in: 0.72...1, using: &random)
        cardVignetting = Double.random(in: 0.5...0.65, using: &random)
        fillFactor = Int.random(in: 0..<3, using: &random) == 0 ? 0.7 : 1
    }

    /// The table: the card, or the light `paper` the scene drew.
    func table(paper: [UInt8]) -> [UInt8] { darkCard ? card : paper }

    /// The corners' darkness: the scene's own, or the card's lamp's when darker.
    func vignetting(_ drawn: Double) -> Double { darkCard ? max(drawn, cardVignetting) : drawn }

    /// In the user's words, for a scene's conditions.
    var conditions: [String] {
        var words = [darkCard ? "dark card" : "paper exposed \(SweepFinish.format((exposure * 100).rounded() / 100))"]
        if fillFactor < 1 { words.append("from farther") }
        return words
    }

    /// Each coin's shine, as the real photos' coins show it (not a spot: a coin is a flat, embossed
    /// disc): its face lighter towards the lamp, 5–30 % of the way to white at its lit edge, and a
    /// bright arc along the lit part of its outer tenth, 40–80 % of the way. `coins` are outlines on the
    /// canvas; what lies within each's inner radius shines.
    static func glinting(_ canvas: Image, coins: [[Point]], random: inout SeededGenerator) throws(OcularError) -> Image {
        guard !coins.isEmpty, canvas.format == .bgr8 else { return canvas }
        var bytes = canvas.bytes
        let stride = canvas.bytesPerRow
        for outline in coins where !outline.isEmpty {
            let count = Double(outline.count)
            let centre = Point(x: outline.reduce(0) { $0 + $1.x } / count, y: outline.reduce(0) { $0 + $1.y } / count)
            let inner = outline.reduce(Double.infinity) { nearest, point in
                let dx = point.x - centre.x, dy = point.y - centre.y
                return min(nearest, (dx * dx + dy * dy).squareRoot())
            }
            guard inner >= 4 else { continue }
            let angle = Double.random(in: 0..<(2 * .pi), using: &random)
            let face = Double.random(in: 0.05...0.3, using: &random), rim = Double.random(in: 0.4...0.8, using: &random)
            let ux = cos(angle), uy = sin(angle)
            let left = max(0, Int(centre.x - inner)), right = min(canvas.width - 1, Int(centre.x + inner))
            let top = max(0, Int(centre.y - inner)), bottom = min(canvas.height - 1, Int(centre.y + inner))
            guard left <= right, top <= bottom else { continue }
            for row in top...bottom {
                for column in left...right {
                    let dx = Double(column) - centre.x, dy = Double(row) - centre.y
                    let distance = (dx * dx + dy * dy).squareRoot() / inner
                    guard distance <= 1 else { continue }
                    // How far towards the lamp, −1 to 1 across the face.
                    let towards = (dx * ux + dy * uy) / inner
                    let lit = (0.5 + 0.5 * towards)
                    var lift = face * lit * lit
                    if distance > 0.9, towards > 0.7 * distance { lift = max(lift, rim * (distance - 0.9) / 0.1) }
                    for channel in 0..<3 {
                        let at = row * stride + column * 3 + channel
                        let value = Double(bytes[at])
                        bytes[at] = UInt8((value + lift * (255 - value)).rounded())
                    }
                }
            }
        }
        return try Image(width: canvas.width, height: canvas.height, format: canvas.format, bytesPerRow: stride, bytes: bytes)
    }
}
