import Foundation
import Ocular
import OcularTestSupport
import Testing

/// A results file's lines, parsed.
private func resultLines(_ path: String) throws -> [JSON] {
    let text = try String(contentsOfFile: path, encoding: .utf8)
    return try text.split(separator: "\n").map { try JSON(parsing: String($0)) }
}

/// Every regular, visible file under `folder`, relative to it.
private func visibleFiles(under folder: String) -> [String] {
    let found = FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? []
    return found.filter { relative in
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isFolder) else { return false }
        return !isFolder.boolValue && !relative.split(separator: "/").contains { $0.hasPrefix(".") }
    }.sorted()
}

/// `count` different small pictures: crops of a real photo at different places, so each has its own bytes.
private func makePictures(_ count: Int, in folder: String, from picture: String) throws -> [String] {
    try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    let source = try Image(contentsOfFile: picture)
    return try (0..<count).map { index in
        let crop = try source.cropped(to: PixelRectangle(x: (index * 7) % (source.width - 96), y: (index * 5) % (source.height - 72), width: 96, height: 72))
        let path = folder + "/picture-\(String(format: "%03d", index)).png"
        try crop.write(toFile: path)
        return path
    }
}

@Suite("ocular batch")
struct BatchCLITests {
    let astronaut = dataRoot + "/faces/astronaut.png", coffee = dataRoot + "/images/coffee.png"
    static let recipe = #"{"stages":[{"stage":"whiteBalance"},{"stage":"faces"}]}"#

    @Test("a folder, a file and a manifest: outputs byte-equal to ocular apply's, the findings apply --json prints, a damaged input a failed line")
    func batchMatchesApply() throws {
        let folder = try Folder()
        let inputs = folder.file("in")
        try FileManager.default.createDirectory(atPath: inputs + "/nested", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: astronaut, toPath: inputs + "/nested/astronaut.png")
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: inputs + "/broken.jpg"))
        try Data("hidden".utf8).write(to: URL(fileURLWithPath: inputs + "/.hidden.png"))
        try Data("{\"path\":\"\(coffee)\",\"output\":\"named/cup.png\"}\n# a comment\n\n".utf8)
            .write(to: URL(fileURLWithPath: folder.file("list.jsonl")))
        let output = folder.file("out")
        let run = try ocular(["batch", inputs, folder.file("list.jsonl"), "--recipe", Self.recipe, "-o", output, "--format", "png", "--jobs", "2"])
        // One input failed: the exit status counts it.
        #expect(run.status == 1, "\(run.errors)")
        #expect(run.output.contains("3 inputs: 2 written, 0 already done, 1 failed"), "\(run.output)")
        #expect(visibleFiles(under: output) == ["in/nested/astronaut.png", "named/cup.png", "results.jsonl"])
        // Written under hidden partial names and renamed into place: none is left behind.
        let hidden = (FileManager.default.enumerator(atPath: output)?.allObjects as? [String] ?? []).filter { $0.split(separator: "/").contains { $0.hasPrefix(".") } }
        #expect(hidden.isEmpty, "\(hidden)")

        let applied = folder.file("applied.png")
        let apply = try ocular("apply", astronaut, "--recipe", Self.recipe, "-o", applied, "--json")
        #expect(apply.status == 0, "\(apply.errors)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: output + "/in/nested/astronaut.png")) == Data(contentsOf: URL(fileURLWithPath: applied)))

        let lines = try resultLines(output + "/results.jsonl")
        #expect(lines.count == 3)
        let byPath = Dictionary(uniqueKeysWithValues: lines.map { ($0["path"].text ?? "", $0) })
        let face = try #require(byPath.first { $0.key.hasSuffix("nested/astronaut.png") }?.value)
        #expect(face["status"] == "done")
        let expected = try JSON(parsing: apply.output)
        #expect(face["annotations"] == expected)
        #expect(expected["faces"].list.count == 1)
        #expect(face["input"].text?.count == 64 && face["milliseconds"].int != nil)
        let broken = try #require(byPath.first { $0.key.hasSuffix("broken.jpg") }?.value)
        #expect(broken["status"] == "failed")
        #expect(broken["error"]["code"] == "image.notAnImage")
        #expect(broken["error"]["message"].text?.contains("broken.jpg") == true)
        #expect(byPath[coffee]?["output"] == .text(output + "/named/cup.png"))
    }

    @Test("a video goes through the recipe frame by frame, as ocular process runs it, and keeps its container")
    func video() throws {
        let folder = try Folder()
        let clip = dataRoot + "/video/astronaut_pan.avi"
        let output = folder.file("out")
        let run = try ocular(["batch", clip, "--recipe", #"{"stages":[{"stage":"gray"}]}"#, "-o", output, "--format", "png"])
        #expect(run.status == 0, "\(run.errors)")
        let line = try #require(try resultLines(output + "/results.jsonl").first)
        #expect(line["frames"] == 30 && line["status"] == "done")
        #expect(line["output"] == .text(output + "/astronaut_pan.avi"))
        let source = try VideoFileSource(path: output + "/astronaut_pan.avi")
        var frames = 0
        while let frame = try source.nextFrame() {
            frames += 1
            // Gray, written as colour: the three channels agree (within the codec's rounding).
            let pixel = frame.image.pixel(x: 240, y: 180)
            #expect(abs(Int(pixel[0]) - Int(pixel[2])) <= 3)
        }
        #expect(frames == 30)
    }

    @Test("--resume does nothing over a finished batch, redoes an input whose bytes changed, and everything when the recipe did")
    func resume() throws {
        let folder = try Folder()
        let pictures = try makePictures(6, in: folder.file("pictures"), from: astronaut)
        let output = folder.file("out")
        let gray = #"{"stages":[{"stage":"gray"}]}"#
        let first = try ocular(["batch", folder.file("pictures"), "--recipe", gray, "-o", output])
        #expect(first.status == 0, "\(first.errors)")
        let written = output + "/pictures/picture-000.png"
        let firstDate = try #require(try FileManager.default.attributesOfItem(atPath: written)[.modificationDate] as? Date)
        let firstLines = try String(contentsOfFile: output + "/results.jsonl", encoding: .utf8)

        let again = try ocular(["batch", folder.file("pictures"), "--recipe", gray, "-o", output, "--resume"])
        #expect(again.status == 0 && again.output.contains("6 inputs: 0 written, 6 already done, 0 failed"), "\(again.output)")
        #expect(try FileManager.default.attributesOfItem(atPath: written)[.modificationDate] as? Date == firstDate)
        #expect(try String(contentsOfFile: output + "/results.jsonl", encoding: .utf8) == firstLines)

        // One input's bytes change; another's output is gone.
        try Image(contentsOfFile: astronaut).cropped(to: PixelRectangle(x: 100, y: 100, width: 64, height: 64)).write(toFile: pictures[2])
        try FileManager.default.removeItem(atPath: output + "/pictures/picture-004.png")
        let changed = try ocular(["batch", folder.file("pictures"), "--recipe", gray, "-o", output, "--resume"])
        #expect(changed.output.contains("6 inputs: 2 written, 4 already done, 0 failed"), "\(changed.output)")
        #expect(try Image(contentsOfFile: output + "/pictures/picture-002.png").width == 64)

        let other = try ocular(["batch", folder.file("pictures"), "--recipe", #"{"stages":[{"stage":"gray"},{"stage":"negative"}]}"#, "-o", output, "--resume"])
        #expect(other.output.contains("6 inputs: 6 written, 0 already done, 0 failed"), "\(other.output)")
    }

    @Test("shards are disjoint, cover every input, stay put when a file is added, and write their outputs as one run does")
    func shards() throws {
        let folder = try Folder()
        _ = try makePictures(24, in: folder.file("pictures"), from: coffee)
        let gray = #"{"stages":[{"stage":"gray"}]}"#
        let whole = try ocular(["batch", folder.file("pictures"), "--recipe", gray, "-o", folder.file("whole"), "--jobs", "1"])
        #expect(whole.status == 0, "\(whole.errors)")

        func shardOutputs(_ count: Int, into output: String) throws -> [[String]] {
            try (0..<count).map { index in
                let run = try ocular(["batch", folder.file("pictures"), "--recipe", gray, "-o", output, "--shard", "\(index)/\(count)"])
                #expect(run.status == 0, "\(run.errors)")
                return try resultLines(output + "/results-\(index).jsonl").compactMap { $0["output"].text }
            }
        }
        let three = try shardOutputs(3, into: folder.file("three"))
        let all = three.flatMap { $0 }
        #expect(all.count == 24 && Set(all).count == 24)
        #expect(three.allSatisfy { !$0.isEmpty })
        let names = visibleFiles(under: folder.file("three")).filter { $0.hasSuffix(".png") }
        #expect(names == visibleFiles(under: folder.file("whole")).filter { $0.hasSuffix(".png") })
        for name in names {
            #expect(FileManager.default.contentsEqual(atPath: folder.file("three/" + name), andPath: folder.file("whole/" + name)), "\(name)")
        }

        // One more file: every earlier one stays in its shard.
        _ = try makePictures(25, in: folder.file("pictures"), from: coffee)
        let after = try shardOutputs(3, into: folder.file("after"))
        for index in 0..<3 {
            let before = Set(three[index].map { ($0 as NSString).lastPathComponent })
            let now = Set(after[index].map { ($0 as NSString).lastPathComponent })
            #expect(before.isSubset(of: now), "shard \(index)")
        }
        #expect(after.flatMap { $0 }.count == 25)
    }

    @Test("deploy/kubernetes/batch-job.yaml's pods: its args run as N processes at once with JOB_COMPLETION_INDEX, the results merged")
    func indexedJob() throws {
        // The Job's own command line and size, read from the file a user applies.
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let job = try String(contentsOf: repository.appendingPathComponent("deploy/kubernetes/batch-job.yaml"), encoding: .utf8)
        func field(_ name: String) throws -> String {
            let line = try #require(job.split(separator: "\n").first { $0.trimmingCharacters(in: .whitespaces).hasPrefix(name + ":") })
            return line.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces)
        }
        let count = try #require(Int(try field("completions")))
        #expect(Int(try field("parallelism")) == count)
        let jobArguments = try JSON(parsing: try field("args")).texts
        #expect(jobArguments.firstIndex(of: "--shard-count").map { jobArguments[$0 + 1] } == "\(count)")

        let folder = try Folder()
        _ = try makePictures(20, in: folder.file("data/input"), from: astronaut)
        try Data("not a picture".utf8).write(to: URL(fileURLWithPath: folder.file("data/input/zz-broken.png")))
        try Data(#"{"stages":[{"stage":"gray"}]}"#.utf8).write(to: URL(fileURLWithPath: folder.file("data/recipe.json")))
        let arguments = jobArguments.map { $0.hasPrefix("/data/") ? folder.file(String($0.dropFirst())) : $0 }
        let output = folder.file("data/output")
        let pods = try (0..<count).map { index -> Process in
            let process = Process()
            process.executableURL = URL(fileURLWithPath: ocularExecutable)
            process.arguments = arguments
            process.environment = ProcessInfo.processInfo.environment.merging(["JOB_COMPLETION_INDEX": "\(index)"]) { $1 }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        for pod in pods { pod.waitUntilExit() }
        // Exactly one pod met the damaged file, and its status says so (the Job's podFailurePolicy reads it).
        #expect(pods.map(\.terminationStatus).sorted() == Array(repeating: 0, count: count - 1) + [1])
        let files = (0..<count).map { output + "/results-\($0).jsonl" }
        let perShard = try files.map { try resultLines($0).compactMap { $0["path"].text } }
        #expect(Set(perShard.flatMap { $0 }).count == 21 && perShard.flatMap { $0 }.count == 21)

        let merge = try ocular(["batch", "merge"] + files + ["-o", output + "/results.jsonl"])
        #expect(merge.status == 1, "\(merge.errors)")
        #expect(merge.output.contains("21 inputs from \(count) files, 20 done, 1 failed"), "\(merge.output)")
        let merged = try resultLines(output + "/results.jsonl").compactMap { $0["path"].text }
        #expect(merged == merged.sorted() && merged.count == 21)
        #expect(visibleFiles(under: output).filter { $0.hasSuffix(".png") }.count == 20)
    }

    @Test("bad inputs and options are refused by name, nothing written")
    func refusals() throws {
        let folder = try Folder()
        let gray = #"{"stages":[{"stage":"gray"}]}"#
        expectCleanFailure(try ocular(["batch", folder.file("missing"), "--recipe", gray, "-o", folder.file("out")]), mentioning: "no such file or folder")
        try Data("{\"path\":\"\(coffee)\",\"output\":\"../escape.png\"}\n".utf8).write(to: URL(fileURLWithPath: folder.file("up.jsonl")))
        expectCleanFailure(try ocular(["batch", folder.file("up.jsonl"), "--recipe", gray, "-o", folder.file("out")]),
                           mentioning: "up.jsonl, line 1: the output '../escape.png' must be a relative path inside the output folder")
        // A NUL in an output's name (two such outputs shared one partial file).
        try Data(#"{"path":"\#(coffee)","output":"a\u0000b.png"}"#.utf8 + Data("\n".utf8)).write(to: URL(fileURLWithPath: folder.file("nul.jsonl")))
        expectCleanFailure(try ocular(["batch", folder.file("nul.jsonl"), "--recipe", gray, "-o", folder.file("out")]),
                           mentioning: "nul.jsonl, line 1: the output 'a b.png' must be a relative path inside the output folder, without control characters")
        try Data("\(coffee)\n{\"path\": 3}\n".utf8).write(to: URL(fileURLWithPath: folder.file("bad.txt")))
        expectCleanFailure(try ocular(["batch", folder.file("bad.txt"), "--recipe", gray, "-o", folder.file("out")]), mentioning: "bad.txt, line 2")
        try Data("\(coffee)\n\(coffee)\n".utf8).write(to: URL(fileURLWithPath: folder.file("twice.txt")))
        expectCleanFailure(try ocular(["batch", folder.file("twice.txt"), "--recipe", gray, "-o", folder.file("out")]), mentioning: "would both be written to \(coffee.dropFirst())")
        // Each says what is wrong (before: "The value '3/2' is invalid").
        expectCleanFailure(try ocular(["batch", coffee, "--recipe", gray, "-o", folder.file("out"), "--shard", "3/2"]),
                           mentioning: "--shard 3/2: I must be from 0 to 1, as shards are counted from 0")
        expectCleanFailure(try ocular(["batch", coffee, "--recipe", gray, "-o", folder.file("out"), "--shard", "0/0"]),
                           mentioning: "--shard 0/0: N, the number of shards, must be from 1 to 1000000")
        // A file with no results line is not merged as "0 inputs", exit 0.
        try Data("junk\n".utf8).write(to: URL(fileURLWithPath: folder.file("junk.jsonl")))
        let junk = try ocular(["batch", "merge", folder.file("junk.jsonl"), "-o", folder.file("merged.jsonl")])
        expectCleanFailure(junk, mentioning: "none of its 1 lines is a batch's results line")
        #expect(junk.status == 74 && !FileManager.default.fileExists(atPath: folder.file("merged.jsonl")))
        expectCleanFailure(try ocular(["batch", coffee, "--recipe", gray, "-o", folder.file("out"), "--opencv-threads", "0"]),
                           mentioning: "--opencv-threads must be from 1 to 1024, got 0")
        let noIndex = try ocular(["batch", coffee, "--recipe", gray, "-o", folder.file("out"), "--shard-count", "2"], environment: ["JOB_COMPLETION_INDEX": "two"])
        expectCleanFailure(noIndex, mentioning: "JOB_COMPLETION_INDEX must be a whole number from 0 to 1, got 'two'")
        #expect(noIndex.status == 64)
        let missing = try ocular(["batch", folder.file("missing.png"), "--recipe", gray, "-o", folder.file("out")])
        #expect(missing.status == 66)
        #expect(visibleFiles(under: folder.file("out")).isEmpty)
    }

    @Test("the folder walk goes by the file system: an output folder that holds the input, a folder named through a link, an output folder linked from inside the input, a name that is not UTF-8 (each read nothing, or read the outputs again, or left a file out unsaid)")
    func folderWalk() throws {
        let folder = try Folder()
        let gray = #"{"stages":[{"stage":"gray"}]}"#
        let inputs = folder.file("in")
        _ = try makePictures(2, in: inputs + "/sub", from: coffee)
        try FileManager.default.copyItem(atPath: coffee, toPath: inputs + "/coffee.png")

        // `-o` the folder holding the input: its outputs would go over the inputs themselves ("0 inputs", exit 0 before).
        let over = try ocular(["batch", "run", inputs, "-o", folder.path, "--recipe", gray])
        expectCleanFailure(over, mentioning: "the outputs of \(inputs) would be written over it")
        #expect(over.status == 65)
        // `-o` the input folder itself: its outputs go below it, and are not read again ("0 inputs" before).
        let into = try ocular(["batch", "run", inputs, "-o", inputs, "--recipe", gray])
        #expect(into.status == 0 && into.output.contains("3 inputs: 3 written"), "\(into.output) \(into.errors)")
        let resumed = try ocular(["batch", "run", inputs, "-o", inputs, "--recipe", gray, "--resume"])
        #expect(resumed.status == 0 && resumed.output.contains("3 inputs: 0 written, 3 already done"), "\(resumed.output) \(resumed.errors)")
        try FileManager.default.removeItem(atPath: inputs + "/in")
        try FileManager.default.removeItem(atPath: inputs + "/results.jsonl")

        // A folder named through a symbolic link is walked at its real place (0 inputs before).
        try FileManager.default.createSymbolicLink(atPath: folder.file("link"), withDestinationPath: inputs)
        let linked = try ocular(["batch", "run", folder.file("link"), "-o", folder.file("out-link"), "--recipe", gray])
        #expect(linked.status == 0 && linked.output.contains("3 inputs: 3 written"), "\(linked.output) \(linked.errors)")
        #expect(visibleFiles(under: folder.file("out-link")).filter { $0.hasSuffix(".png") }
                == ["link/coffee.png", "link/sub/picture-000.png", "link/sub/picture-001.png"])

        // The output folder reached through a link inside the input is not read as input (2 → 4 → 6 before).
        try FileManager.default.createDirectory(atPath: folder.file("out-inside"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: inputs + "/to-out", withDestinationPath: folder.file("out-inside"))
        for _ in 1...2 {
            let again = try ocular(["batch", "run", inputs, "-o", folder.file("out-inside"), "--recipe", gray])
            #expect(again.status == 0 && again.output.contains("3 inputs: 3 written"), "\(again.output) \(again.errors)")
        }
        try FileManager.default.removeItem(atPath: inputs + "/to-out")

        // A name that is not UTF-8 is a failed line naming the file (left out unsaid, exit 0, before).
        let odd = inputs + "/caf\u{FFFD}.png"
        let created = Array(inputs.utf8) + Array("/caf".utf8) + [0xE9] + Array(".png".utf8) + [0]
        let descriptor = created.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT, 0o644) } }
        #expect(descriptor >= 0)
        let png = try Data(contentsOf: URL(fileURLWithPath: coffee))
        _ = png.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        let named = try ocular(["batch", "run", inputs, "-o", folder.file("out-odd"), "--recipe", gray])
        #expect(named.status == 1 && named.output.contains("4 inputs: 3 written, 0 already done, 1 failed"), "\(named.output) \(named.errors)")
        let failed = try resultLines(folder.file("out-odd/results.jsonl")).filter { $0["status"] == "failed" }
        #expect(failed.count == 1 && failed.first?["path"] == .text(odd), "\(failed)")
        #expect(failed.first?["error"]["code"] == "batch.unreadableName", "\(failed)")
    }

    @Test("the results file: a line per output, a cut line ended before the next, one batch writing it at a time, a killed run's partial pictures swept; manifests with Windows line ends (each lost or redid lines, kept files, or read one line, before)")
    func resultsFile() throws {
        let folder = try Folder()
        let gray = #"{"stages":[{"stage":"gray"}]}"#
        let pictures = try makePictures(3, in: folder.file("pictures"), from: coffee)

        // One input sent to three outputs: three lines, all done on --resume, three after merge (1 of 3 before).
        let many = folder.file("many.jsonl")
        try Data(["a", "b", "c"].map { #"{"path":"\#(pictures[0])","output":"\#($0).png"}"# + "\n" }.joined().utf8).write(to: URL(fileURLWithPath: many))
        let out = folder.file("out")
        #expect(try ocular(["batch", "run", many, "-o", out, "--recipe", gray]).output.contains("3 inputs: 3 written"))
        let again = try ocular(["batch", "run", many, "-o", out, "--recipe", gray, "--resume"])
        #expect(again.output.contains("3 inputs: 0 written, 3 already done"), "\(again.output) \(again.errors)")
        let merged = try ocular(["batch", "merge", out + "/results.jsonl", "-o", folder.file("merged.jsonl")])
        #expect(merged.status == 0 && merged.output.contains("3 inputs from 1 files, 3 done"), "\(merged.output)")

        // A line cut short: the next run's first line is not glued onto it, so every output is counted (199 of 200 before).
        let cut = folder.file("cut")
        #expect(try ocular(["batch", "run"] + pictures + ["-o", cut, "--recipe", gray]).status == 0)
        let results = cut + "/results.jsonl"
        let lines = try String(contentsOfFile: results, encoding: .utf8).split(separator: "\n")
        try Data((lines[0] + "\n" + lines[1] + "\n" + lines[2].prefix(30)).utf8).write(to: URL(fileURLWithPath: results))
        // And what a killed run left: a partial picture of a process that has ended is swept; a running one's stays.
        let ended = Process()
        ended.executableURL = URL(fileURLWithPath: "/bin/true")
        try ended.run()
        ended.waitUntilExit()
        let stale = cut + "/.picture-000.png.\(ended.processIdentifier)-\(UUID().uuidString).partial.png"
        let live = cut + "/.picture-001.png.\(getpid())-\(UUID().uuidString).partial.png"
        for partial in [stale, live] { try Data([1, 2, 3]).write(to: URL(fileURLWithPath: partial)) }
        // -o spelt another way (a trailing slash, ./…) names the same folder: only the cut input is redone (all were before).
        let resumed = try ocular(["batch", "run"] + pictures + ["-o", cut + "/./", "--recipe", gray, "--resume", "--results", results])
        #expect(resumed.output.contains("3 inputs: 1 written, 2 already done"), "\(resumed.output) \(resumed.errors)")
        #expect(!FileManager.default.fileExists(atPath: stale) && FileManager.default.fileExists(atPath: live))
        try FileManager.default.removeItem(atPath: live)
        let whole = try ocular(["batch", "merge", results, "-o", folder.file("merged-cut.jsonl")])
        #expect(whole.output.contains("3 inputs from 1 files, 3 done, 0 failed"), "\(whole.output)")

        // A second batch into a results file another is writing is refused, and leaves it as it was (truncated before).
        let held = open(results, O_RDWR)
        #expect(held >= 0 && flock(held, LOCK_EX | LOCK_NB) == 0)
        let before = try Data(contentsOf: URL(fileURLWithPath: results))
        let second = try ocular(["batch", "run"] + pictures + ["-o", cut, "--recipe", gray])
        expectCleanFailure(second, mentioning: "cannot write the results file \(results): another batch is writing it")
        #expect(try Data(contentsOf: URL(fileURLWithPath: results)) == before)
        close(held)

        // Windows line ends, in a list and in JSON lines.
        let list = folder.file("crlf.txt"), jsonLines = folder.file("crlf.jsonl")
        try Data(pictures.map { $0 + "\r\n" }.joined().utf8).write(to: URL(fileURLWithPath: list))
        try Data(pictures.map { #"{"path":"\#($0)"}"# + "\r\n" }.joined().utf8).write(to: URL(fileURLWithPath: jsonLines))
        for manifest in [list, jsonLines] {
            let run = try ocular(["batch", "run", manifest, "-o", folder.file("out-" + (manifest as NSString).lastPathComponent), "--recipe", gray])
            #expect(run.status == 0 && run.output.contains("3 inputs: 3 written"), "\(manifest): \(run.output) \(run.errors)")
        }

        // A key named twice (Python's json would keep the last output, Foundation kept the first).
        let twice = folder.file("twice.jsonl")
        try Data(#"{"path":"\#(pictures[0])","output":"a.png","output":"b.png"}"#.utf8).write(to: URL(fileURLWithPath: twice))
        let refused = try ocular(["batch", "run", twice, "-o", folder.file("out-twice"), "--recipe", gray])
        expectCleanFailure(refused, mentioning: "line 1: it names 'output' twice; each key may appear once")
    }

    @Test("a file named -dash.png is refused with how to name it (read as -d -a -s -h: the help, exit 0, nothing done, before); ./-dash.png and -- work")
    func dashedName() throws {
        let folder = try Folder()
        try FileManager.default.copyItem(atPath: coffee, toPath: folder.file("-dash.png"))
        let gray = #"{"stages":[{"stage":"gray"}]}"#
        let refused = try ocular(["batch", "run", "-dash.png", "-o", "out", "--recipe", gray], in: folder.path)
        #expect(refused.status == 64 && refused.errors.contains("'-dash.png' is a file, but a name that starts with '-' is read as options; write it as ./-dash.png, or put -- before it"),
                "\(refused.status): \(refused.output) \(refused.errors)")
        for arguments in [["./-dash.png", "-o", "out"], ["-o", "out2", "--recipe", gray, "--", "-dash.png"]] {
            let run = try ocular(["batch", "run"] + arguments + (arguments.contains("--") ? [] : ["--recipe", gray]), in: folder.path)
            #expect(run.status == 0 && run.output.contains("1 inputs: 1 written"), "\(arguments): \(run.output) \(run.errors)")
        }
    }

    @Test("an output folder that cannot be written is said in words on the input's line (Foundation's raw NSError, Code=513 or 642, before)")
    func unwritableOutputFolder() throws {
        let folder = try Folder()
        let inputs = folder.file("in/sub"), out = folder.file("out")
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: coffee, toPath: inputs + "/a.png")
        let restore = try #require(makeReadOnly([out]), "cannot make a read-only folder on this machine")
        defer { restore() }
        let results = folder.file("results.jsonl")
        let run = try ocular(["batch", "run", folder.file("in"), "-o", out, "--results", results, "--recipe", #"{"stages":[{"stage":"gray"}]}"#])
        #expect(run.status == 1 && run.output.contains("1 failed"), "\(run.output) \(run.errors)")
        let line = try String(contentsOfFile: results, encoding: .utf8)
        #expect(line.contains(#""code":"file.writeFailed""#) && line.contains("the folder cannot be made: ") && !line.contains("NSCocoaErrorDomain"), "\(line)")
    }

    @Test("two files named café in its two Unicode forms (NFC and NFD, two files on Linux) are two inputs and two lines (refused as one output, and merged into one line, before)")
    func unicodeForms() throws {
        let folder = try Folder()
        let gray = #"{"stages":[{"stage":"gray"}]}"#
        let inputs = folder.file("cafés")
        try FileManager.default.createDirectory(atPath: inputs, withIntermediateDirectories: true)
        let composed = "caf\u{E9}.png", decomposed = "cafe\u{301}.png"
        #expect(composed == decomposed && Array(composed.utf8) != Array(decomposed.utf8), "Swift's String equality is canonical")
        for name in [composed, decomposed] { try FileManager.default.copyItem(atPath: coffee, toPath: inputs + "/" + name) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: inputs).count == 2)
        let out = folder.file("out")
        let run = try ocular(["batch", "run", inputs, "-o", out, "--recipe", gray])
        #expect(run.status == 0 && run.output.contains("2 inputs: 2 written"), "\(run.output) \(run.errors)")
        let resumed = try ocular(["batch", "run", inputs, "-o", out, "--recipe", gray, "--resume"])
        #expect(resumed.output.contains("2 inputs: 0 written, 2 already done"), "\(resumed.output) \(resumed.errors)")
        let merged = try ocular(["batch", "merge", out + "/results.jsonl", "-o", folder.file("merged.jsonl")])
        #expect(merged.output.contains("2 inputs from 1 files, 2 done"), "\(merged.output)")
    }
}
