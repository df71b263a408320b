// OpenCV's deep-network runner (dnn) behind the same plain C conventions as OpenCVBridge.
//
// A target of its own so that only code that runs a network links libopencv_dnn's readers.
#pragma once

#include <OpenCVBridgeCore.h>

#ifdef __cplusplus
extern "C" {
#endif

/// A cv::dnn::Net read from an ONNX file, with the outputs of its last run. Not safe to use from two
/// threads at once.
typedef struct OCVNetwork OCVNetwork;

/// Reads an ONNX model. Fails with OCV_STATUS_OPEN_FAILED when OpenCV reads no network from it.
OCVStatus ocv_network_load_onnx(const char *_Nonnull path, OCVNetwork *_Nullable *_Nonnull network, OCVError *_Nonnull error);

/// cv::dnn::blobFromImage (`image` resized to `width` × `height`, pixel values unscaled, no mean,
/// red and blue swapped when `swapRedBlue`), then forward to the outputs named by `outputNames`. The
/// outputs stay in the network until the next call: read them with ocv_network_output.
OCVStatus ocv_network_forward(OCVNetwork *_Nonnull network, const OCVImage *_Nonnull image, int32_t width, int32_t height,
                              bool swapRedBlue, const char *_Nonnull const *_Nonnull outputNames, int32_t outputCount,
                              OCVError *_Nonnull error);

/// The shape of output `index` of the last run (up to 4 dimensions, unused ones 1) and its element count;
/// 0 when there is no such output, -1 when it is not a continuous matrix of floats.
int64_t ocv_network_output_shape(const OCVNetwork *_Nonnull network, int32_t index, int32_t *_Nonnull dimensions);

/// Copies up to `capacity` floats of output `index` of the last run into `into`.
void ocv_network_output(const OCVNetwork *_Nonnull network, int32_t index, float *_Nonnull into, int64_t capacity);

void ocv_network_release(OCVNetwork *_Nullable network);

/// cv::FaceDetectorYN: OpenCV's own runner of the YuNet face network (its decoding, its non-maximum
/// suppression). Not safe to use from two threads at once.
typedef struct OCVFaceDetectorYN OCVFaceDetectorYN;

/// Reads a YuNet ONNX model for pictures of `width` × `height`, keeping at most `topK` candidates.
OCVStatus ocv_yunet_create(const char *_Nonnull path, int32_t width, int32_t height, int32_t topK,
                           OCVFaceDetectorYN *_Nullable *_Nonnull detector, OCVError *_Nonnull error);

/// The faces in `image` (8-bit BGR, of the size the detector was made for) scoring at least
/// `scoreThreshold`, boxes overlapping by `overlap` (IoU) or more taken as one face: up to `capacity`
/// rows of 15 floats each (box x, y, width, height; the viewer's left eye, right eye, nose tip, left
/// and right mouth corners as x, y; the score) written to `into`, their count to `count`.
OCVStatus ocv_yunet_detect(OCVFaceDetectorYN *_Nonnull detector, const OCVImage *_Nonnull image, float scoreThreshold, float overlap,
                           float *_Nonnull into, int32_t capacity, int32_t *_Nonnull count, OCVError *_Nonnull error);

void ocv_yunet_release(OCVFaceDetectorYN *_Nullable detector);

#ifdef __cplusplus
}
#endif
