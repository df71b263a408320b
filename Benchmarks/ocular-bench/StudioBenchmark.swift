// Ocular Studio end to end: a scripted WebSocket client streams JPEG frames to an in-process server.
import Foundation
import HummingbirdWSClient
import Logging
import NIOCore
import Ocular
import OcularStudio
import ServiceLifecycle
import Synchronization

struct StudioResult: Sendable {
    let effect: String
    let roundTrips: [Double]  // nanoseconds
    let seconds: Double
    let replyBytes: Int
    var framesPerSecond: Double { Double(roundTrips.count) / seconds }
}

final class StudioResults: Sendable {
    let results = Mutex<[StudioResult]>([])
    let problems = Mutex<[String]>([])
}

/// Streams JPEG frames to an in-process studio over loopback, one in flight (send, wait for the
/// processed frame, send the next), for `seconds` per effect.
func benchmarkStudio(frames: [[UInt8]], width: Int, height: Int, effects: [String], seconds: Double) async throws -> [StudioResult] {
    var logger = Logger(label: "ocular-bench")
    logger.logLevel = .warning
    let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
    let application = try Studio.makeApplication(
        configuration: StudioConfiguration(host: "127.0.0.1", port: 0), logger: logger,
        onServerRunning: { port in
            portContinuation.yield(port)
            portContinuation.finish()
        })
    let services = ServiceGroup(configuration: .init(services: [application], gracefulShutdownSignals: [], logger: logger))
    let server = Task { try await services.run() }
    var portIterator = ports.makeAsyncIterator()
    guard let port = await portIterator.next() else {
        if case .failure(let error) = await server.result { throw BenchError("the studio did not start: \(error)") }
        throw BenchError("the studio did not start")
    }
    let outcome: Result<[StudioResult], any Error>
    do {
        outcome = .success(try await streamFrames(to: port, frames: frames, width: width, height: height,
                                                  effects: effects, seconds: seconds, logger: logger))
    } catch {
        outcome = .failure(error)
    }
    // Stop the server as SIGTERM would, and wait for it.
    await services.triggerGracefulShutdown()
    _ = await server.result
    return try outcome.get()
}

/// The scripted client: for each stage (or "none"), selects it, warms up, then streams for `seconds`.
func streamFrames(to port: Int, frames: [[UInt8]], width: Int, height: Int, effects: [String], seconds: Double,
                  logger: Logger) async throws -> [StudioResult] {
    let buffers = frames.map { ByteBuffer(bytes: $0) }
    let collected = StudioResults()
    let maxSize = 1 << 24
    try await WebSocketClient.connect(
        url: "ws://127.0.0.1:\(port)/api/stream", configuration: WebSocketClientConfiguration(maxFrameSize: maxSize),
        logger: logger
    ) { inbound, outbound, _ in
        var messages = inbound.messages(maxSize: maxSize).makeAsyncIterator()
        guard case .text(let hello)? = try await messages.next(), hello.contains(#""hello""#) else {
            throw BenchError("the studio did not say hello")
        }
        /// Sends a frame and waits for its processed frame; returns the JPEG. The answer is one binary
        /// message: a 4-byte big-endian length, a JSON header of that length (the frame's number and
        /// what goes with it: a stage's findings), then the JPEG.
        func roundTrip(_ frame: ByteBuffer) async throws -> ByteBuffer {
            try await outbound.write(.binary(frame))
            switch try await messages.next() {
            case .binary(var answer)?:
                guard let length = answer.readInteger(endianness: .big, as: UInt32.self), answer.readableBytes >= Int(length) else {
                    throw BenchError("the studio answered a frame with \(answer.readableBytes) bytes and no header")
                }
                answer.moveReaderIndex(forwardBy: Int(length))
                return answer
            case .text(let text)?: throw BenchError("the studio answered a frame with text: \(text.prefix(200))")
            case nil: throw BenchError("the studio closed the stream")
            }
        }
        for effect in effects {
            // "none" is the empty recipe; any other name a recipe of that one stage at its defaults.
            let stages = effect == "none" ? "" : #"{"stage":"\#(effect)"}"#
            try await outbound.write(.text(#"{"type":"settings","recipe":{"stages":[\#(stages)]}}"#))
            guard case .text(let text)? = try await messages.next(), text.contains(#""type":"settings""#) else {
                throw BenchError("the studio refused stage \(effect)")
            }
            // Warm-up; check that the reply is a JPEG of the frame's size.
            for index in 0..<5 {
                let reply = try await roundTrip(buffers[index % buffers.count])
                if index == 0 {
                    let image = try reply.withUnsafeReadableBytes { try Image(decoding: $0, name: "reply") }
                    if image.width != width || image.height != height {
                        collected.problems.withLock { $0.append("\(effect): reply is \(image.width)×\(image.height), sent \(width)×\(height)") }
                    }
                }
            }
            var roundTrips = [Double]()
            var replyBytes = 0
            let start = nanosecondsNow()
            let end = start + UInt64(seconds * 1e9)
            var index = 0
            var now = start
            while now < end {
                let sent = nanosecondsNow()
                let reply = try await roundTrip(buffers[index % buffers.count])
                now = nanosecondsNow()
                roundTrips.append(Double(now - sent))
                replyBytes += reply.readableBytes
                index += 1
            }
            let result = StudioResult(effect: effect, roundTrips: roundTrips, seconds: Double(now - start) / 1e9,
                                      replyBytes: replyBytes / max(roundTrips.count, 1))
            collected.results.withLock { $0.append(result) }
        }
    }
    let problems = collected.problems.withLock { $0 }
    if !problems.isEmpty { throw BenchError(problems.joined(separator: "; ")) }
    return collected.results.withLock { $0 }
}

