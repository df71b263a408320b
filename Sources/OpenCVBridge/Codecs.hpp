// What the bridge's own files share beyond the fence: the matrix a decode hands to Swift, and the JPEG
// and Motion-JPEG writers (JPEG.cpp, MotionJPEG.cpp) the codecs and the video writer use.
#pragma once

#include "Bridging.hpp"
#include "OpenCVBridge.h"

#include <string>
#include <vector>

namespace ocular_bridge {

/// libjpeg-turbo compressing 8-bit BGR itself, with the settings cv::imencode gives it for a quality
/// alone: the same bytes, without OpenCV 4.6's swap of every row to RGB first (JPEG.cpp). False for
/// any other image or any failure; `encoded` is then to be ignored.
bool encodeJPEGFromBGR(const OCVImage &image, int quality, std::vector<uint8_t> &encoded);

/// A Motion-JPEG AVI being written (MotionJPEG.cpp): frames compressed by encodeJPEGFromBGR, put in
/// the container by libavformat.
struct MotionJPEGFile;
/// Creates the file. Null where this build has no libavformat or libjpeg-turbo's BGR input (`failure`
/// empty: cv::VideoWriter is the way), or when the file cannot be made (`failure` says why).
MotionJPEGFile *openMotionJPEG(const char *path, double framesPerSecond, int width, int height, int quality,
                               std::string &failure);
/// Compresses and appends one 8-bit BGR frame of the file's size; false with `failure` otherwise.
bool writeMotionJPEG(MotionJPEGFile &file, const OCVImage &frame, std::string &failure);
/// Writes the index and closes the file, then frees `file`; false when the file could not be finished.
bool finishMotionJPEG(MotionJPEGFile *file);

}  // namespace ocular_bridge

/// The opaque types of the C header.
struct OCVMatrix {
    cv::Mat matrix;
};
