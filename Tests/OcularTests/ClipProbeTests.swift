import Foundation
import OcularTestSupport
import Testing
@testable import Ocular

/// The container walk of recorded clips: what it reads from real WebM and MP4 files (checked against
/// what ffprobe says of the same files, in Tests/Fixtures/clips/README.md), and that cut, damaged or
/// foreign bytes are refused with a reason, never read as a clip and never a crash.
@Suite("Recorded clips' containers")
struct ClipProbeTests {
    @Test("a browser's WebM (unknown sizes, no duration): VP8 320×240 with Opus at 48 kHz, 32 frames, 1.5 s from the timestamps")
    func chromeWebM() throws {
        let probe = try ClipProbe(contentsOfFile: ClipFixtures.path("chrome-vp8-opus.webm"))
        #expect(probe.container == .webm)
        #expect(probe.videoCodec == "vp8")
        #expect(probe.audioCodec == "opus")
        #expect(probe.hasAudio)
        #expect(probe.audioSampleRate == 48000)
        #expect(probe.width == 320 && probe.height == 240)
        #expect(probe.videoFrames == 32)
        #expect(abs(probe.duration - 1.5) < 0.1, "duration \(probe.duration)")
        // Its frames' own rate, which the recorder never writes down (FFmpeg guessed 30).
        #expect(abs((probe.videoFrameRate ?? 0) - 20.9) < 0.1, "rate \(probe.videoFrameRate ?? 0)")
    }

    @Test("FFmpeg's WebM: its Duration element, 15 frames, no sound")
    func ffmpegWebM() throws {
        let probe = try ClipProbe(contentsOfFile: ClipFixtures.path("ffmpeg-vp8-silent.webm"))
        #expect(probe.container == .webm && probe.videoCodec == "vp8")
        #expect(!probe.hasAudio && probe.audioSampleRate == nil)
        #expect(probe.width == 160 && probe.height == 120)
        #expect(probe.videoFrames == 15)
        #expect(abs(probe.duration - 1.0) < 0.01, "duration \(probe.duration)")
    }

    @Test("an MP4 of H.264 and AAC: the movie's duration, 15 samples, 44.1 kHz")
    func plainMP4() throws {
        let probe = try ClipProbe(contentsOfFile: ClipFixtures.path("ffmpeg-h264-aac.mp4"))
        #expect(probe.container == .mp4 && probe.videoCodec == "avc1" && probe.audioCodec == "mp4a")
        // The sample entry's channel count, which FFmpeg writes as 2 whatever the AAC configuration holds (1 here).
        #expect(probe.audioSampleRate == 44100 && probe.audioChannels == 2)
        #expect(probe.width == 160 && probe.height == 120)
        #expect(probe.videoFrames == 15)
        #expect(abs(probe.duration - 1.0) < 0.05, "duration \(probe.duration)")
    }

    @Test("a fragmented MP4 (empty moov): the duration summed from its fragments' samples")
    func fragmentedMP4() throws {
        let probe = try ClipProbe(contentsOfFile: ClipFixtures.path("fragmented-h264-aac.mp4"))
        #expect(probe.container == .mp4 && probe.hasAudio && probe.audioSampleRate == 48000)
        #expect(probe.videoFrames == 15)
        // ffprobe says 1.133 s: the AAC track runs past the 15 frames of 1/15 s by its priming samples.
        #expect(abs(probe.duration - 1.0) < 0.15, "duration \(probe.duration)")
        // The rate is the video track's own: 15 frames/s (13.2 over the clip's duration).
        #expect(abs(probe.videoDuration - 1.0) < 0.001 && abs((probe.videoFrameRate ?? 0) - 15) < 0.01, "video \(probe.videoDuration) s")
    }

    @Test("a variable-rate Matroska: its 60 frames counted and its 3.6 s timed by their timestamps (FFmpeg counts 108)")
    func variableRateMatroska() throws {
        let probe = try ClipProbe(contentsOfFile: VideoFixtures.path("ffmpeg-variable-rate.mkv"))
        #expect(probe.container == .matroska && probe.container.fileExtension == "mkv" && probe.videoCodec == "avc1")
        #expect(probe.videoFrames == 60 && !probe.hasAudio)
        // 30 frames 0.1 s apart, then 30 0.02 s apart; the last frame lasts the mean interval.
        #expect(abs(probe.duration - 3.63) < 0.02 && abs(probe.videoDuration - 3.63) < 0.02, "\(probe.duration) s")
    }

    @Test("a Duration, movie header or media header that says less than the frames span is not believed")
    func headersThatLie() throws {
        let webM = [UInt8](try ClipFixtures.bytes("ffmpeg-vp8-silent.webm"))
        let shortened = try #require(ClipFixtures.webM(webM, declaring: 100))
        let fromWebM = try ClipProbe(bytes: Data(shortened), name: "forged.webm")
        #expect(abs(fromWebM.duration - 1.0) < 0.01, "duration \(fromWebM.duration)")
        let mp4 = [UInt8](try ClipFixtures.bytes("ffmpeg-h264-aac.mp4"))
        let honest = try ClipProbe(bytes: Data(mp4), name: "honest.mp4")
        let forged = ClipFixtures.mp4(mp4, declaring: 1)
        #expect(forged != mp4)
        let fromMP4 = try ClipProbe(bytes: Data(forged), name: "forged.mp4")
        #expect(abs(fromMP4.duration - honest.duration) < 0.05 && honest.duration > 0.9, "duration \(fromMP4.duration), honest \(honest.duration)")
    }

    @Test("a sample table that lists more entries than it holds is refused by name")
    func oversizedSampleTable() throws {
        var bytes = [UInt8](try ClipFixtures.bytes("ffmpeg-h264-aac.mp4"))
        let stts = try #require((4..<(bytes.count - 12)).first { Array(bytes[$0..<$0 + 4]) == Array("stts".utf8) })
        bytes.replaceSubrange((stts + 8)..<(stts + 12), with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect {
            try ClipProbe(bytes: Data(bytes), name: "table.mp4")
        } throws: { error in "\(error)".contains("lists 4294967295 entries, more than it holds") }
    }

    @Test("MediaInfo (ocular info, gallery add) takes a recorder's WebM's length and sound from its container, not FFmpeg's 0 frames at 1000 fps")
    func mediaInfoOfARecording() throws {
        guard case .video(let video) = try MediaInfo(contentsOfFile: ClipFixtures.path("chrome-vp8-opus.webm")) else {
            Issue.record("not read as a video")
            return
        }
        #expect(video.codec == "vp8" && video.frameCount == 32)
        #expect(abs(video.duration - 1.5) < 0.1 && abs(video.framesPerSecond - 32 / video.duration) < 1e-9)
        #expect(video.hasAudio == true && video.audioCodec == "opus" && video.audioSampleRate == 48000)
        // Where the backend knows the figures (FFmpeg's own WebM, with a Duration), they stay its own.
        guard case .video(let silent) = try MediaInfo(contentsOfFile: ClipFixtures.path("ffmpeg-vp8-silent.webm")) else { return }
        #expect(silent.frameCount == 15 && silent.framesPerSecond == 15 && silent.hasAudio == false)
        // A container Ocular does not walk (AVI): the sound is not known.
        guard case .video(let avi) = try MediaInfo(contentsOfFile: TestData.path("video/astronaut_pan.avi")) else { return }
        #expect(avi.hasAudio == nil && avi.codec == "MJPG")
    }

    @Test("every clip cut short is refused as cut short, at every length")
    func truncated() throws {
        for name in try ClipFixtures.names() {
            let bytes = try ClipFixtures.bytes(name)
            var refused = 0
            // Every 97th length, and the last bytes one by one: an upload that stopped anywhere.
            let lengths = Array(stride(from: 1, to: bytes.count, by: 97)) + Array((bytes.count - 40)..<bytes.count)
            for length in lengths {
                let outcome = Result { () throws(OcularError) in try ClipProbe(bytes: bytes.prefix(length), name: "cut") }
                if case .failure(.unreadableMedia(_, let reason)) = outcome {
                    refused += 1
                    #expect(!reason.isEmpty)
                } else if case .success = outcome, name.hasSuffix(".webm") {
                    // A WebM cut exactly between two clusters' blocks is a shorter whole clip; never longer.
                    continue
                }
            }
            #expect(refused >= lengths.count * 9 / 10, "\(name): only \(refused) of \(lengths.count) cut copies refused")
        }
    }

    @Test("a recorder's WebM cut inside its last block says the file was cut short")
    func cutMessage() throws {
        let bytes = try ClipFixtures.bytes("chrome-vp8-opus.webm")
        let outcome = Result { () throws(OcularError) in try ClipProbe(bytes: bytes.dropLast(100), name: "clip.webm") }
        guard case .failure(.unreadableMedia(let path, let reason)) = outcome else {
            Issue.record("a cut clip was read: \(outcome)")
            return
        }
        #expect(path == "clip.webm")
        #expect(reason.contains("cut short"), "\(reason)")
    }

    @Test("bytes that are not a clip: a PNG, text, an EBML file that is neither WebM nor Matroska, an empty file")
    func foreign() throws {
        let cases: [(Data, String)] = [
            (Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [UInt8](repeating: 0, count: 64)), "neither a WebM"),
            (Data("hello, this is text and not a video".utf8), "neither a WebM"),
            (Data([0x1A, 0x45, 0xDF, 0xA3, 0x87, 0x42, 0x82, 0x84] + Array("webp".utf8)), "it is a 'webp' file, not a WebM or Matroska"),
            // A Matroska header and nothing after it: read as one, and refused as cut short.
            (Data([0x1A, 0x45, 0xDF, 0xA3, 0x8B, 0x42, 0x82, 0x88] + Array("matroska".utf8)), "cut short"),
        ]
        for (bytes, expected) in cases {
            let outcome = Result { () throws(OcularError) in try ClipProbe(bytes: bytes, name: "x") }
            guard case .failure(.unreadableMedia(_, let reason)) = outcome else {
                Issue.record("read as a clip: \(bytes.prefix(8).map { $0 })")
                continue
            }
            #expect(reason.contains(expected), "\(reason)")
        }
        #expect(throws: OcularError.emptyFile(path: "empty")) { try ClipProbe(bytes: Data(), name: "empty") }
    }

    @Test("damaged copies of every clip are refused or read with sane figures, never a crash")
    func fuzz() throws {
        var generator = SeededGenerator(seed: 20261125)
        var read = 0, refused = 0
        // OCULAR_CLIP_FUZZ_ROUNDS=100000 for a longer run by hand.
        let rounds = ProcessInfo.processInfo.environment["OCULAR_CLIP_FUZZ_ROUNDS"].flatMap { Int($0) } ?? 400
        // The fixtures, and copies whose headers claim less than their frames span (the timestamps and
        // the sample table are then what counts).
        var seeds = try ClipFixtures.names().map { ($0, [UInt8](try ClipFixtures.bytes($0))) }
        seeds.append(("short-duration.webm", try #require(ClipFixtures.webM([UInt8](try ClipFixtures.bytes("ffmpeg-vp8-silent.webm")), declaring: 100))))
        seeds.append(("short-headers.mp4", ClipFixtures.mp4([UInt8](try ClipFixtures.bytes("ffmpeg-h264-aac.mp4")), declaring: 1)))
        seeds.append(("ffmpeg-variable-rate.mkv", [UInt8](try Data(contentsOf: URL(fileURLWithPath: VideoFixtures.path("ffmpeg-variable-rate.mkv"))))))
        for (name, seed) in seeds {
            for round in 0..<rounds {
                var bytes = seed
                switch round % 4 {
                case 0:
                    for _ in 0..<Int.random(in: 1...6, using: &generator) {
                        bytes[Int.random(in: 0..<bytes.count, using: &generator)] ^= 1 << UInt8.random(in: 0...7, using: &generator)
                    }
                case 1:
                    // A size field forged: the 4 or 8 bytes after a random offset set to large values.
                    let at = Int.random(in: 0..<(bytes.count - 8), using: &generator)
                    let forged: [UInt8] = [[0xFF, 0xFF, 0xFF, 0xFF], [0x01, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], [0, 0, 0, 1], [0x7F, 0xFF, 0xFF, 0xF0]]
                        .randomElement(using: &generator)!
                    bytes.replaceSubrange(at..<(at + forged.count), with: forged)
                case 2:
                    let start = Int.random(in: 0..<bytes.count, using: &generator)
                    let end = min(bytes.count, start + Int.random(in: 1...48, using: &generator))
                    for index in start..<end { bytes[index] = UInt8.random(in: 0...255, using: &generator) }
                default:
                    let start = Int.random(in: 0..<bytes.count, using: &generator)
                    let copied = Array(bytes[start..<min(bytes.count, start + Int.random(in: 1...200, using: &generator))])
                    bytes.insert(contentsOf: copied, at: Int.random(in: 0...bytes.count, using: &generator))
                }
                switch Result(catching: { () throws(OcularError) in try ClipProbe(bytes: Data(bytes), name: name) }) {
                case .success(let probe):
                    read += 1
                    #expect(probe.duration.isFinite && probe.duration >= 0, "\(name) round \(round): duration \(probe.duration)")
                    #expect(probe.width >= 0 && probe.height >= 0 && probe.videoFrames >= 0)
                    #expect(probe.videoDuration.isFinite && probe.videoDuration >= 0 && (probe.videoFrameRate ?? 0).isFinite,
                            "\(name) round \(round): video \(probe.videoDuration) s")
                case .failure(.unreadableMedia):
                    refused += 1
                case .failure(let error):
                    Issue.record("\(name) round \(round): unexpected \(error)")
                }
            }
        }
        // Both outcomes are exercised, or the corpus tests nothing.
        #expect(read >= 200 && refused >= 200, "read \(read), refused \(refused)")
        print("clip fuzz: \(read + refused) damaged clips, \(read) read with sane figures, \(refused) refused")
    }
}
