// JPEG straight from and to BGR: OpenCV's own JPEG library (libjpeg-turbo), asked for what OpenCV 4.10
// asks it.
//
// Why: OpenCV 4.6's JPEG reader has libjpeg write RGB and swaps every pixel to BGR in a scalar loop,
// 6.5 ms of a 1280×720 frame's 7.5 on this machine, where libjpeg-turbo writing BGR itself
// (JCS_EXT_BGR) takes 2.2. Its writer swaps every row from BGR to RGB the same way before libjpeg
// compresses it (2.7 ms against 2.2 with libjpeg reading BGR). OpenCV does the same from 4.10
// (opencv/opencv#24875, "jpeg: use libjpeg-turbo built-in color conversions"). The studio decodes and
// encodes every camera frame, at that size, and `ocular batch` every picture.
// Only the plainest files take this path. Decoding: 8-bit, three components, no EXIF (OpenCV turns a
// photo by its orientation), not a byte out of place (any warning), and only into storage of exactly
// their size. Encoding: 8-bit BGR with at most a quality, the settings OpenCV then gives libjpeg
// (jpeg_set_defaults, jpeg_set_quality). Everything else, and anything that goes wrong here, is left to
// cv::imdecode and cv::imencode, so what is decoded and encoded stays OpenCV's, byte for byte
// (DecodeFuzzTests, ImageFileTests and `make fuzz` compare the two).
#include "Codecs.hpp"

#include <csetjmp>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

// Linked on Linux only (Package.swift): elsewhere the OpenCV at hand is newer, or its JPEG library
// lives where the compiler does not look, and cv::imdecode decodes every JPEG.
#if defined(__linux__) && __has_include(<jpeglib.h>)
#include <jpeglib.h>
#define OCULAR_JPEG_TO_BGR 1
#endif

#ifdef OCULAR_JPEG_TO_BGR
namespace {

/// libjpeg's error manager, with where to jump back to: libjpeg reports an error by calling
/// error_exit, which must not return.
struct Escape {
    jpeg_error_mgr manager;
    std::jmp_buf back;
};

[[noreturn]] void escape(j_common_ptr info) { std::longjmp(reinterpret_cast<Escape *>(info->err)->back, 1); }

/// A warning (level -1: corrupt data that libjpeg would decode around) ends this path too: such a
/// file is OpenCV's to judge. Trace messages (levels 0 and up) are ignored.
void warnOrTrace(j_common_ptr info, int level) {
    if (level < 0) escape(info);
}

/// libjpeg's standard error manager with its errors and warnings sent to `escape`, for `info.err`.
/// The caller still sets `errors.back` with its own setjmp: a jump target lives only in its frame.
jpeg_error_mgr *escapingErrors(Escape &errors) {
    jpeg_std_error(&errors.manager);
    errors.manager.error_exit = escape;
    errors.manager.emit_message = warnOrTrace;
    return &errors.manager;
}

/// Whether the file carries an EXIF block (APP1 starting "Exif\0\0"), whose orientation OpenCV applies.
bool hasExif(const jpeg_decompress_struct &info) {
    for (jpeg_saved_marker_ptr marker = info.marker_list; marker != nullptr; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1 && marker->data_length >= 6 && std::memcmp(marker->data, "Exif\0\0", 6) == 0) return true;
    }
    return false;
}

/// The decoding itself, apart from the caller's C++ objects: longjmp may leave only frames whose
/// locals have trivial destructors. `info` is set up by the caller, which destroys it.
/// `denominator` (1, 2, 4 or 8) scales the picture down inside the inverse DCT: libjpeg computes only
/// 1/denominator of each block's side, and `into` is the picture's size divided by it, rounded up.
bool decodeInto(jpeg_decompress_struct &info, Escape &errors, const uint8_t *bytes, size_t count, const OCVImage &into,
                unsigned denominator) {
    if (setjmp(errors.back)) return false;
    jpeg_mem_src(&info, bytes, static_cast<unsigned long>(count));
    // EXIF lives in APP1; libjpeg keeps the first 64 kB of each for hasExif.
    jpeg_save_markers(&info, JPEG_APP0 + 1, 0xFFFF);
    if (jpeg_read_header(&info, TRUE) != JPEG_HEADER_OK) return false;
    if (hasExif(info) || info.num_components != 3 || info.data_precision != 8 ||
        (info.jpeg_color_space != JCS_YCbCr && info.jpeg_color_space != JCS_RGB)) {
        return false;
    }
    info.out_color_space = JCS_EXT_BGR;
    info.scale_num = 1;
    info.scale_denom = denominator;
    jpeg_calc_output_dimensions(&info);
    if (info.output_width != static_cast<JDIMENSION>(into.columns) || info.output_height != static_cast<JDIMENSION>(into.rows)) {
        return false;
    }
    if (!jpeg_start_decompress(&info)) return false;
    if (info.output_components != 3 || info.output_width != static_cast<JDIMENSION>(into.columns) ||
        info.output_height != static_cast<JDIMENSION>(into.rows)) {
        return false;
    }
    auto *target = static_cast<uint8_t *>(into.data);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = target + static_cast<size_t>(info.output_scanline) * static_cast<size_t>(into.bytesPerRow);
        // From memory libjpeg never suspends: a row not read is data that ran out (a warning, above).
        if (jpeg_read_scanlines(&info, &row, 1) != 1) return false;
    }
    return jpeg_finish_decompress(&info) == TRUE;
}

/// The compression itself, apart from the caller's C++ objects (see decodeInto). libjpeg allocates
/// `*bytes` (jpeg_mem_dest); the caller frees it whatever this returns.
bool encodeFrom(jpeg_compress_struct &info, Escape &errors, const OCVImage &image, int quality, unsigned char **bytes,
                unsigned long *count) {
    if (setjmp(errors.back)) return false;
    jpeg_mem_dest(&info, bytes, count);
    info.image_width = static_cast<JDIMENSION>(image.columns);
    info.image_height = static_cast<JDIMENSION>(image.rows);
    info.input_components = 3;
    info.in_color_space = JCS_EXT_BGR;
    jpeg_set_defaults(&info);
    jpeg_set_quality(&info, quality, TRUE);
    jpeg_start_compress(&info, TRUE);
    const auto *source = static_cast<const uint8_t *>(image.data);
    while (info.next_scanline < info.image_height) {
        JSAMPROW row = const_cast<uint8_t *>(source) + static_cast<size_t>(info.next_scanline) * static_cast<size_t>(image.bytesPerRow);
        if (jpeg_write_scanlines(&info, &row, 1) != 1) return false;
    }
    jpeg_finish_compress(&info);
    return true;
}

}  // namespace
#endif

bool ocv_decode_jpeg_as_bgr(const void *bytes, size_t count, const OCVImage *pointer) {
    return ocv_decode_jpeg_as_bgr_scaled(bytes, count, 1, pointer);
}

bool ocv_decode_jpeg_as_bgr_scaled(const void *bytes, size_t count, int denominator, const OCVImage *pointer) {
    const OCVImage &into = *pointer;
#if defined(OCULAR_JPEG_TO_BGR) && defined(JCS_EXTENSIONS)
    if (denominator != 1 && denominator != 2 && denominator != 4 && denominator != 8) return false;
    const auto *data = static_cast<const uint8_t *>(bytes);
    if (count < 3 || data[0] != 0xFF || data[1] != 0xD8 || data[2] != 0xFF) return false;  // not JPEG: OpenCV's
    if (into.data == nullptr || into.type != OCV_8UC3 || into.columns <= 0 || into.rows <= 0 ||
        into.bytesPerRow < static_cast<int64_t>(into.columns) * 3) {
        return false;
    }
    jpeg_decompress_struct info;
    Escape errors;
    info.err = escapingErrors(errors);
    // Creation itself may fail (no memory): it jumps back here, before anything needs destroying.
    if (setjmp(errors.back)) return false;
    jpeg_create_decompress(&info);
    const bool decoded = decodeInto(info, errors, data, count, into, static_cast<unsigned>(denominator));
    jpeg_destroy_decompress(&info);
    return decoded;
#else
    (void)bytes;
    (void)count;
    (void)denominator;
    (void)into;
    return false;  // a libjpeg without libjpeg-turbo's extensions: OpenCV decodes
#endif
}

namespace ocular_bridge {

bool encodeJPEGFromBGR(const OCVImage &image, int quality, std::vector<uint8_t> &encoded) {
#if defined(OCULAR_JPEG_TO_BGR) && defined(JCS_EXTENSIONS)
    if (image.data == nullptr || image.type != OCV_8UC3 || image.columns <= 0 || image.rows <= 0 ||
        image.columns > JPEG_MAX_DIMENSION || image.rows > JPEG_MAX_DIMENSION ||
        image.bytesPerRow < static_cast<int64_t>(image.columns) * 3 || quality < 0 || quality > 100) {
        return false;
    }
    jpeg_compress_struct info;
    Escape errors;
    info.err = escapingErrors(errors);
    unsigned char *bytes = nullptr;
    unsigned long count = 0;
    if (setjmp(errors.back)) return false;
    jpeg_create_compress(&info);
    const bool compressed = encodeFrom(info, errors, image, quality, &bytes, &count);
    jpeg_destroy_compress(&info);
    if (compressed && bytes != nullptr) encoded.assign(bytes, bytes + count);
    std::free(bytes);  // libjpeg's buffer, even when compression stopped half way
    return compressed && bytes != nullptr;
#else
    (void)image;
    (void)quality;
    (void)encoded;
    return false;  // a libjpeg without libjpeg-turbo's extensions: OpenCV encodes
#endif
}

}  // namespace ocular_bridge
