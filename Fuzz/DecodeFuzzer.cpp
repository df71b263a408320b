// libFuzzer harness over the bridge's decode path (`make fuzz`), built with AddressSanitizer from the
// bridge's own C++ files. The first input byte picks the read mode; the rest is the file.
//
// Besides memory errors it checks the promise the Swift side relies on: the bridge reports an image
// only when OpenCV's own cv::imdecode returns one, with the same pixels, and never hands back the
// buffer it was lent unless the decoder filled it (a canary pattern there must not come back).
#include "OpenCVBridge.h"
#include "OpenCVReference.h"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {

[[noreturn]] void fail(const char *what, int mode, size_t count) {
    std::fprintf(stderr, "decode fuzzer: %s (mode %d, %zu bytes)\n", what, mode, count);
    std::abort();
}

OCVMatType typeFor(int channels) {
    switch (channels) {
    case 1: return OCV_8UC1;
    case 3: return OCV_8UC3;
    default: return OCV_8UC4;
    }
}

bool samePixels(const OCVImage &image, const ReferenceImage &reference) {
    const int channels = image.type == OCV_8UC1 ? 1 : image.type == OCV_8UC3 ? 3 : image.type == OCV_8UC4 ? 4 : 2;
    if (image.columns != reference.columns || image.rows != reference.rows || channels != reference.channels) {
        std::fprintf(stderr, "decode fuzzer: bridge %dx%dx%d, cv::imdecode %dx%dx%d\n", image.columns, image.rows, channels,
                     reference.columns, reference.rows, reference.channels);
        return false;
    }
    const size_t rowBytes = static_cast<size_t>(reference.columns) * reference.channels;
    for (int row = 0; row < reference.rows; ++row) {
        const auto *ours = static_cast<const uint8_t *>(image.data) + row * image.bytesPerRow;
        const auto *theirs = reference.bytes + row * rowBytes;
        for (size_t index = 0; index < rowBytes; ++index) {
            if (ours[index] == theirs[index]) continue;
            std::fprintf(stderr, "decode fuzzer: first difference in row %d, byte %zu: bridge %d, cv::imdecode %d\n", row, index,
                         ours[index], theirs[index]);
            return false;
        }
    }
    return true;
}

/// One bridge decode, lent `buffer` or not, checked against OpenCV's answer.
void check(const uint8_t *bytes, size_t count, int mode, const ReferenceImage *reference, std::vector<uint8_t> *buffer,
           const OCVImage *into) {
    OCVMatrix *decoded = nullptr;
    OCVError error;
    const OCVStatus status = ocv_decode_image(bytes, count, static_cast<OCVReadMode>(mode), into, &decoded, &error);
    if (status != OCV_STATUS_OK) {
        if (decoded) fail("a failed decode returned a matrix", mode, count);
        return;
    }
    if (!reference) fail("the bridge returned an image where cv::imdecode returns none", mode, count);
    const OCVImage result = decoded ? ocv_matrix_view(decoded) : *into;
    if (!decoded && (!buffer || result.data != buffer->data())) fail("no matrix and no lent buffer", mode, count);
    if (!samePixels(result, *reference)) {
        // Tell the bridge's faults from OpenCV's own: a decoder that leaves pixels unwritten gives
        // different answers for the same bytes.
        ReferenceImage again;
        if (reference_decode(bytes, count, mode, &again) == 0) {
            const bool deterministic = again.columns == reference->columns && again.rows == reference->rows &&
                                       again.channels == reference->channels &&
                                       std::memcmp(again.bytes, reference->bytes,
                                                   static_cast<size_t>(again.columns) * again.rows * again.channels) == 0;
            reference_image_free(&again);
            if (!deterministic) fail("cv::imdecode itself gives different pixels for the same bytes", mode, count);
        }
        fail(into ? "the pixels decoded into the lent buffer differ from cv::imdecode's"
                  : "the bridge's pixels differ from cv::imdecode's", mode, count);
    }
    ocv_matrix_release(decoded);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2) return 0;
    static const int modes[] = {OCV_READ_UNCHANGED, OCV_READ_GRAYSCALE, OCV_READ_COLOR, OCV_READ_ANYCOLOR};
    const int mode = modes[data[0] % 4];
    const uint8_t *bytes = data + 1;
    const size_t count = size - 1;

    ReferenceImage reference;
    const bool hasReference = reference_decode(bytes, count, mode, &reference) == 0;

    // Without a lent buffer.
    check(bytes, count, mode, hasReference ? &reference : nullptr, nullptr, nullptr);

    // With a lent buffer of the size a header would announce (OpenCV's answer, or 16×16 BGR), full of
    // a canary pattern: it must come back only when the decoder overwrote it.
    const int columns = hasReference ? reference.columns : 16, rows = hasReference ? reference.rows : 16;
    const int channels = hasReference && reference.channels != 2 ? reference.channels : 3;
    std::vector<uint8_t> buffer(static_cast<size_t>(columns) * rows * channels, 0xA5);
    const OCVImage into{buffer.data(), columns, rows, static_cast<int64_t>(columns) * channels, typeFor(channels)};
    check(bytes, count, mode, hasReference ? &reference : nullptr, &buffer, &into);

    if (hasReference) reference_image_free(&reference);
    return 0;
}
