// What describes a blob for classification: colour histograms and ORB keypoint descriptors,
// behind the same plain C conventions as OpenCVBridge.
//
// A target of its own so that only code that classifies links libopencv_features2d.
#pragma once

#include <OpenCVBridgeCore.h>

#ifdef __cplusplus
extern "C" {
#endif

/// The 3-D histogram of an 8-bit 3-channel image, `bins` per channel over [0, 256), divided by the
/// pixel count: bins³ floats, the first channel's index varying slowest. With a mask (8-bit gray of
/// the image's size), only the pixels where it is not 0 count.
OCVStatus ocv_colour_histogram(const OCVImage *_Nonnull image, const OCVImage *_Nullable mask, int32_t bins, float *_Nonnull histogram,
                               OCVError *_Nonnull error);

/// The 2-D hue × saturation histogram of an 8-bit BGR image (OpenCV's HSV: hue over [0, 180)),
/// divided by the pixel count: hueBins × saturationBins floats; with a mask, of its pixels only.
OCVStatus ocv_hue_saturation_histogram(const OCVImage *_Nonnull bgr, const OCVImage *_Nullable mask, int32_t hueBins, int32_t saturationBins,
                                       float *_Nonnull histogram, OCVError *_Nonnull error);

/// OpenCV's alternative chi-square of two histograms of `count` floats (cv::compareHist with
/// HISTCMP_CHISQR_ALT): 2 Σ (a−b)² / (a+b) over the bins where a + b is not zero, summed in doubles.
double ocv_chi_square_alternative(const float *_Nonnull first, const float *_Nonnull second, int32_t count);

/// ORB with its own keypoints; keeps the last descriptors. Not safe to use from two threads at once.
typedef struct OCVOrb OCVOrb;
OCVStatus ocv_orb_create(int32_t features, OCVOrb *_Nullable *_Nonnull orb, OCVError *_Nonnull error);
void ocv_orb_release(OCVOrb *_Nullable orb);

/// CLAHE (clip limit 40, 8×8 tiles: OpenCV's defaults) on an 8-bit gray image, then ORB keypoints and
/// their descriptors (keypoints inside the mask only, when one is given); read them with ocv_orb_descriptors.
OCVStatus ocv_orb_describe(OCVOrb *_Nonnull orb, const OCVImage *_Nonnull gray, const OCVImage *_Nullable mask, int32_t *_Nonnull count,
                           OCVError *_Nonnull error);
/// The size of one descriptor in bytes (32).
int32_t ocv_orb_descriptor_size(void);
/// Copies up to `capacity` descriptors of the last describe (each ocv_orb_descriptor_size bytes).
void ocv_orb_descriptors(const OCVOrb *_Nonnull orb, uint8_t *_Nonnull descriptors, int32_t capacity);

/// Brute-force Hamming matching: for each query descriptor, the distance to its nearest train
/// descriptor (what cv::BFMatcher::match finds), written to `distances` (queryCount floats).
OCVStatus ocv_hamming_nearest(const uint8_t *_Nonnull query, int32_t queryCount, const uint8_t *_Nonnull train,
                              int32_t trainCount, float *_Nonnull distances, OCVError *_Nonnull error);

#ifdef __cplusplus
}
#endif
