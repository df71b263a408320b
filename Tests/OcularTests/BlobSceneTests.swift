import Foundation
import OcularTestSupport
import Testing
@testable import Ocular
@testable import OcularEvaluation

/// The bean counter measured on table scenes nobody tuned on: the shared training pictures cut out
/// and laid several to a scene, some touching, under uneven light with shadows, blur, noise and
/// JPEG (``BlobScenes``), at 640×480 and 1280×960, every label and box exact.
@Suite("Bean counter on table scenes")
struct BlobSceneTests {
    static let trainingList = TestData.path("beancounter/labels.json")

    /// A real photo nobody tuned on: 24 Greek coins on dark cloth (the shared images/coins.png),
    /// lit unevenly, with a light strip down the right edge. Its boxes are in
    /// Tests/Fixtures/blobs/coins-scene.json. The table is darker than the coins, which the
    /// default's table fit once took for the coins (10 boxes, most of the cloth among them). The
    /// light strip stays object (a smooth table fit cannot follow its sharp edge); carving the coins
    /// out of it finds every coin (22 before) but leaves the strip in more pieces: 33 boxes, 27 before.
    /// The table fit's term for a lens's darker corners (a fourth power of the distance from the
    /// centre) cuts the strip in 3 pieces more, 36 boxes: the strip was counted before, in fewer pieces.
    @Test("on a real photo of 24 coins on dark cloth the default profile finds them all and calls them all unidentified")
    func realCoins() throws {
        let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/blobs/coins-scene.json").path
        let scenes = try BlobSceneList(contentsOfFile: fixture)
        let list = try TrainingList(contentsOfFile: Self.trainingList)
        var results: [String: BlobSceneEvaluation] = [:]
        for profile in BlobProfile.all {
            let classifier = try BlobClassifier.train(list, profile: profile).classifier
            results[profile.name] = try scenes.evaluate(folder: TestData.path("images"), detector: try BlobDetector(profile: profile),
                                                        classifier: classifier)
        }
        let standard = try #require(results["default"]), textbook = try #require(results["textbook"])
        #expect(standard.problems.isEmpty && standard.objects == 24)
        #expect(standard.matched == 24, "found \(standard.matched) of 24")
        #expect(standard.precision >= 0.65)
        // None of them is a Canadian coin or a bean.
        #expect(standard.labellingAccuracy == 1)
        #expect(textbook.matched <= 12 && textbook.precision < 0.5)
    }

    /// Real photos of white beans and a złoty coin on dark card (the shared tables/, labelled by
    /// hand), which a phone's lens darkens towards the corners. The table fit was a quadratic, which
    /// cannot follow that fall: the corners and the top edge came out as 3, 8 and 11 more boxes on
    /// these three photos.
    @Test("on real photos of beans on dark card that darkens to the corners, every bean and the coin is found and nothing else")
    func darkCardCorners() throws {
        let list = try BlobSceneList(contentsOfFile: TestData.path("tables/photos/ground_truth.json"))
        #expect(list.scenes.count == 22 && list.scenes.reduce(0) { $0 + $1.blobs.count } == 152)
        let photos = ["beans_white_20231014_220002", "beans_white_20231014_220012", "beans_white_20231014_220019"]
        let chosen = BlobSceneList(scenes: list.scenes.filter { scene in photos.contains { scene.image.contains($0) } })
        #expect(chosen.scenes.count == 3)
        let evaluation = try chosen.evaluate(folder: TestData.path("tables/photos"), detector: try BlobDetector(), classifier: nil)
        #expect(evaluation.problems.isEmpty)
        for scene in evaluation.scenes {
            #expect(scene.matched == scene.objects && scene.found == scene.objects, "\(scene.name): \(scene.found) found, \(scene.matched) of \(scene.objects) matched")
        }
    }

    /// One of the tables' labelled photos counted by the default detector, named by the tables' list with its sizes.
    static func counted(photo: String) throws -> BlobSceneEvaluation.SceneResult {
        let list = try BlobSceneList(contentsOfFile: TestData.path("tables/photos/ground_truth.json"))
        let chosen = BlobSceneList(scenes: list.scenes.filter { $0.image.contains(photo) })
        let classifier = try BlobClassifier.train(try TablePhotos.sizedList(), profile: .standard).classifier
        let evaluation = try chosen.evaluate(folder: TestData.path("tables/photos"), detector: try BlobDetector(), classifier: classifier)
        return try #require(evaluation.scenes.first, "\(photo) is among the labelled photos")
    }

    @Test("the dark card's shaded corners are no objects; a coin the frame's corner cuts is one")
    func cornersOfTheFrame() throws {
        // Its card's top corners, ragged patches (ellipse 0.60 and 0.65) too short for a strip, were two beans.
        let scene = try Self.counted(photo: "beans_coffee_20231014_220617")
        #expect(scene.objects == 10 && scene.found == 10 && scene.matched == 10, "\(scene.found) found, \(scene.matched) matched of \(scene.objects)")

        // The demo's loonie (centre 170, 190) cut by the frame's top left corner: what shows, 86 × 85, is still a loonie.
        let demo = try Image(contentsOfFile: TestData.demo("beans.jpg"))
        let cut = try demo.cropped(to: PixelRectangle(x: 150, y: 170, width: demo.width - 150, height: demo.height - 170))
        let shipped = try BlobClassifier.train(try TrainingList(contentsOfFile: TestData.shippedTrainingList), profile: .standard).classifier
        let blobs = try BlobDetector().named(in: cut, by: shipped)
        let corner = try #require(blobs.first { $0.bounds.x == 0 && $0.bounds.y == 0 }, "\(blobs.map(\.bounds))")
        #expect(corner.classification?.label == 2 && corner.bounds.width > 60 && corner.bounds.height > 60)
    }

    @Test("coffee beans touching on dark card are each an object, not the shadow of the bean beside them")
    func greyBeansAreNoShadows() throws {
        // Its coffee beans are as dark and grey against the card as a shadow (0.57–0.60 bright, lean
        // 0.26–0.30); two touching ones were joined to their neighbours as shadows, 5 boxes for 7 objects.
        // But they are lighter than the darkness that marks an object on dark card (0.45), so in the mask
        // for their colour, and ellipses (0.87–0.89), where a shadow parted from its object is a crescent.
        let scene = try Self.counted(photo: "beans_coffee_20231014_220434")
        #expect(scene.objects == 7 && scene.found == 7 && scene.matched == 7, "\(scene.found) found, \(scene.matched) matched of \(scene.objects)")
    }

    @Test("where the dark card ends at a bean photo's top edge there is no object: the photo is its six beans and its coin")
    func cardEndIsNoObject() throws {
        // Before, strips and pieces of the card's end made 15 boxes of the photo's 7 objects. Its
        // fattest white bean, 21 mm against the list's 18, takes the złoty's name (23 mm) since real
        // sizes weigh more than the pictures' (``BlobClassifier/realSizeWeight``).
        let scene = try Self.counted(photo: "beans_white_20231014_215939")
        #expect(scene.objects == 7 && scene.found == 7 && scene.matched == 7 && scene.named >= 6,
                "\(scene.found) found, \(scene.matched) matched, \(scene.named) named of \(scene.objects)")
    }

    @Test("a labelled photo list in the tables' format is read in name order; a box that is not four numbers is refused by name")
    func groundTruthFormat() throws {
        let good = #"{"files": {"b.jpg": {"blobs": [{"label": 9, "bbox": [1, 2, 30, 40], "touching": true}]}, "a.jpg": {"blobs": []}}}"#
        let list = try BlobSceneList.decode(Data(good.utf8), path: "truth.json")
        #expect(list.scenes.map(\.image) == ["a.jpg", "b.jpg"])
        #expect(list.scenes[1].blobs == [BlobScenes.LabelledBlob(label: 9, bounds: PixelRectangle(x: 1, y: 2, width: 30, height: 40))])
        let bad = #"{"files": {"b.jpg": {"blobs": [{"label": 9, "bbox": [1, 2, 30]}]}}}"#
        #expect {
            _ = try BlobSceneList.decode(Data(bad.utf8), path: "truth.json")
        } throws: { error in
            "\(error)".contains("files[\"b.jpg\"].blobs[0]") && "\(error)".contains("bbox")
        }
    }

    @Test("a frame's blobs described side by side get exactly the answers of describing them one at a time, in their order; a size only picks a farther reference")
    func namedSideBySide() throws {
        let list = try TrainingList(contentsOfFile: Self.trainingList)
        let classifier = try BlobClassifier.train(list, profile: .standard).classifier
        let scene = try BlobScenes(list: list).scene(50, arrangement: .ring)
        let blobs = try BlobDetector().detect(in: scene.image).blobs
        #expect(blobs.count >= 5)
        let describer = try BlobDescriber(profile: .standard)
        let oneAtATime = try classifier.named(blobs.map { try describer.describe($0) })
        let together = try classifier.classifications(of: blobs)
        #expect(together == oneAtATime)
        // Alone, a blob's nearest reference wins; together, its size may pick a farther one of the right size.
        let alone = try blobs.map { try classifier.classify($0) }
        #expect(zip(together, alone).allSatisfy { ($0.distance ?? 0) >= ($1.distance ?? 0) })
        #expect(zip(together, alone).contains { $0.distance == $1.distance })
        #expect(try classifier.classified(blobs).map(\.bounds) == blobs.map(\.bounds))
        #expect(try classifier.classifications(of: []).isEmpty)
    }

    /// A tablet stores its photo turned and says how to turn it back; a reader that ignored the EXIF
    /// orientation would see every label in the wrong place.
    @Test("a photographed scene's JPEG, read back, is the picture it was made from for EXIF orientations 1, 3, 6 and 8", arguments: [1, 3, 6, 8])
    func exifOrientation(_ orientation: Int) throws {
        // Left half dark, the top right quarter light: every turn and mirror of it differs.
        let picture = try Image(width: 96, height: 64, format: .bgr8, filledWith: [220, 220, 220]).scalingPixels { x, y in x < 48 || y >= 32 ? 0.2 : 1 }
        let read = try Image(decoding: try BlobScenes.jpeg(picture, quality: 95, exifOrientation: orientation), name: "scene")
        #expect(read.width == 96 && read.height == 64)
        let difference = zip(read.bytes, picture.bytes).map { abs(Int($0) - Int($1)) }
        #expect(Double(difference.reduce(0, +)) / Double(difference.count) < 3, "mean difference \(Double(difference.reduce(0, +)) / Double(difference.count))")
    }

    @Test("rings and heaps hold 5–15 objects each, photographed at their name's size, some cut by the frame's edge")
    func photographedScenes() throws {
        let maker = try BlobScenes(list: try TrainingList(contentsOfFile: Self.trainingList))
        for arrangement in [BlobScenes.Arrangement.ring, .heap] {
            var cut = 0
            for index in 0..<4 {
                let scene = try maker.scene(index, arrangement: arrangement)
                #expect(scene.name.hasSuffix("\(scene.image.width)x\(scene.image.height)"))
                #expect(scene.file.map { Array($0.prefix(2)) } == [0xFF, 0xD8])
                #expect((index == 1 ? 3 : 5)...15 ~= scene.blobs.count, "\(scene.name): \(scene.blobs.count) objects")
                #expect(scene.blobs.allSatisfy { $0.bounds.x >= 0 && $0.bounds.y >= 0 && $0.bounds.x + $0.bounds.width <= scene.image.width
                        && $0.bounds.y + $0.bounds.height <= scene.image.height })
                if scene.conditions.contains("cut by the edge") { cut += 1 }
            }
            #expect(cut >= 1, "scene 1 of each arrangement is framed carelessly")
        }
    }
}
