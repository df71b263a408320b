import Foundation
import Ocular

/// Whole videos through `ocular process`'s loop (VideoFileSource → Pipeline with a Screen blend →
/// VideoFileSink), against the same loop in Python cv2: frames per second of the whole run, opening,
/// decoding and encoding included. Both write Motion-JPEG AVI, which both have built in (the pip
/// wheel's FFmpeg has no H.264 encoder), so the codecs are the same. Runs alternate between the two.
struct VideoBenchmark {
    struct Row {
        let name: String
        let frames: Int
        let ocularSeconds: Double
        let pythonSeconds: Double?
        var ocularFramesPerSecond: Double { Double(frames) / ocularSeconds }
        var pythonFramesPerSecond: Double? { pythonSeconds.map { Double(frames) / $0 } }
    }

    let python: String
    let runs: Int

    /// The face clip is 30 frames (3 s): too short to time more than opening a file. It is looped ten
    /// times with FFmpeg, at its own 480×360 and scaled to 1280×720; the cockatoo is 1280×720 already.
    func videos(in folder: String) -> [(name: String, path: String)] {
        let clip = dataRoot + "/video/astronaut_pan.avi"
        var videos = [(name: String, path: String)]()
        for (size, filter) in [("480x360", "null"), ("1280x720", "scale=1280:720")] {
            let path = folder + "/pan-\(size).avi"
            let ffmpeg = Process()
            ffmpeg.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            ffmpeg.arguments = ["ffmpeg", "-v", "error", "-y", "-stream_loop", "9", "-i", clip, "-vf", filter, "-c:v", "mjpeg", "-q:v", "3", path]
            if (try? ffmpeg.run()) != nil { ffmpeg.waitUntilExit() }
            if ffmpeg.terminationStatus == 0, FileManager.default.fileExists(atPath: path) {
                videos.append(("astronaut_pan ×10 \(size)", path))
            } else if size == "480x360" {
                videos.append(("astronaut_pan (no ffmpeg) 480x360", clip))
            }
        }
        videos.append(("cockatoo.mp4 1280x720", dataRoot + "/video/cockatoo.mp4"))
        return videos
    }

    func measure() throws -> [Row] {
        let picture = dataRoot + "/images/rocket.jpg"
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ocular-bench-video-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let recipe = Recipe(stages: [BlendStage.step(source: picture, mode: .screen, opacity: 1)])
        var rows = [Row]()
        for (name, video) in videos(in: folder) {
            print("  measuring process \(name) …", terminator: "")
            flushOutput()
            var seconds = [Double](), pythonSeconds = [Double](), frames = 0
            for run in 0..<runs {
                let start = nanosecondsNow()
                let pipeline = try Pipeline(recipe, images: ImageFiles())
                let source = try VideoFileSource(path: video)
                let sink = VideoFileSink(path: folder + "/ocular-\(run).avi", framesPerSecond: source.frameRate)
                frames = try pipeline.run(from: source, into: sink)
                try sink.finish()
                seconds.append(Double(nanosecondsNow() - start) / 1e9)
                if let python = runPythonVideo(video: video, picture: picture, output: folder + "/python.avi") { pythonSeconds.append(python) }
            }
            let row = Row(name: name, frames: frames, ocularSeconds: median(seconds), pythonSeconds: pythonSeconds.isEmpty ? nil : median(pythonSeconds))
            print(String(format: " %.1f frames/s", row.ocularFramesPerSecond)
                  + (row.pythonFramesPerSecond.map { String(format: ", Python %.1f", $0) } ?? ", Python n/a"))
            rows.append(row)
        }
        return rows
    }

    /// Seconds of one run of the Python loop over the video, or nil when it cannot run.
    private func runPythonVideo(video: String, picture: String, output: String) -> Double? {
        guard let report = runPythonScript(python, "bench_video.py", [video, picture, output, "1"]),
              let seconds = report["seconds"] as? [Double], !seconds.isEmpty else { return nil }
        return median(seconds)
    }
}

extension VideoBenchmark {
    /// Prints the table and returns the rows that miss the figure (Ocular ≥ the Python loop).
    static func report(_ rows: [Row]) -> [String] {
        print("")
        print([pad("video", 34, right: false), pad("frames", 7), pad("Ocular f/s", 11), pad("Python f/s", 11), pad("Ocular/Python", 14)].joined(separator: " "))
        print(String(repeating: "-", count: 81))
        var missed = [String]()
        for row in rows {
            let ratio = row.pythonFramesPerSecond.map { row.ocularFramesPerSecond / $0 }
            if let ratio, ratio < 1 { missed.append(row.name) }
            if let ratio { FigureLog.shared.record("process \(row.name) Ocular/Python frames/s", ratio, better: .higher, kind: .runs) }
            print([pad(row.name, 34, right: false), pad("\(row.frames)", 7), pad(String(format: "%.1f", row.ocularFramesPerSecond), 11),
                   pad(row.pythonFramesPerSecond.map { String(format: "%.1f", $0) } ?? "n/a", 11),
                   pad(ratio.map { String(format: "%.2f", $0) } ?? "n/a", 14)].joined(separator: " ")
                  + ((ratio ?? 1) < 1 ? "  <-- below Python" : ""))
        }
        return missed
    }
}
