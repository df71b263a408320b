import Foundation
@testable import Ocular

/// The shared tables/ photos (coins on white paper, beans on dark card, every object labelled): which
/// were held apart while choosing, and the training list with the objects' real sizes.
package enum TablePhotos {
    package static let heldApart = ["coins_cad_016", "coins_cad_025", "coins_cad_043", "coins_cad_045",
                            "beans_coffee_20231014_220553", "beans_coffee_20231014_220617",
                            "beans_white_20231014_220012", "beans_white_20231014_220019"]

    /// The tables' training list with its objects' real lengths, as a user would give them: the
    /// coins' diameters from their mints; the beans' median lengths against the złoty (23 mm) in the
    /// bean photos kept for tuning (white 17.7 mm of 17, coffee 10.7 mm of 20).
    package static func sizedList() throws -> TrainingList {
        var list = try TrainingList(contentsOfFile: TestData.path("tables/train/labels.json"))
        list.millimetres = [2: 21.2, 3: 18.03, 4: 23.88, 5: 26.5, 6: 28, 9: 18, 10: 11, 11: 23]
        return list
    }
}
