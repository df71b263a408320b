// A plain C interface over exactly the OpenCV calls Ocular makes.
//
// Why C and not Swift's C++ interoperability: interop mode would spread to every client target,
// cannot call cv::Ptr / pure-virtual APIs (the gray-world balancer), and a cv::Exception crossing
// into Swift aborts the process. Every function here catches every C++ exception and reports it as
// a status plus a message in `OCVError`, which the Swift side turns into a thrown error.
//
// Pixels cross without copying: `OCVImage` is a view of memory the caller owns. When OpenCV would
// silently reallocate an output (wrong size or type), the call fails with OCV_STATUS_REALLOCATED.
#pragma once

#include <OpenCVBridgeCore.h>

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif


/// cv::ColorConversionCodes that Ocular uses, with OpenCV's values (checked at compile time).
typedef enum OCVColorConversion {
    OCV_COLOR_BGR2BGRA = 0,        ///< also RGB2RGBA
    OCV_COLOR_BGRA2BGR = 1,        ///< also RGBA2RGB
    OCV_COLOR_BGR2RGBA = 2,        ///< also RGB2BGRA
    OCV_COLOR_RGBA2BGR = 3,        ///< also BGRA2RGB
    OCV_COLOR_BGR2RGB = 4,         ///< also RGB2BGR
    OCV_COLOR_BGRA2RGBA = 5,       ///< also RGBA2BGRA
    OCV_COLOR_BGR2GRAY = 6,
    OCV_COLOR_RGB2GRAY = 7,
    OCV_COLOR_GRAY2BGR = 8,        ///< also GRAY2RGB
    OCV_COLOR_GRAY2BGRA = 9,       ///< also GRAY2RGBA
    OCV_COLOR_BGRA2GRAY = 10,
    OCV_COLOR_RGBA2GRAY = 11,
    OCV_COLOR_YUV2RGB_NV12 = 90,
    OCV_COLOR_YUV2BGR_NV12 = 91,
    OCV_COLOR_YUV2RGBA_NV12 = 94,
    OCV_COLOR_YUV2BGRA_NV12 = 95,
    OCV_COLOR_YUV2RGB_I420 = 100,
    OCV_COLOR_YUV2BGR_I420 = 101,
    OCV_COLOR_YUV2RGBA_I420 = 104,
    OCV_COLOR_YUV2BGRA_I420 = 105,
    OCV_COLOR_YUV2GRAY_420 = 106,  ///< the Y plane of I420 and NV12
    OCV_COLOR_YUV2RGB_YUYV = 115,
    OCV_COLOR_YUV2BGR_YUYV = 116,
    OCV_COLOR_YUV2RGBA_YUYV = 119,
    OCV_COLOR_YUV2BGRA_YUYV = 120,
    OCV_COLOR_YUV2GRAY_YUYV = 124, ///< the Y samples of YUYV
    OCV_COLOR_RGB2YUV_I420 = 127,
    OCV_COLOR_BGR2YUV_I420 = 128,
    OCV_COLOR_RGBA2YUV_I420 = 129,
    OCV_COLOR_BGRA2YUV_I420 = 130,
} OCVColorConversion;

/// cv::ImreadModes that Ocular uses.
typedef enum OCVReadMode {
    OCV_READ_UNCHANGED = -1,
    OCV_READ_GRAYSCALE = 0,
    OCV_READ_COLOR = 1,
    OCV_READ_ANYCOLOR = 4,
} OCVReadMode;

// MARK: - Library

/// OpenCV's version string, e.g. "4.6.0".
const char *_Nonnull ocv_version(void);

/// cv::setNumThreads: how many threads one OpenCV call may spread its work over (1: none but the caller's).
void ocv_set_thread_count(int32_t count);

/// cv::getNumThreads.
int32_t ocv_thread_count(void);

/// Whether OpenCV prints its own warnings on standard error (it does by default, and Ocular's
/// videos turn it off): its log and what it writes to std::cerr itself (imdecode's "can't read
/// header"). Ocular reports every failure itself; the command line shows them with --verbose.
/// OPENCV_LOG_LEVEL, when set, wins for the log.
void ocv_show_library_messages(bool shown);

// MARK: - Core and imgproc

/// cv::cvtColor from `source` into the caller's `destination`.
OCVStatus ocv_convert_color(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination,
                            OCVColorConversion code, OCVError *_Nonnull error);

/// cv::multiply by a per-channel scalar, saturating at 0 and 255. `factors` has one entry per channel.
OCVStatus ocv_multiply_channels(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination,
                                const double *_Nonnull factors, OCVError *_Nonnull error);

/// Each pixel of `image` (8-bit, in place) multiplied by a gain map and a per-channel factor, saturating:
/// `gains` is a `gainColumns` × `gainRows` grid of floats stretched over the image (cv::resize, bilinear),
/// so a smooth field of light is described by a few hundred values.
OCVStatus ocv_multiply_by_gain_map(const OCVImage *_Nonnull image, const float *_Nonnull gains, int32_t gainColumns,
                                   int32_t gainRows, const double *_Nonnull factors, OCVError *_Nonnull error);

/// Adds Gaussian noise of standard deviation `sigma` to each byte of `image` (8-bit, in place, saturating),
/// drawn by cv::randn from a generator seeded with `seed`: the same seed, the same noise.
OCVStatus ocv_add_gaussian_noise(const OCVImage *_Nonnull image, double sigma, uint64_t seed, OCVError *_Nonnull error);

/// cv::LUT: each channel's values mapped through its own 256-entry table; `tables` holds 256
/// entries per channel, channel after channel, in the image's channel order.
OCVStatus ocv_lookup_channels(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination,
                              const uint8_t *_Nonnull tables, OCVError *_Nonnull error);

/// cv::xphoto gray-world white balance. 3 channels are balanced directly; with 4 channels the
/// first three are balanced and the fourth (alpha) is carried over unchanged.
OCVStatus ocv_gray_world_white_balance(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination,
                                       float saturationThreshold, OCVError *_Nonnull error);

/// What gray-world white balance needs of a 3- or 4-channel 8-bit image, per colour channel (the
/// first three, in the image's order): `unsaturatedSums`, the channel sums over the pixels whose
/// saturation is at most `saturationThreshold` by xphoto's rule ((max − min) · 255 ≤ round(t · 255) · max),
/// and `means`, the channel means over every pixel.
OCVStatus ocv_gray_world_statistics(const OCVImage *_Nonnull source, float saturationThreshold,
                                    double *_Nonnull unsaturatedSums, double *_Nonnull means, OCVError *_Nonnull error);

// MARK: - The HUD blend mode's edge image and Lanczos resizing

/// The HUD's edge image: cv::GaussianBlur 5×5, then cv::Laplacian (aperture 3, 8-bit, so negative
/// responses are 0), then each channel multiplied by `channelFactors` (one per channel).
OCVStatus ocv_edge_image(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination,
                         const double *_Nonnull channelFactors, OCVError *_Nonnull error);

/// cv::resize with Lanczos interpolation (8×8 neighbourhood) into the destination's size.
OCVStatus ocv_resize_lanczos(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination,
                             OCVError *_Nonnull error);

/// cv::resize with area interpolation into the destination's size: the one without moiré for
/// shrinking, as for thumbnails.
OCVStatus ocv_resize_area(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination,
                          OCVError *_Nonnull error);

// MARK: - Memory

/// With glibc, lets freed blocks up to `bytes` (at most 32 MiB) go back to the heap for reuse instead
/// of to the system (M_MMAP_THRESHOLD, M_TRIM_THRESHOLD, and M_TOP_PAD for the heaps of other threads).
/// A video pipeline allocates a frame-sized output per frame; returned to the system, each one is
/// faulted in again page by page, which costs more than the work. Returns false where this cannot be set (other C libraries).
bool ocv_keep_freed_blocks(size_t bytes);

// MARK: - Image codecs

/// A matrix OpenCV allocated; release it with ocv_matrix_release.
typedef struct OCVMatrix OCVMatrix;
/// The pixels of a matrix the bridge owns. Valid until the matrix is released.
OCVImage ocv_matrix_view(const OCVMatrix *_Nonnull matrix);
void ocv_matrix_release(OCVMatrix *_Nullable matrix);

/// cv::imdecode, applying EXIF orientation unless mode is OCV_READ_UNCHANGED. Depths above 8 bits
/// are scaled to 8 bits. When `into` is given and the decoded image has its size and type, the
/// pixels are written there and `*decoded` is NULL; otherwise `*decoded` owns the pixels. A plain
/// colour JPEG read in colour into BGR storage of its size is decoded by ocv_decode_jpeg_as_bgr.
OCVStatus ocv_decode_image(const void *_Nonnull bytes, size_t count, OCVReadMode mode,
                           const OCVImage *_Nullable into, OCVMatrix *_Nullable *_Nonnull decoded,
                           OCVError *_Nonnull error);

/// The JPEG reader of cv::imdecode for the plainest files, three times as fast as OpenCV 4.6's: an
/// 8-bit, three-component JPEG with no EXIF block and nothing libjpeg warns about, decoded by
/// libjpeg-turbo straight into `into` (8UC3, exactly the picture's size). False for any other file or
/// any failure; `into` may then hold part of a picture and must not be used. ocv_decode_image calls it;
/// the tests call it alone, to hold its pixels to cv::imdecode's.
bool ocv_decode_jpeg_as_bgr(const void *_Nonnull bytes, size_t count, const OCVImage *_Nonnull into);

/// ocv_decode_jpeg_as_bgr at 1/`denominator` of the picture's width and height (2, 4 or 8; 1: whole),
/// scaled inside libjpeg's inverse DCT, a fraction of the work of decoding whole and shrinking;
/// `into` is the picture's size divided by `denominator`, rounded up. False as ocv_decode_jpeg_as_bgr
/// is, and for any other denominator.
bool ocv_decode_jpeg_as_bgr_scaled(const void *_Nonnull bytes, size_t count, int denominator, const OCVImage *_Nonnull into);

/// Bytes OpenCV produced; release with ocv_bytes_release.
typedef struct OCVBytes OCVBytes;
const uint8_t *_Nonnull ocv_bytes_data(const OCVBytes *_Nonnull bytes);
size_t ocv_bytes_count(const OCVBytes *_Nonnull bytes);
void ocv_bytes_release(OCVBytes *_Nullable bytes);

/// cv::imencode. `fileExtension` is like ".png"; `parameters` are cv::ImwriteFlags pairs.
OCVStatus ocv_encode_image(const char *_Nonnull fileExtension, const OCVImage *_Nonnull image,
                           const int32_t *_Nullable parameters, int32_t parameterCount,
                           OCVBytes *_Nullable *_Nonnull encoded, OCVError *_Nonnull error);

/// cv::haveImageWriter: whether OpenCV can write a file with this name's extension.
bool ocv_can_write_image(const char *_Nonnull fileName);

/// cv::IMWRITE_JPEG_QUALITY and cv::IMWRITE_PNG_COMPRESSION.
enum { OCV_WRITE_JPEG_QUALITY = 1, OCV_WRITE_PNG_COMPRESSION = 16 };

// MARK: - Video (videoio)

typedef struct OCVVideoProperties {
    int32_t width;
    int32_t height;
    double framesPerSecond;
    int64_t frameCount;
    char fourcc[5];       ///< codec four-character code, e.g. "h264", "MJPG"
    char backend[32];     ///< videoio backend that opened the file, e.g. "FFMPEG"
} OCVVideoProperties;

/// Opens a video file with cv::VideoCapture and reads its properties.
OCVStatus ocv_video_probe(const char *_Nonnull path, OCVVideoProperties *_Nonnull properties,
                          OCVError *_Nonnull error);

/// The first frame of a video file, as 8-bit BGR; release it with ocv_matrix_release.
OCVStatus ocv_video_first_frame(const char *_Nonnull path, OCVMatrix *_Nullable *_Nonnull frame,
                                OCVError *_Nonnull error);

typedef struct OCVVideoWriter OCVVideoWriter;

/// cv::VideoWriter for BGR (isColor) or gray frames of the given size, except that colour MJPG goes
/// through Ocular's own writer where this build has one (libjpeg-turbo's frames in libavformat's AVI;
/// MotionJPEG.cpp), which also reports a failed write.
OCVStatus ocv_video_writer_open(const char *_Nonnull path, const char *_Nonnull fourcc, double framesPerSecond,
                                int32_t width, int32_t height, bool isColor,
                                OCVVideoWriter *_Nullable *_Nonnull writer, OCVError *_Nonnull error);
OCVStatus ocv_video_writer_write(OCVVideoWriter *_Nonnull writer, const OCVImage *_Nonnull frame,
                                 OCVError *_Nonnull error);
/// Finishes the file and frees the writer; false when the file could not be finished.
bool ocv_video_writer_release(OCVVideoWriter *_Nullable writer);

// MARK: - Frame capture (videoio)

/// A video file or camera being read frame by frame.
typedef struct OCVCapture OCVCapture;

/// Opens a video file for reading frames (FFmpeg first, then GStreamer) and reads its properties.
OCVStatus ocv_capture_open_file(const char *_Nonnull path, OCVCapture *_Nullable *_Nonnull capture,
                                OCVVideoProperties *_Nonnull properties, OCVError *_Nonnull error);
/// Opens camera device `index` (V4L2 on Linux, then any backend) and reads its properties. With
/// `lumaOnly`, a camera that delivers packed YUV 4:2:2 (YUYV) is read raw and each frame is its Y
/// plane, never converted to colour; other cameras give BGR, and the caller takes its luma.
OCVStatus ocv_capture_open_camera(int32_t index, bool lumaOnly, OCVCapture *_Nullable *_Nonnull capture,
                                  OCVVideoProperties *_Nonnull properties, OCVError *_Nonnull error);
/// Reads the next frame as 8-bit BGR or gray. When no frame comes, `frame->data` is NULL: the end of
/// a file, or a frame that cannot be decoded (the caller tells them apart by the frames read so far
/// against the container's count). `*milliseconds` is the frame's presentation time. The view stays
/// valid until the next read or the release.
OCVStatus ocv_capture_read(OCVCapture *_Nonnull capture, OCVImage *_Nonnull frame, double *_Nonnull milliseconds,
                           OCVError *_Nonnull error);
void ocv_capture_release(OCVCapture *_Nullable capture);

// MARK: - Geometry

/// cv::rotate by `quarterTurns` (1, 2 or 3) clockwise quarter turns into the destination.
OCVStatus ocv_rotate_quarter_turns(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination,
                                   int32_t quarterTurns, OCVError *_Nonnull error);
/// cv::flip around the vertical axis: left becomes right, as in a mirror.
OCVStatus ocv_mirror(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination, OCVError *_Nonnull error);

/// cv::resize with bilinear interpolation to the destination's size.
OCVStatus ocv_resize_linear(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination, OCVError *_Nonnull error);

/// cv::getAffineTransform: the 2×3 matrix (`coefficients`, row by row) that maps the three points `from` onto the
/// three points `to` (each x0, y0, x1, y1, x2, y2). Fails for points on one line.
OCVStatus ocv_affine_from_triangles(const double *_Nonnull from, const double *_Nonnull to, double *_Nonnull coefficients,
                                    OCVError *_Nonnull error);

/// cv::InterpolationFlags that Ocular uses, with OpenCV's values (checked at compile time).
typedef enum OCVInterpolation {
    OCV_INTER_NEAREST = 0,
    OCV_INTER_LINEAR = 1,
    OCV_INTER_CUBIC = 2,
    OCV_INTER_AREA = 3,            ///< cv::resize only; cv::warpAffine takes it as bilinear
    OCV_INTER_LANCZOS4 = 4,
} OCVInterpolation;

/// cv::warpAffine into the destination's size: each destination pixel samples the source at the inverse of
/// the 2×3 matrix `coefficients` with `interpolation`. Outside the source, the edge pixels are repeated
/// (`replicateBorder`) or black.
OCVStatus ocv_warp_affine(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination,
                          const double *_Nonnull coefficients, OCVInterpolation interpolation, bool replicateBorder,
                          OCVError *_Nonnull error);

/// cv::warpPerspective into the destination's size: each destination pixel samples the source at the inverse of
/// the 3×3 matrix `coefficients` (row by row) with `interpolation`; outside the source, the edge pixels repeat.
OCVStatus ocv_warp_perspective(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination,
                               const double *_Nonnull coefficients, OCVInterpolation interpolation, OCVError *_Nonnull error);

/// cv::getPerspectiveTransform: the 3×3 matrix (row by row, into `coefficients`) taking the four points
/// `from` (x0, y0, … x3, y3) to the four points `to`.
OCVStatus ocv_perspective_transform(const double *_Nonnull from, const double *_Nonnull to, double *_Nonnull coefficients,
                                    OCVError *_Nonnull error);

/// The magnitudes |X_k| of the discrete Fourier transform of `count` real samples (cv::dft), for
/// k = 0 … count / 2 (`magnitudes` holds count / 2 + 1 values).
OCVStatus ocv_dft_magnitudes(const double *_Nonnull samples, int32_t count, double *_Nonnull magnitudes,
                             OCVError *_Nonnull error);

/// cv::GaussianBlur with standard deviation `sigma` both ways, the kernel sized by OpenCV from sigma (about
/// 6.6σ for 8-bit images), edges repeated (BORDER_REPLICATE) as Core Image's clamped extent reads them.
OCVStatus ocv_gaussian_blur(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination, double sigma,
                            OCVError *_Nonnull error);

/// cv::warpAffine onto what the destination already holds (BORDER_TRANSPARENT): where the map takes no source
/// pixel, the destination's own pixels stay. Source and destination have the same type.
OCVStatus ocv_warp_affine_over(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination,
                               const double *_Nonnull coefficients, OCVError *_Nonnull error);

/// cv::equalizeHist of an 8-bit gray image.
OCVStatus ocv_equalize_histogram(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination,
                                 OCVError *_Nonnull error);

/// Contrast-limited adaptive histogram equalisation (cv::CLAHE) of an 8-bit gray image over
/// `tiles` × `tiles` tiles.
OCVStatus ocv_equalize_clahe(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination, double clipLimit,
                             int32_t tiles, OCVError *_Nonnull error);

/// Copies `source` into the larger `destination` at (`left`, `top`) and fills the border with `value`.
OCVStatus ocv_pad_constant(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination, int32_t left,
                           int32_t top, uint8_t value, OCVError *_Nonnull error);

/// The outline of the largest region of `mask` (8-bit, nonzero inside): cv::findContours (outer outlines)
/// simplified by cv::approxPolyDP to within `tolerance` pixels. Up to `capacity` points go into `points`
/// as x, y pairs; `count` gets how many the outline has (0 for an empty mask).
OCVStatus ocv_mask_outline(const OCVImage *_Nonnull mask, double tolerance, double *_Nonnull points, int32_t capacity,
                           int32_t *_Nonnull count, OCVError *_Nonnull error);

/// Draws a rectangle outline in place (8-connected, no anti-aliasing: the colours stay exact). `colour` holds 4 values in the image's channel order.
OCVStatus ocv_draw_rectangle(const OCVImage *_Nonnull image, int32_t x, int32_t y, int32_t width, int32_t height,
                             const double *_Nonnull colour, int32_t thickness, OCVError *_Nonnull error);

/// Draws a circle in place (8-connected, no anti-aliasing: the colours stay exact) around a sub-pixel centre; thickness -1 fills it.
OCVStatus ocv_draw_circle(const OCVImage *_Nonnull image, double x, double y, int32_t radius,
                          const double *_Nonnull colour, int32_t thickness, OCVError *_Nonnull error);


/// Draws the line through `count` points (x, y pairs, sub-pixel) in place, anti-aliased: for charts.
OCVStatus ocv_draw_polyline(const OCVImage *_Nonnull image, const double *_Nonnull points, int32_t count,
                            const double *_Nonnull colour, int32_t thickness, OCVError *_Nonnull error);

/// Writes `text` (Hershey simplex, anti-aliased, no tag) with capitals about `height` pixels tall (4–400),
/// its baseline at `y` and its left end, middle or right end (`anchor` 0, 1, 2) at `x`: for chart labels.
OCVStatus ocv_draw_text(const OCVImage *_Nonnull image, const char *_Nonnull text, double x, double y, double height,
                        int32_t anchor, const double *_Nonnull colour, OCVError *_Nonnull error);

/// Writes `text` (UTF-8; Hershey's fonts draw ASCII) on a filled tag of `colour` in `ink`, its top-left
/// corner at (x, y) moved to stay inside the picture; capitals are about `height` pixels tall (4–400).
OCVStatus ocv_draw_label(const OCVImage *_Nonnull image, const char *_Nonnull text, int32_t x, int32_t y, double height,
                         const double *_Nonnull colour, const double *_Nonnull ink, OCVError *_Nonnull error);

/// The size in pixels of the tag ocv_draw_label draws for `text` at `height`; 0 × 0 for a height
/// outside 4–400.
void ocv_label_size(const char *_Nonnull text, double height, int32_t *_Nonnull width, int32_t *_Nonnull tall);

#ifdef __cplusplus
}
#endif
