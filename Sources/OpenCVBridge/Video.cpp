// Video files (videoio): probing properties, reading the first frame, and writing frames.
#include "Codecs.hpp"

#include <opencv2/core/utils/logger.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include <atomic>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <mutex>

using namespace ocular_bridge;

struct OCVVideoWriter {
    cv::VideoWriter writer;
    MotionJPEGFile *motionJPEG = nullptr;  // MJPG in colour: Ocular's own writer (MotionJPEG.cpp)
};

/// The quality of a Motion-JPEG frame: the picture cv::VideoWriter's FFmpeg encoder kept, read back by
/// FFmpeg, on the cockatoo clip (H.264, 1280×720: 44.6 against 44.5 dB PSNR), in a third more bytes.
static constexpr int motionJPEGQuality = 80;

/// Ocular reports every failure itself; without this, probing a file that is not a video makes
/// GStreamer and FFmpeg print screens of warnings. OPENCV_LOG_LEVEL / OPENCV_FFMPEG_LOGLEVEL still win.
static std::atomic<bool> libraryMessagesShown{false};

static void quietVideoLogging() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (!std::getenv("OPENCV_LOG_LEVEL") && !libraryMessagesShown) cv::utils::logging::setLogLevel(cv::utils::logging::LOG_LEVEL_SILENT);
        setenv("OPENCV_FFMPEG_LOGLEVEL", "-8", 0);  // AV_LOG_QUIET
    });
}

namespace {
/// A stream buffer that drops what is written to it.
class DiscardingBuffer : public std::streambuf {
protected:
    int overflow(int character) override { return traits_type::not_eof(character); }
    std::streamsize xsputn(const char *, std::streamsize count) override { return count; }
};
}  // namespace

void ocv_show_library_messages(bool shown) {
    libraryMessagesShown = shown;
    // OpenCV 4.6 writes some failures to std::cerr past its log level: imdecode's "can't read header"
    // for every damaged file, before Ocular's own error. Only C++ libraries write to std::cerr in an
    // Ocular process (Swift writes to the file descriptor), so while their messages are silenced it
    // goes nowhere. Called when a program starts, before other threads write.
    static DiscardingBuffer discarding;
    static std::streambuf *const standardError = std::cerr.rdbuf();
    std::cerr.rdbuf(shown ? standardError : &discarding);
    if (std::getenv("OPENCV_LOG_LEVEL")) return;
    cv::utils::logging::setLogLevel(shown ? cv::utils::logging::LOG_LEVEL_WARNING : cv::utils::logging::LOG_LEVEL_SILENT);
}

/// Opening cameras and writers is serialised: with CAP_ANY, OpenCV also tries its gphoto2 backend,
/// whose plugin loading (libltdl) is not thread-safe; two probes at once crashed the test run.
static std::mutex &backendLock() {
    static std::mutex lock;
    return lock;
}

/// How long FFmpeg may take to open a file, and to read a frame of it, before it gives up (OpenCV's
/// defaults, said here): a local file takes milliseconds.
static constexpr int openDeadlineMilliseconds = 30000;
static constexpr int readDeadlineMilliseconds = 30000;

/// Files are read by FFmpeg alone, which says no at once to a file without a video stream. GStreamer,
/// which OpenCV was asked to try next, waited for ever at no CPU for the video of a sound-only AVI,
/// and it did so inside the lock above, so every other video open waited too. FFmpeg needs no lock
/// (OpenCV registers it once, under its own) and reads every file GStreamer read here.
static bool openCapture(cv::VideoCapture &capture, const char *path) {
    quietVideoLogging();
    return capture.open(path, cv::CAP_FFMPEG, {cv::CAP_PROP_OPEN_TIMEOUT_MSEC, openDeadlineMilliseconds,
                                               cv::CAP_PROP_READ_TIMEOUT_MSEC, readDeadlineMilliseconds});
}

static void readProperties(cv::VideoCapture &capture, OCVVideoProperties *properties) {
    properties->width = static_cast<int32_t>(capture.get(cv::CAP_PROP_FRAME_WIDTH));
    properties->height = static_cast<int32_t>(capture.get(cv::CAP_PROP_FRAME_HEIGHT));
    properties->framesPerSecond = capture.get(cv::CAP_PROP_FPS);
    const double frameCount = capture.get(cv::CAP_PROP_FRAME_COUNT);
    // Cameras and streams report -1 or nonsense; only a count a file could hold is kept.
    properties->frameCount = (frameCount > 0 && frameCount < 1e12) ? static_cast<int64_t>(frameCount) : 0;
    const auto fourcc = static_cast<uint32_t>(capture.get(cv::CAP_PROP_FOURCC));
    for (int index = 0; index < 4; ++index) {
        const char character = static_cast<char>((fourcc >> (8 * index)) & 0xFF);
        properties->fourcc[index] = (character >= 32 && character < 127) ? character : '?';
    }
    std::snprintf(properties->backend, sizeof properties->backend, "%s", capture.getBackendName().c_str());
}

OCVStatus ocv_video_probe(const char *path, OCVVideoProperties *properties, OCVError *error) {
    std::memset(properties, 0, sizeof *properties);
    return fenced(error, [&] {
        cv::VideoCapture capture;
        if (!openCapture(capture, path)) {
            setMessage(error, "no video backend could open the file");
            return OCV_STATUS_OPEN_FAILED;
        }
        readProperties(capture, properties);
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_video_first_frame(const char *path, OCVMatrix **frame, OCVError *error) {
    *frame = nullptr;
    return fenced(error, [&] {
        cv::VideoCapture capture;
        if (!openCapture(capture, path)) {
            setMessage(error, "no video backend could open the file");
            return OCV_STATUS_OPEN_FAILED;
        }
        cv::Mat picture;
        if (!capture.read(picture) || picture.empty() || picture.type() != CV_8UC3) {
            setMessage(error, "the video has no frame that can be decoded");
            return OCV_STATUS_OPEN_FAILED;
        }
        *frame = new OCVMatrix{picture};
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_video_writer_open(const char *path, const char *fourcc, double framesPerSecond, int32_t width,
                                int32_t height, bool isColor, OCVVideoWriter **writer, OCVError *error) {
    *writer = nullptr;
    return fenced(error, [&] {
        if (std::strlen(fourcc) != 4) {
            setMessage(error, "a codec is named by four characters, not '%s'", fourcc);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        quietVideoLogging();
        std::string failure;
        if (isColor && std::strcmp(fourcc, "MJPG") == 0) {
            if (MotionJPEGFile *file = openMotionJPEG(path, framesPerSecond, width, height, motionJPEGQuality, failure)) {
                *writer = new OCVVideoWriter();
                (*writer)->motionJPEG = file;
                return OCV_STATUS_OK;
            }
        }
        auto opened = new OCVVideoWriter();
        const int code = cv::VideoWriter::fourcc(fourcc[0], fourcc[1], fourcc[2], fourcc[3]);
        bool isOpen = false;
        try {
            const std::lock_guard<std::mutex> guard(backendLock());
            const cv::Size size(width, height);
            isOpen = opened->writer.open(path, cv::CAP_FFMPEG, code, framesPerSecond, size, isColor) ||
                     opened->writer.open(path, cv::CAP_ANY, code, framesPerSecond, size, isColor);
        } catch (...) {
            delete opened;
            throw;
        }
        if (!isOpen) {
            delete opened;
            if (!failure.empty()) {
                setMessage(error, "%s", failure.c_str());
            } else {
                setMessage(error, "no video backend could write codec %s to this file", fourcc);
            }
            return OCV_STATUS_OPEN_FAILED;
        }
        *writer = opened;
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_video_writer_write(OCVVideoWriter *writer, const OCVImage *frame, OCVError *error) {
    return fenced(error, [&] {
        if (writer->motionJPEG) {
            std::string failure;
            if (!writeMotionJPEG(*writer->motionJPEG, *frame, failure)) {
                setMessage(error, "%s", failure.c_str());
                return OCV_STATUS_ENCODE_FAILED;
            }
            return OCV_STATUS_OK;
        }
        writer->writer.write(matrix(frame));
        return OCV_STATUS_OK;
    });
}

bool ocv_video_writer_release(OCVVideoWriter *writer) {
    if (!writer) return true;
    bool finished = true;
    try {
        finished = finishMotionJPEG(writer->motionJPEG);
        writer->writer.release();  // finishes cv::VideoWriter's file
    } catch (...) {
        finished = false;
    }
    delete writer;
    return finished;
}

// MARK: - Frame capture

struct OCVCapture {
    cv::VideoCapture capture;
    cv::Mat frame;  // reused: the decoder writes each frame into the same buffer
    cv::Mat luma;   // a raw YUYV camera's Y plane
    bool lumaOnly = false;
};

OCVStatus ocv_capture_open_file(const char *path, OCVCapture **capture, OCVVideoProperties *properties,
                                OCVError *error) {
    *capture = nullptr;
    std::memset(properties, 0, sizeof *properties);
    return fenced(error, [&] {
        auto opened = std::make_unique<OCVCapture>();
        if (!openCapture(opened->capture, path)) {
            setMessage(error, "no video backend could open the file");
            return OCV_STATUS_OPEN_FAILED;
        }
        readProperties(opened->capture, properties);
        *capture = opened.release();
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_capture_open_camera(int32_t index, bool lumaOnly, OCVCapture **capture, OCVVideoProperties *properties,
                                  OCVError *error) {
    *capture = nullptr;
    std::memset(properties, 0, sizeof *properties);
    return fenced(error, [&] {
        quietVideoLogging();
        auto opened = std::make_unique<OCVCapture>();
        bool isOpen;
        {
            const std::lock_guard<std::mutex> guard(backendLock());
            isOpen = opened->capture.open(index, cv::CAP_V4L2) || opened->capture.open(index, cv::CAP_ANY);
        }
        if (!isOpen) {
            setMessage(error, "no camera answers at index %d", index);
            return OCV_STATUS_OPEN_FAILED;
        }
        readProperties(opened->capture, properties);
        // Raw frames only from a YUYV camera: its Y plane is every other byte, with no conversion.
        const auto format = static_cast<int>(opened->capture.get(cv::CAP_PROP_FOURCC));
        if (lumaOnly && format == cv::VideoWriter::fourcc('Y', 'U', 'Y', 'V')) {
            opened->lumaOnly = opened->capture.set(cv::CAP_PROP_CONVERT_RGB, 0);
        }
        *capture = opened.release();
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_capture_read(OCVCapture *capture, OCVImage *frame, double *milliseconds, OCVError *error) {
    *frame = OCVImage{nullptr, 0, 0, 0, OCV_8UC3};
    *milliseconds = 0;
    return fenced(error, [&] {
        if (!capture->capture.read(capture->frame) || capture->frame.empty()) return OCV_STATUS_OK;
        cv::Mat &picture = capture->frame;
        if (picture.depth() != CV_8U) picture.convertTo(picture, CV_8U, picture.depth() == CV_16U ? 1.0 / 257 : 1.0);
        // V4L2 hands a raw frame as one row of bytes: YUYV is Y0 U Y1 V, two bytes per pixel.
        const auto width = static_cast<int64_t>(capture->capture.get(cv::CAP_PROP_FRAME_WIDTH));
        const auto height = static_cast<int64_t>(capture->capture.get(cv::CAP_PROP_FRAME_HEIGHT));
        if (capture->lumaOnly && picture.type() == CV_8UC1 && picture.rows == 1 && picture.isContinuous() && height > 0 &&
            static_cast<int64_t>(picture.total()) == width * height * 2) {
            picture = picture.reshape(2, static_cast<int>(height));
        }
        if (capture->lumaOnly && picture.channels() == 2) {
            cv::extractChannel(picture, capture->luma, 0);
            *milliseconds = capture->capture.get(cv::CAP_PROP_POS_MSEC);
            *frame = view(capture->luma);
            return OCV_STATUS_OK;
        }
        if (picture.channels() == 2) cv::cvtColor(picture, picture, cv::COLOR_YUV2BGR_YUYV);
        if (picture.channels() != 1 && picture.channels() != 3 && picture.channels() != 4) {
            setMessage(error, "the frame has %d channels", picture.channels());
            return OCV_STATUS_BAD_ARGUMENT;
        }
        *milliseconds = capture->capture.get(cv::CAP_PROP_POS_MSEC);
        *frame = view(picture);
        return OCV_STATUS_OK;
    });
}

void ocv_capture_release(OCVCapture *capture) {
    if (!capture) return;
    try {
        capture->capture.release();
    } catch (...) {
    }
    delete capture;
}
