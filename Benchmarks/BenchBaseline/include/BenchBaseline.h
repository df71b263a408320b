// The C++ baseline of ocular-bench: the same OpenCV calls Ocular's bridge makes, written directly
// in C++ and timed in C++, so that Swift's overhead can be measured in the same process.
//
// Every timing function runs `iterations` iterations and writes each one's duration in nanoseconds
// to `samples` (room for `iterations` values). Each iteration does what one call of the Swift API
// does: allocate a fresh output and make the same OpenCV call(s). `checksum`, when not NULL,
// receives an FNV-1a hash of the last iteration's output, to check that both sides did the same work.
//
// No C++ exception leaves this library: failures return false with a reason in `error`.
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct BaselineError {
    char message[512];
} BaselineError;

/// CV_VERSION of the OpenCV headers the baseline was compiled with, e.g. "4.6.0".
const char *_Nonnull baseline_opencv_version(void);
/// cv::getNumThreads(): the threads OpenCV's parallel loops use in this process.
int32_t baseline_opencv_threads(void);
/// The parallel framework OpenCV was built with, from its build information, e.g. "pthreads" or "TBB (ver 2021.8)".
const char *_Nonnull baseline_parallel_framework(void);

/// 64-bit FNV-1a of `count` bytes: the hash of the checksums.
uint64_t baseline_fnv1a(const uint8_t *_Nonnull bytes, size_t count);

/// Reads an image file and resizes it (INTER_AREA) to `width` × `height` tightly packed BGRA,
/// written to `bgra` (width × height × 4 bytes).
bool baseline_make_frame(const char *_Nonnull path, int32_t width, int32_t height, uint8_t *_Nonnull bgra,
                         BaselineError *_Nonnull error);

/// Encodes tightly packed BGRA pixels as a JPEG of the given quality (alpha dropped) into `output`
/// (capacity `capacity` bytes); `*count` receives the size.
bool baseline_encode_jpeg(const uint8_t *_Nonnull bgra, int32_t width, int32_t height, int32_t quality,
                          uint8_t *_Nonnull output, size_t capacity, size_t *_Nonnull count, BaselineError *_Nonnull error);

/// cv::cvtColor(BGRA → GRAY) into a fresh matrix.
bool baseline_gray(const uint8_t *_Nonnull bgra, int32_t width, int32_t height, int32_t iterations,
                   double *_Nonnull samples, uint64_t *_Nullable checksum, BaselineError *_Nonnull error);

/// Gray-world white balance of BGRA as Ocular does it: channel sums over the pixels xphoto's
/// GrayworldWB counts (parallel_for_ over rows), cv::mean, gains ∝ 1/sum scaled to keep the mean
/// BT.601 luma, then cv::multiply by the gains (alpha × 1) into a fresh matrix.
bool baseline_white_balance(const uint8_t *_Nonnull bgra, int32_t width, int32_t height, float saturationThreshold,
                            int32_t iterations, double *_Nonnull samples, uint64_t *_Nullable checksum,
                            BaselineError *_Nonnull error);

/// cv::multiply of BGRA by Scalar(blue, green, red, 1) into a fresh matrix.
bool baseline_tint(const uint8_t *_Nonnull bgra, int32_t width, int32_t height, double red, double green, double blue,
                   int32_t iterations, double *_Nonnull samples, uint64_t *_Nullable checksum,
                   BaselineError *_Nonnull error);

/// The zoom stage's work at `factor` about the middle: cv::warpAffine of BGRA onto its own size, bicubic,
/// edges replicated, by the map Image.zoomed computes (the same arithmetic, so the same pixels).
bool baseline_zoom(const uint8_t *_Nonnull bgra, int32_t width, int32_t height, double factor,
                   int32_t iterations, double *_Nonnull samples, uint64_t *_Nullable checksum,
                   BaselineError *_Nonnull error);

/// cv::imdecode(IMREAD_COLOR) of a JPEG, then cv::imencode(".jpg", IMWRITE_JPEG_QUALITY = quality)
/// into a fresh byte vector. The checksum covers the encoded bytes.
bool baseline_jpeg_round_trip(const uint8_t *_Nonnull jpeg, size_t count, int32_t quality, int32_t iterations,
                              double *_Nonnull samples, uint64_t *_Nullable checksum, BaselineError *_Nonnull error);

// MARK: Blending: the textbook's op-by-op sequences, each call a full pass over the frame.

/// The memory limit: std::memcpy of the frame's bytes into a buffer allocated once (no checksum).
bool baseline_copy_frame(const uint8_t *_Nonnull bgra, int32_t width, int32_t height, int32_t iterations,
                         double *_Nonnull samples, BaselineError *_Nonnull error);

/// What the textbook caches for Screen: 255 − source (cv::subtract from Scalar::all(255)), into `inverted`.
bool baseline_invert(const uint8_t *_Nonnull bgra, int32_t width, int32_t height, uint8_t *_Nonnull inverted,
                     BaselineError *_Nonnull error);

/// What the textbook caches for HUD: 255 − (Laplacian(GaussianBlur(source, 5×5), aperture 3) · (0, 1, 0.5, 1)), into `inverted`.
bool baseline_hud_inverted_edges(const uint8_t *_Nonnull bgra, int32_t width, int32_t height, uint8_t *_Nonnull inverted,
                                 BaselineError *_Nonnull error);

/// The textbook's Screen per frame, with the cached inverted source: cv::subtract(255, frame),
/// cv::multiply(that, inverted, scale 1/255), cv::subtract(255, product): three passes.
bool baseline_screen_textbook(const uint8_t *_Nonnull frame, const uint8_t *_Nonnull invertedSource, int32_t width,
                              int32_t height, int32_t iterations, double *_Nonnull samples, uint64_t *_Nullable checksum,
                              BaselineError *_Nonnull error);

/// The textbook's Multiply per frame: cv::multiply(frame, source, scale 1/255).
bool baseline_multiply_textbook(const uint8_t *_Nonnull frame, const uint8_t *_Nonnull source, int32_t width,
                                int32_t height, int32_t iterations, double *_Nonnull samples, uint64_t *_Nullable checksum,
                                BaselineError *_Nonnull error);

/// W3C hue blending written with OpenCV's matrix operations, op by op, in float: what a user of
/// OpenCV writes for a mode OpenCV lacks.
bool baseline_hue_op_by_op(const uint8_t *_Nonnull frame, const uint8_t *_Nonnull source, int32_t width,
                           int32_t height, int32_t iterations, double *_Nonnull samples, uint64_t *_Nullable checksum,
                           BaselineError *_Nonnull error);


/// One box a face pipeline found: x, y, width, height in frame pixels, and 1 for a human, 2 for a cat.
typedef struct BaselineFace {
    int32_t x;
    int32_t y;
    int32_t width;
    int32_t height;
    int32_t species;
} BaselineFace;

/// The textbook's face pipeline over `frameCount` tightly packed BGR frames, in order: gray,
/// resize 0.5 (INTER_LINEAR), equalizeHist; human faces (scale 1.4, 4 neighbours, min 0.25 of the
/// short side), cat faces (1.4, 6, 0.2) dropped where they touch a human; per human face both eye
/// cascades in its halves (1.2, 2, 0.1 of the face). The cascades are loaded before timing.
/// `samples` receives each frame's nanoseconds (`frameCount` values); `faces` (room for `capacity`)
/// every frame's boxes one frame after another, `counts[frame]` of them for each frame.
/// `humanScale`/`humanMinimum` and `catScale`/`catMinimum` are the two searches' pyramid steps and
/// smallest sizes (fractions of the short side): the textbook's are 1.4/0.25 and 1.4/0.2.
bool baseline_faces_textbook(const uint8_t *_Nonnull const *_Nonnull frames, int32_t frameCount, int32_t width,
                             int32_t height, double humanScale, double humanMinimum, double catScale, double catMinimum,
                             const char *_Nonnull humanCascade, const char *_Nonnull catCascade,
                             const char *_Nonnull viewersLeftEyeCascade, const char *_Nonnull viewersRightEyeCascade,
                             double *_Nonnull samples, BaselineFace *_Nonnull faces, int32_t capacity,
                             int32_t *_Nonnull counts, BaselineError *_Nonnull error);

/// The textbook's face merge of two tightly packed BGR faces: cv::getAffineTransform from
/// the smaller face's three landmarks (left eye, right eye, nose: x, y each) onto the bigger's,
/// cv::warpAffine of the smaller onto the bigger's size (bilinear, edges replicated), then
/// cv::multiply(bigger, warped, scale 1/255) into a fresh matrix.
bool baseline_merge_faces(const uint8_t *_Nonnull bigger, int32_t biggerWidth, int32_t biggerHeight,
                          const uint8_t *_Nonnull smaller, int32_t smallerWidth, int32_t smallerHeight,
                          const double *_Nonnull smallerLandmarks, const double *_Nonnull biggerLandmarks,
                          int32_t iterations, double *_Nonnull samples, uint64_t *_Nullable checksum,
                          BaselineError *_Nonnull error);

/// The textbook's blob detection on a tightly packed BGR frame, with Ocular's one blob per
/// object (rectangles inside no other, biggest first) and each blob's pixels copied; the checksum is
/// of the rectangles as int32 rows.
bool baseline_detect_blobs(const uint8_t *_Nonnull bgr, int32_t width, int32_t height, int32_t iterations,
                           double *_Nonnull samples, uint64_t *_Nullable checksum, BaselineError *_Nonnull error);

/// The textbook's classification of one BGR blob against references described from the pictures at
/// `referencePaths` (read with imread before the timing): histogram + CLAHE + ORB of the blob, then
/// per reference 0.98 × chi-square-alt + 0.02 × the BFMatcher Hamming sum; the checksum is of the
/// nearest label as one byte.
bool baseline_classify_blob(const uint8_t *_Nonnull bgr, int32_t width, int32_t height,
                            const char *_Nonnull const *_Nonnull referencePaths, const int32_t *_Nonnull labels,
                            int32_t referenceCount, int32_t iterations, double *_Nonnull samples,
                            uint64_t *_Nullable checksum, BaselineError *_Nonnull error);

/// One object a bean-counting pipeline found: x, y, width, height in frame pixels and its label.
typedef struct BaselineObject {
    int32_t x;
    int32_t y;
    int32_t width;
    int32_t height;
    int32_t label;
} BaselineObject;

/// The textbook's bean counter over `frameCount` tightly packed BGR frames: per frame the
/// blob detection of baseline_detect_blobs, then each blob classified as baseline_classify_blob does
/// against references described from `referencePaths` (read before the timing). `samples` receives
/// each frame's nanoseconds; `objects` (room for `capacity`) every frame's blobs one frame after
/// another, `counts[frame]` of them for each frame.
bool baseline_count_blobs(const uint8_t *_Nonnull const *_Nonnull frames, int32_t frameCount, int32_t width, int32_t height,
                          const char *_Nonnull const *_Nonnull referencePaths, const int32_t *_Nonnull labels,
                          int32_t referenceCount, double *_Nonnull samples, BaselineObject *_Nonnull objects,
                          int32_t capacity, int32_t *_Nonnull counts, BaselineError *_Nonnull error);

/// The OpenCV tutorial's samples, as a C++ program would write each with the stage's default
/// parameters (contrastBrightness at contrast 1.5, brightness −30) on tightly packed BGR pixels:
/// 0 edges, 1 corners, 2 sepia, 3 negative, 4 contrastBrightness, 5 contours, 6 cartoon, 7 features,
/// 8 tracking, 9 totalVariation, 10 drawingCanvas. Tracking alternates `bgr` and `next` (the same picture
/// moved) from one iteration to the next, following 200 points.
bool baseline_sample(int32_t sample, const uint8_t *_Nonnull bgr, const uint8_t *_Nonnull next, int32_t width, int32_t height,
                     int32_t iterations, double *_Nonnull samples, uint64_t *_Nullable checksum, BaselineError *_Nonnull error);

/// The filters' rows on a BGR frame: `which` 0 is the five-filter colour chain one OpenCV call
/// after another (colour controls and hue by cv::transform with the 3×4 matrices given in BGR order, levels
/// for the bias; exposure and gamma by cv::LUT with the tables given; vibrance in float Mat arithmetic);
/// 1 is cv::GaussianBlur of standard deviation `sigma`, edges replicated; 2 to 6 are the chain's five calls
/// alone (colour controls, exposure, gamma, hue, vibrance).
bool baseline_filters(int32_t which, const uint8_t *_Nonnull bgr, int32_t width, int32_t height, const float *_Nonnull colourControls,
                      const uint8_t *_Nonnull exposure, const uint8_t *_Nonnull gamma, const float *_Nonnull hue, float vibrance,
                      double sigma, int32_t iterations, double *_Nonnull samples, uint64_t *_Nullable checksum,
                      BaselineError *_Nonnull error);

#ifdef __cplusplus
}
#endif
