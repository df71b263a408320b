// What OpenCV itself decodes, with nothing of Ocular's bridge in between: the oracle of the fuzz test
// and of the libFuzzer harness (`make fuzz`).
#pragma once

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// Tightly packed 8-bit pixels in OpenCV's channel order (gray, BGR or BGRA).
typedef struct ReferenceImage {
    uint8_t *_Nullable bytes;
    int32_t columns;
    int32_t rows;
    int32_t channels;
} ReferenceImage;

/// cv::imdecode(bytes, mode) into a fresh matrix, brought to 8 bits the way Ocular documents it (16-bit
/// values ÷ 257, gray + alpha as BGRA). Returns 0 and fills `image` when OpenCV returns an image, -1
/// when it returns none or throws.
int reference_decode(const void *_Nonnull bytes, size_t count, int mode, ReferenceImage *_Nonnull image);

void reference_image_free(ReferenceImage *_Nonnull image);

/// cv::imencode(".jpg", the `columns` × `rows` BGR `pixels`, rows `bytesPerRow` apart, {IMWRITE_JPEG_QUALITY, quality}).
/// Returns 0 and the bytes in `*bytes` (free them with free) and `*count`, or -1 when OpenCV refuses or throws.
int reference_encode_jpeg(const uint8_t *_Nonnull pixels, int32_t columns, int32_t rows, int64_t bytesPerRow, int32_t quality,
                          uint8_t *_Nullable *_Nonnull bytes, size_t *_Nonnull count);

/// The tutorial's edge detection written directly against OpenCV, as a C++ program would: cv::imread(path)
/// (colour), cv::cvtColor BGR → gray, then `method` 0: cv::Canny(low, high, aperture); 1: cv::Sobel, 2:
/// cv::Scharr into CV_32F in x (`direction` 0), y (1), or both (2: cv::magnitude), then convertScaleAbs
/// (one direction) or convertTo CV_8U (both) by `scale`. Fills `image` with the 8-bit gray result and
/// returns 0, or -1 when the file cannot be read or OpenCV throws.
int reference_edges(const char *_Nonnull path, int method, double low, double high, int aperture, int direction, double scale,
                    ReferenceImage *_Nonnull image);

#ifdef __cplusplus
}
#endif
