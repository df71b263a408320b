import OpenCVBridge
import OpenCVReference
import Testing
@testable import Ocular

/// The bridge's promises: C++ exceptions come back as messages, and an output OpenCV would have
/// reallocated is reported instead of silently left unwritten.
@Suite("OpenCV bridge")
struct BridgeTests {
    @Test("an output buffer of the wrong size is reported, not silently replaced")
    func reallocationIsReported() throws {
        let source = try Image(width: 4, height: 4, format: .bgr8, filledWith: [1, 2, 3])
        var wrongSize = [UInt8](repeating: 7, count: 2 * 2)
        var error = OCVError()
        let status = source.withMatrix { input in
            wrongSize.withUnsafeMutableBytes { raw in
                var output = OCVImage(data: raw.baseAddress, columns: 2, rows: 2, bytesPerRow: 2, type: OCV_8UC1)
                return ocv_convert_color(input, &output, OCV_COLOR_BGR2GRAY, &error)
            }
        }
        #expect(status == OCV_STATUS_REALLOCATED)
        #expect(OpenCV.message(of: &error).contains("instead of filling the given 2x2 buffer"))
        #expect(wrongSize == [7, 7, 7, 7])
    }

    @Test("a cv::Exception becomes a status and a message; the process carries on")
    func exceptionsAreFenced() throws {
        let gray = try Image(width: 4, height: 4, format: .gray8, filledWith: [9])
        var error = OCVError()
        let status = gray.withMatrix { input in
            var output = input.pointee
            // BGR2GRAY on a one-channel image violates an OpenCV assertion.
            return ocv_convert_color(input, &output, OCV_COLOR_BGR2GRAY, &error)
        }
        #expect(status == OCV_STATUS_OPENCV_EXCEPTION)
        #expect(OpenCV.message(of: &error) == "Invalid number of channels in input image: 'VScn::contains(scn)' where 'scn' is 1")
    }

    @Test("undecodable bytes give a decode failure, not a crash")
    func decodeFailure() {
        var decoded: OpaquePointer?
        var error = OCVError()
        let bytes: [UInt8] = [1, 2, 3, 4]
        let status = ocv_decode_image(bytes, bytes.count, OCV_READ_COLOR, nil, &decoded, &error)
        #expect(status == OCV_STATUS_DECODE_FAILED && decoded == nil)
    }

    @Test("JPEG data that runs out before its end-of-image marker is refused: OpenCV would fill rows from uninitialised memory")
    func jpegWithoutEnd() throws {
        let image = try Image(width: 64, height: 48, format: .bgr8, filledWith: [20, 140, 230])
        let jpeg = try image.encoded(as: .jpeg(quality: 90))
        #expect(jpeg.suffix(2) == [0xFF, 0xD9])
        func bridgeDecodes(_ bytes: [UInt8]) -> (OCVStatus, String) {
            var decoded: OpaquePointer?
            var error = OCVError()
            let status = ocv_decode_image(bytes, bytes.count, OCV_READ_COLOR, nil, &decoded, &error)
            ocv_matrix_release(decoded)
            return (status, OpenCV.message(of: &error))
        }
        func openCVDecodes(_ bytes: [UInt8]) -> Bool {
            var reference = ReferenceImage()
            defer { reference_image_free(&reference) }
            return reference_decode(bytes, bytes.count, Int32(OCV_READ_COLOR.rawValue), &reference) == 0
        }
        #expect(bridgeDecodes(jpeg).0 == OCV_STATUS_OK)
        #expect(bridgeDecodes(jpeg + Array("trailing bytes after EOI".utf8)).0 == OCV_STATUS_OK)

        // Without EOI, and with a comment after the scan whose length runs past the end although its
        // text holds FF D9: OpenCV returns an image for both, the bridge refuses both.
        let endless = Array(jpeg.dropLast(2))
        let runaway = endless + [0xFF, 0xFE, 0x40, 0x00] + Array("a comment that claims 16 KB ".utf8) + [0xFF, 0xD9]
        for bytes in [endless, runaway] {
            #expect(openCVDecodes(bytes))
            #expect(bridgeDecodes(bytes) == (OCV_STATUS_DECODE_FAILED, "the JPEG data ends before its end-of-image marker"))
        }
    }

    @Test("the Swift side turns a failed call into OcularError.openCV naming the operation")
    func swiftSideError() throws {
        #expect(throws: OcularError.self) {
            try OpenCV.call("test operation") { error in
                strcpy_message(error, "broken")
                return OCV_STATUS_BAD_ARGUMENT
            }
        }
        do {
            try OpenCV.call("test operation") { error in
                strcpy_message(error, "broken")
                return OCV_STATUS_BAD_ARGUMENT
            }
        } catch {
            #expect(error == .openCV(operation: "test operation", message: "broken"))
        }
    }
}

private func strcpy_message(_ error: UnsafeMutablePointer<OCVError>, _ text: String) {
    withUnsafeMutableBytes(of: &error.pointee.message) { raw in
        let bytes = Array(text.utf8) + [0]
        raw.copyBytes(from: bytes)
    }
}
