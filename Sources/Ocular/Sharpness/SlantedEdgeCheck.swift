import Foundation

/// The slanted-edge meter checked against the analytic answer: synthetic edges blurred by a Gaussian
/// of σ pixels (MTF50 = 0.1874 / σ) at angles from 2° to 10°, under three conditions of contrast and
/// noise. `ocular sharpness check` prints it; the tests hold it within 3 % for σ ≥ 0.7.
package enum SlantedEdgeCheck {
    /// Contrast and noise of a synthetic edge.
    package struct Condition: Sendable, Hashable {
        package let name: String
        package let dark: Double
        package let light: Double
        /// Gaussian noise, standard deviation in levels.
        package let noise: Double
    }

    /// ISO 12233's recommended 4 : 1 contrast without noise; a 2 : 1 edge with a little noise; 4 : 1
    /// with the noise of a good camera at a moderate ISO (signal-to-noise ratio 75).
    package static let conditions = [
        Condition(name: "4:1 clean", dark: 51, light: 204, noise: 0),
        Condition(name: "2:1 noise 1", dark: 85, light: 170, noise: 1),
        Condition(name: "4:1 noise 2", dark: 51, light: 204, noise: 2),
    ]
    package static let sigmas = [0.5, 0.7, 1, 1.5, 2, 3]
    package static let angles = [2, 3.5, 5, 7.5, 10.0]
    /// The synthetic region's side in pixels.
    package static let side = 128

    package struct Row: Sendable, Hashable, Codable {
        package let sigma: Double
        package let degrees: Double
        package let condition: String
        /// 0.1874 / σ.
        package let analytic: Double
        package let measured: Double
        /// measured / analytic − 1.
        package var error: Double { measured / analytic - 1 }
    }

    /// Every σ × angle × condition, the edge through a point off the region's middle (so no cell
    /// relies on symmetry), each with its own noise seed. `progress` hears each row as it is measured.
    package static func run(progress: (Int, Int) -> Void = { _, _ in }) throws -> [Row] {
        var rows: [Row] = []
        let total = sigmas.count * angles.count * conditions.count
        for sigma in sigmas {
            for degrees in angles {
                for condition in conditions {
                    let chart = SlantedEdgeChart(degrees: degrees, blur: sigma, dark: condition.dark, light: condition.light,
                                                 noise: condition.noise, seed: UInt64(rows.count + 1))
                    let picture = try chart.rendered(width: side, height: side, centre: Point(x: Double(side) * 0.45, y: Double(side) * 0.55))
                    let measured = try SlantedEdge.measure(picture)
                    rows.append(Row(sigma: sigma, degrees: degrees, condition: condition.name,
                                    analytic: SlantedEdgeChart.gaussianMTF50(sigma: sigma), measured: measured.mtf50 ?? .infinity))
                    progress(rows.count, total)
                }
            }
        }
        return rows
    }
}
