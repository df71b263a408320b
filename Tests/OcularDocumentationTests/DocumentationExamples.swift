import Foundation
import Ocular
import OcularGallery
import Testing

// The code of the documentation's articles (Sources/Ocular/Ocular.docc), compiled and run here. Every
// ```swift block of an article must appear in this file line for line (indentation aside):
// `DocumentationCatalogTests` checks that, so an example that no longer compiles fails the build.

/// The shared pictures and videos (../shared/data, or OCULAR_TEST_DATA).
let sharedData: String = {
    if let folder = ProcessInfo.processInfo.environment["OCULAR_TEST_DATA"] { return folder }
    return URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../../shared/data").standardized.path
}()

func temporaryFolder() throws -> String {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocular-docs-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    return folder
}

// MARK: - Stages and recipes: a stage of one's own

/// Lifts every sample by a fixed amount: the article's example of a stage.
struct LiftStage: Stage {
    static let name = "lift"
    static let title = "Lift"
    static let category = StageCategory.colourAdjustment
    static let summary = "Adds a fixed amount to every sample."
    static let amount = Key<Int>.integer("amount", title: "Amount", in: 0...255, default: 16,
                                         help: "Added to every sample, saturating at 255.")
    static let parameters = declared(amount)

    let amount: Int

    init(_ values: StageValues) {
        amount = values[Self.amount]
    }

    func process(_ frame: Frame) throws -> Frame {
        let image = frame.image
        let lifted = image.bytes.map { UInt8(min(255, Int($0) + amount)) }
        var frame = frame
        frame.image = try Image(width: image.width, height: image.height, format: image.format,
                                bytesPerRow: image.bytesPerRow, bytes: lifted)
        return frame
    }
}

@Suite("The documentation's examples")
struct DocumentationExamples {
    @Test("Getting started: a picture through a recipe into a file")
    func gettingStarted() throws {
        let inputPath = sharedData + "/images/coffee.png"
        let outputPath = try temporaryFolder() + "/coffee-sepia.jpg"

        let picture = try Image(contentsOfFile: inputPath)
        let recipe = try Recipe(json: #"{"stages": [{"stage": "whiteBalance"}, {"stage": "sepiaTone", "intensity": 0.8}]}"#)
        let pipeline = try Pipeline(recipe)
        let result = try pipeline.process(picture)
        try result.write(toFile: outputPath)

        let written = try Image(contentsOfFile: outputPath)
        #expect(written.width == picture.width && written.height == picture.height)
        // Sepia: red above green above blue everywhere on average.
        let means = written.channelMeans()  // blue, green, red
        #expect(means[2] > means[1] && means[1] > means[0])
    }

    @Test("Images and pixel formats: made, converted, read back")
    func imagesAndPixelFormats() throws {
        let gray = try Image(width: 4, height: 2, format: .gray8, filledWith: [128])
        let colour = try gray.converted(to: .bgr8)
        print(colour.pixel(x: 0, y: 0))  // [128, 128, 128]
        #expect(colour.pixel(x: 0, y: 0) == [128, 128, 128])

        // NV12 from a camera: a full-size Y plane, then a half-size plane of interleaved U and V.
        let width = 4, height = 2
        let luma = [UInt8](repeating: 200, count: width * height)
        let chroma = [UInt8](repeating: 128, count: width * height / 2)
        let frame = try Image(width: width, height: height, format: .nv12, bytes: luma + chroma)
        let rgb = try frame.converted(to: .rgb8)
        print(rgb.format, rgb.bytesPerRow)  // rgb8 12
        #expect(rgb.bytesPerRow == 12)
        // BT.601 video range: Y 200 with neutral chroma is gray 255 / 219 × (200 − 16) = 214.
        #expect(rgb.pixel(x: 3, y: 1).allSatisfy { abs(Int($0) - 214) <= 1 }, "\(rgb.pixel(x: 3, y: 1))")
    }

    @Test("Stages and recipes: settings, a recipe in JSON, a stage of one's own")
    func stagesAndRecipes() throws {
        let picture = try Image(width: 8, height: 8, format: .gray8, filledWith: [100])

        let posterize = try PosterizeStage.with(["levels": 4])
        let poster = try posterize.process(Frame(image: picture)).image
        #expect(poster.pixel(x: 0, y: 0) != [100])

        let registry = StageRegistry(StageRegistry.standard.stages + [LiftStage.self])
        let recipe = try Recipe(json: #"{"stages": [{"stage": "lift", "amount": 30}, {"stage": "negative"}]}"#)
        let pipeline = try Pipeline(recipe, registry: registry)
        let result = try pipeline.process(picture)
        print(result.pixel(x: 0, y: 0))  // [125]: 255 - (100 + 30)
        #expect(result.pixel(x: 0, y: 0) == [125])

        #expect(throws: StageError.self) { try LiftStage.with(["amount": 300]) }
    }

    @Test("Faces: the astronaut's face and eyes")
    func faces() throws {
        let portrait = try Image(contentsOfFile: sharedData + "/faces/astronaut.png")

        let detector = try FaceDetector()
        let faces = try detector.faces(in: portrait)
        for face in faces {
            print(face.species, face.bounds, face.leftEye, face.rightEye, face.angle)
        }

        #expect(faces.count == 1)
        let face = try #require(faces.first)
        #expect(face.species == .human)
        #expect((80...320).contains(face.bounds.width), "the astronaut's face is \(face.bounds)")
        #expect(face.leftEye.x < face.rightEye.x)
    }

    @Test("Faces, measured: every face of a portrait, its parts and its own pixels; a tracker for a stream")
    func facesMeasured() throws {
        let portraitPath = sharedData + "/faces/astronaut.png"
        let facePath = try temporaryFolder() + "/face.png"

        let detector = try FaceDetector()                              // Ocular's default profile; FaceDetector(profile: .cascades), (profile: .textbook)
        for face in try detector.faces(in: try Image(contentsOfFile: portraitPath)) {
            print(face.species, face.bounds, face.confidence, face.leftEye, face.nose, face.mouth as Any, face.smile, face.angle)
            try face.image.write(toFile: facePath)                     // each face keeps its own copy of its pixels
        }
        let tracker = FaceTracker(detector: detector)                  // a stream: call tracker.faces(in:) frame after frame

        let written = try Image(contentsOfFile: facePath)
        #expect((80...320).contains(written.width), "the astronaut's face is \(written.width) wide")
        #expect(try tracker.faces(in: try Image(contentsOfFile: portraitPath)).count == 1)
    }

    @Test("Faces, measured: a person and a cat merged into a hybrid")
    func facesMerged() throws {
        let mePath = sharedData + "/faces/astronaut.png", catPath = sharedData + "/faces/chelsea.png"
        let hybridPath = try temporaryFolder() + "/hybrid.png"

        let detector = try FaceDetector()
        let me = try detector.biggestFace(in: try Image(contentsOfFile: mePath), named: "me.png")  // throws noFace when there is none
        let cat = try detector.biggestFace(in: try Image(contentsOfFile: catPath), named: "cat.png")
        let hybrid = try me.merged(with: cat)     // .hybrid; human+human is .human, cat+cat is .cat
        try hybrid.image.write(toFile: hybridPath)

        #expect(hybrid.species == .hybrid)
        #expect(try Image(contentsOfFile: hybridPath).width == hybrid.image.width)
    }

    @Test("Bean counter: coins on a table")
    func beanCounter() throws {
        let table = try Image(contentsOfFile: sharedData + "/images/coins.png")

        let detector = try BlobDetector()
        let detection = try detector.detect(in: table)
        print("\(detection.blobs.count) blobs")
        for blob in detection.blobs {
            print(blob.bounds)
        }

        #expect(detection.blobs.count >= 10)
        #expect(detection.mask.width == table.width)
    }

    @Test("Bean counter: the demo table found, named and counted in one step")
    func beanCounterNamed() throws {
        // The studio's demo table (seven coins and beans, one of each) and its training list, which gives the coins their worth.
        let studio = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Sources/OcularStudio").standardized
        let table = try Image(contentsOfFile: studio.appendingPathComponent("Public/demo/beans.jpg").path)
        let trainingList = studio.appendingPathComponent("TrainingList/labels.json").path

        let classifier = try BlobModel.classifier(forList: trainingList, profile: .standard).classifier
        let blobs = try BlobDetector().named(in: table, by: classifier)
        print(BlobTally(blobs: blobs, classifier: classifier).text)

        #expect(blobs.count == 7)
        #expect(BlobTally(blobs: blobs, classifier: classifier).text.hasSuffix(": $3.40"))
    }

    @Test("Video sources and sinks: a clip through a recipe into a new clip")
    func videoSourcesAndSinks() throws {
        let videoPath = sharedData + "/video/astronaut_pan.avi"
        let outputPath = try temporaryFolder() + "/edges.mp4"

        let source = try VideoFileSource(path: videoPath)
        let sink = VideoFileSink(path: outputPath, framesPerSecond: source.frameRate)
        let pipeline = try Pipeline(Recipe(json: #"{"stages": [{"stage": "edges"}]}"#))
        let count = try pipeline.run(from: source, into: sink, limit: 30) { progress in
            print("\(progress.framesDone) of \(progress.frameCount ?? 0)")
        }
        try sink.finish()

        #expect(count == 30)
        let written = try VideoFileSource(path: outputPath)
        #expect(written.width == source.width && written.height == source.height)
        #expect(try written.nextFrame() != nil)
    }

    @Test("Video sources and sinks: a recorded clip's container, read")
    func clipProbe() throws {
        let clipPath = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../Fixtures/clips/chrome-vp8-opus.webm").standardized.path

        let clip = try ClipProbe(contentsOfFile: clipPath)
        print(clip.container, clip.videoCodec, clip.audioCodec ?? "silent", clip.duration)
        if clip.hasAudio, let rate = clip.audioSampleRate {
            print("sound at \(rate) Hz")
        }

        #expect(clip.container == .webm && clip.videoCodec == "vp8" && clip.audioCodec == "opus")
        #expect(clip.audioSampleRate == 48000 && abs(clip.duration - 1.5) < 0.1)
    }

    @Test("The gallery: a save, listed, its file")
    func gallery() throws {
        let folder = try temporaryFolder()
        let picture = try Image(contentsOfFile: sharedData + "/images/coffee.png")
        let recipe = try Recipe(json: #"{"stages": [{"stage": "sepiaTone"}]}"#)

        let gallery = try Gallery(folder: folder)
        let item = try gallery.save(picture, recipe: recipe, source: "coffee.png", caption: "sepia coffee")
        print(item.id, gallery.path(of: item))
        for saved in try gallery.items() {
            print(saved.fileName, saved.caption, saved.recipe?.json ?? "no recipe")
        }

        #expect(try gallery.count() == 1)
        #expect(try gallery.items().first?.caption == "sepia coffee")
        #expect(FileManager.default.fileExists(atPath: gallery.path(of: item)))
    }

    @Test("Errors: what, why, and a code to branch on")
    func errors() throws {
        let missingPath = try temporaryFolder() + "/missing.png"

        do throws(OcularError) {
            _ = try Image(contentsOfFile: missingPath)
        } catch {
            print(error)       // the file '…/missing.png' does not exist
            print(error.code)  // file.notFound
        }

        #expect(throws: OcularError.fileNotFound(path: missingPath)) { try Image(contentsOfFile: missingPath) }
        #expect(OcularError.fileNotFound(path: missingPath).code.name == "file.notFound")
        #expect(OcularError.fileNotFound(path: missingPath).code.kind == .notFound)
    }
}
