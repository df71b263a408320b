// The OpenCV tutorial's samples: edges, corners, colour transforms, contours, mean shift,
// keypoints, total-variation denoising, the pencil drawing's filters and the tracks' drawing, behind
// the same plain C conventions as OpenCVBridge: every call catches every C++ exception, pixels cross
// as views the caller owns, and an output OpenCV would reallocate fails with OCV_STATUS_REALLOCATED.
//
// A target of its own so that only the samples link libopencv_photo (denoise_TVL1) and the keypoint
// detectors' libopencv_features2d for their sake.
#pragma once

#include <OpenCVBridgeCore.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Edges

/// cv::Canny of an 8-bit gray image into `edges` (8-bit gray, the same size): 255 on edges, 0 elsewhere.
/// `aperture` is Sobel's (3, 5 or 7); `l2Gradient` measures the gradient by its true length.
OCVStatus ocv_canny(const OCVImage *_Nonnull gray, const OCVImage *_Nonnull edges, double low, double high, int32_t aperture,
                    bool l2Gradient, OCVError *_Nonnull error);

typedef enum OCVGradientOperator {
    OCV_GRADIENT_SOBEL = 0,   ///< cv::Sobel with the given aperture
    OCV_GRADIENT_SCHARR = 1,  ///< cv::Scharr (a 3×3 kernel more accurate than Sobel's)
} OCVGradientOperator;

typedef enum OCVGradientDirection {
    OCV_GRADIENT_X = 0,     ///< d/dx: vertical edges
    OCV_GRADIENT_Y = 1,     ///< d/dy: horizontal edges
    OCV_GRADIENT_BOTH = 2,  ///< the magnitude √(gx² + gy²)
} OCVGradientDirection;

/// The gradient strength of an 8-bit gray image into `strength` (8-bit gray, the same size). One
/// direction: the derivative into 16 bits (CV_16S), then cv::convertScaleAbs by `scale`. Both: the two
/// derivatives into 32-bit floats, cv::magnitude, then convertTo 8 bits by `scale` (rounded, saturated).
OCVStatus ocv_gradient(const OCVImage *_Nonnull gray, const OCVImage *_Nonnull strength, OCVGradientOperator method,
                       OCVGradientDirection direction, int32_t aperture, double scale, OCVError *_Nonnull error);

/// Paints `colour` (one value per channel of `image`) over `image` (8-bit, 1, 3 or 4 channels) in place
/// where `mask` (8-bit gray, the same size) is not 0, by the mask's weight: out = in + (colour − in) · m / 255,
/// rounded. A binary mask paints solid; a gradient's strength paints in proportion.
OCVStatus ocv_paint_mask(const OCVImage *_Nonnull image, const OCVImage *_Nonnull mask, const double *_Nonnull colour,
                         OCVError *_Nonnull error);

/// cv::dilate by a `size` × `size` square (size ≥ 1; 1 copies).
OCVStatus ocv_dilate_square(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination, int32_t size,
                            OCVError *_Nonnull error);

// MARK: - Corners

/// Harris corners of an 8-bit gray image: cv::cornerHarris(blockSize, aperture, k), then the local maxima
/// (over a (2 · blockSize + 1)² window, at least 5 × 5) whose response is at least `relativeThreshold`
/// times the strongest, strongest first. Up to `capacity` corners written as (x, y, response) triples
/// to `corners` (3 × capacity floats); `count` says how many. A flat image has none.
OCVStatus ocv_harris_corners(const OCVImage *_Nonnull gray, int32_t blockSize, int32_t aperture, double k,
                             double relativeThreshold, int32_t capacity, float *_Nonnull corners, int32_t *_Nonnull count,
                             OCVError *_Nonnull error);

// MARK: - Colour

/// cv::transform: each output pixel is `matrix` (destination channels × source channels, row-major)
/// times the source pixel, rounded and saturated to 8 bits.
OCVStatus ocv_transform_colour(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination,
                               const float *_Nonnull matrix, OCVError *_Nonnull error);

/// 255 − v for every colour value (cv::bitwise_not; with alpha, cv::bitwise_xor by (255, 255, 255, 0), which keeps it).
OCVStatus ocv_invert_colours(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination, OCVError *_Nonnull error);

/// contrast × v + brightness for every value, rounded and saturated (cv::Mat::convertTo); 1 or 3 channels.
OCVStatus ocv_scale_values(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination, double contrast, double brightness,
                           OCVError *_Nonnull error);

// MARK: - Contours

typedef enum OCVBinarization {
    OCV_BINARIZE_THRESHOLD = 0,  ///< above `threshold` is in
    OCV_BINARIZE_OTSU = 1,       ///< Otsu's threshold (`threshold` is ignored)
    OCV_BINARIZE_CANNY = 2,      ///< Canny edges, `threshold` the high one and half of it the low
    OCV_BINARIZE_ADAPTIVE = 3,   ///< each pixel against the mean of a neighbourhood a quarter of the short side
                                 ///< across: 6 levels darker on light paper, lighter on dark (`threshold` is
                                 ///< ignored); for light that varies across the frame
} OCVBinarization;

/// The contours of an 8-bit gray image, kept by ocv_contours_find.
typedef struct OCVContours OCVContours;

/// Binarizes (for the two thresholds, inverted when most of the border is in: shapes are what stands
/// out from the background, dark on light or light on dark; adaptive judges the paper by the border's mean) and finds the contours (cv::findContours,
/// RETR_EXTERNAL when `outerOnly`, else RETR_TREE; CHAIN_APPROX_SIMPLE), keeping those whose area
/// (cv::contourArea) is at least `minimumArea`. Free with ocv_contours_free.
OCVStatus ocv_contours_find(const OCVImage *_Nonnull gray, OCVBinarization binarization, double threshold, bool outerOnly,
                            double minimumArea, OCVContours *_Nullable *_Nonnull contours, OCVError *_Nonnull error);
int32_t ocv_contours_count(const OCVContours *_Nonnull contours);
/// The kept contour `index`'s area, bounding box, and depth in the tree (0 for an outer contour, 1 for a
/// hole in it, …).
void ocv_contours_describe(const OCVContours *_Nonnull contours, int32_t index, double *_Nonnull area,
                           OCVRectangle *_Nonnull bounds, int32_t *_Nonnull depth);
/// cv::drawContours of every kept contour onto `image` (in place), in `colour` (one value per channel).
OCVStatus ocv_contours_draw(const OCVContours *_Nonnull contours, const OCVImage *_Nonnull image, const double *_Nonnull colour,
                            int32_t thickness, OCVError *_Nonnull error);
void ocv_contours_free(OCVContours *_Nullable contours);

// MARK: - Cartoon, canvas, denoising

/// cv::pyrMeanShiftFiltering of an 8-bit BGR image: colours flattened within `spatialRadius` pixels and
/// `colourRadius` levels, over `levels` pyramid levels.
OCVStatus ocv_mean_shift(const OCVImage *_Nonnull bgr, const OCVImage *_Nonnull destination, double spatialRadius,
                         double colourRadius, int32_t levels, OCVError *_Nonnull error);

/// cv::bilateralFilter: smooths within `diameter` pixels, keeping edges whose step exceeds about `sigmaColour`.
OCVStatus ocv_bilateral(const OCVImage *_Nonnull source, const OCVImage *_Nonnull destination, int32_t diameter,
                        double sigmaColour, double sigmaSpace, OCVError *_Nonnull error);

/// cv::adaptiveThreshold of an 8-bit gray image to 0 and 255: a pixel is 255 when above the
/// (Gaussian-weighted when `gaussian`, else plain) mean of its `blockSize` × `blockSize` neighbourhood
/// minus `offset`.
OCVStatus ocv_adaptive_threshold(const OCVImage *_Nonnull gray, const OCVImage *_Nonnull destination, int32_t blockSize,
                                 double offset, bool gaussian, OCVError *_Nonnull error);

/// cv::extractChannel: channel `channel` of an 8-bit image into `plane` (8-bit gray, the same size).
OCVStatus ocv_extract_channel(const OCVImage *_Nonnull source, const OCVImage *_Nonnull plane, int32_t channel,
                              OCVError *_Nonnull error);

/// cv::merge: `count` 8-bit gray planes of one size as the channels of `destination` (`count` channels).
OCVStatus ocv_merge_channels(const OCVImage *_Nonnull const *_Nonnull planes, int32_t count, const OCVImage *_Nonnull destination,
                             OCVError *_Nonnull error);

/// cv::denoise_TVL1 of one 8-bit gray observation: `lambda` weighs fidelity to it against smoothness
/// (smaller is smoother), over `iterations` primal-dual steps.
OCVStatus ocv_denoise_tv(const OCVImage *_Nonnull gray, const OCVImage *_Nonnull destination, double lambda,
                         int32_t iterations, OCVError *_Nonnull error);

// MARK: - Keypoints

typedef enum OCVKeypointDetector {
    OCV_KEYPOINTS_ORB = 0,
    OCV_KEYPOINTS_FAST = 1,
    OCV_KEYPOINTS_AKAZE = 2,
} OCVKeypointDetector;

typedef struct OCVKeypoint {
    float x;
    float y;
    float size;      ///< diameter of the meaningful neighbourhood, pixels
    float angle;     ///< orientation in degrees, −1 when the detector gives none (FAST)
    float response;
} OCVKeypoint;

/// Keypoints of an 8-bit gray image, the strongest `capacity` (cv::KeyPointsFilter::retainBest).
/// ORB: cv::ORB::create(capacity); FAST: cv::FastFeatureDetector::create(threshold) with non-maximum
/// suppression; AKAZE: cv::AKAZE::create with `threshold` / 10000 as its detector threshold.
OCVStatus ocv_keypoints(const OCVImage *_Nonnull gray, OCVKeypointDetector detector, int32_t capacity, double threshold,
                        OCVKeypoint *_Nonnull keypoints, int32_t *_Nonnull count, OCVError *_Nonnull error);

/// Draws keypoints in place as cv::drawKeypoints' rich keypoints do: a circle of the keypoint's size,
/// and a radius along its orientation where it has one.
OCVStatus ocv_draw_keypoints(const OCVImage *_Nonnull image, const OCVKeypoint *_Nonnull keypoints, int32_t count,
                             const double *_Nonnull colour, OCVError *_Nonnull error);

// MARK: - Tracks

/// Draws tracks in place: `lengths[t]` points of track t follow each other in `points` (x, y pairs,
/// oldest first). Each segment is blended over the image, the oldest faintest (weight (i + 1) / n for the
/// i-th of n segments), and the newest point gets a dot of `radius`.
OCVStatus ocv_draw_tracks(const OCVImage *_Nonnull image, const float *_Nonnull points, const int32_t *_Nonnull lengths,
                          int32_t trackCount, const double *_Nonnull colour, int32_t radius, OCVError *_Nonnull error);

#ifdef __cplusplus
}
#endif
