// Motion-JPEG AVI files: each frame compressed by libjpeg-turbo straight from BGR (JPEG.cpp), the
// compressed frames put in the AVI container by FFmpeg's libavformat.
//
// Why: cv::VideoWriter writes MJPG through FFmpeg too, but converts every BGR frame to YUVJ420P in
// swscale (40 % of its time) and compresses it with FFmpeg's encoder on one thread: 1.7 ms a 480×360
// frame on this machine against 0.7 here. That writing thread was what limited `ocular process`,
// whose decoding and processing ran on another thread idle two thirds of the time.
// Where libavformat or libjpeg-turbo's BGR input is missing (Package.swift links them on Linux),
// ocv_video_writer_open keeps cv::VideoWriter.
#include "Codecs.hpp"

#if defined(__linux__) && __has_include(<libavformat/avformat.h>)
#define OCULAR_MOTION_JPEG 1
extern "C" {
#include <libavformat/avformat.h>
#include <libavutil/error.h>
#include <libavutil/rational.h>
}
#endif

#include <memory>
#include <string>
#include <vector>

namespace ocular_bridge {

#ifdef OCULAR_MOTION_JPEG

namespace {

std::string describe(int code) {
    char text[AV_ERROR_MAX_STRING_SIZE] = {};
    av_strerror(code, text, sizeof text);
    return text;
}

}  // namespace

struct MotionJPEGFile {
    AVFormatContext *format = nullptr;
    AVStream *stream = nullptr;
    AVRational frameDuration{1, 1};  // one frame, in seconds
    int64_t frames = 0;
    int quality = 0;
    std::vector<uint8_t> encoded;  // reused: every frame is about the same size
    bool headerWritten = false;

    ~MotionJPEGFile() {
        if (format) {
            if (format->pb) avio_closep(&format->pb);
            avformat_free_context(format);
        }
    }
};

MotionJPEGFile *openMotionJPEG(const char *path, double framesPerSecond, int width, int height, int quality, std::string &failure) {
    // A frame that libjpeg-turbo cannot take from BGR (another build of it) is found out here, once.
    const std::vector<uint8_t> pixel(3 * 16 * 16, 0);
    std::vector<uint8_t> probe;
    if (!encodeJPEGFromBGR(OCVImage{const_cast<uint8_t *>(pixel.data()), 16, 16, 48, OCV_8UC3}, quality, probe)) return nullptr;

    auto file = std::make_unique<MotionJPEGFile>();
    file->quality = quality;
    int status = avformat_alloc_output_context2(&file->format, nullptr, "avi", path);
    if (status < 0 || !file->format) {
        failure = "the AVI muxer is missing: " + describe(status);
        return nullptr;
    }
    file->stream = avformat_new_stream(file->format, nullptr);
    if (!file->stream) {
        failure = "no memory for the video stream";
        return nullptr;
    }
    AVCodecParameters *parameters = file->stream->codecpar;
    parameters->codec_type = AVMEDIA_TYPE_VIDEO;
    parameters->codec_id = AV_CODEC_ID_MJPEG;
    parameters->codec_tag = MKTAG('M', 'J', 'P', 'G');
    parameters->width = width;
    parameters->height = height;
    parameters->format = AV_PIX_FMT_YUVJ420P;  // libjpeg's default sampling for colour
    parameters->color_range = AVCOL_RANGE_JPEG;
    const AVRational rate = av_d2q(framesPerSecond, 1001000);
    file->frameDuration = av_inv_q(rate);
    file->stream->time_base = file->frameDuration;
    file->stream->avg_frame_rate = rate;
    file->stream->r_frame_rate = rate;
    status = avio_open(&file->format->pb, path, AVIO_FLAG_WRITE);
    if (status < 0) {
        failure = "cannot create the file: " + describe(status);
        return nullptr;
    }
    status = avformat_write_header(file->format, nullptr);
    if (status < 0) {
        failure = "cannot write the AVI header: " + describe(status);
        return nullptr;
    }
    file->headerWritten = true;
    return file.release();
}

bool writeMotionJPEG(MotionJPEGFile &file, const OCVImage &frame, std::string &failure) {
    if (frame.columns != file.stream->codecpar->width || frame.rows != file.stream->codecpar->height) {
        failure = "a " + std::to_string(frame.columns) + "×" + std::to_string(frame.rows) + " frame does not fit a " +
                  std::to_string(file.stream->codecpar->width) + "×" + std::to_string(file.stream->codecpar->height) + " video";
        return false;
    }
    if (!encodeJPEGFromBGR(frame, file.quality, file.encoded)) {
        failure = "libjpeg could not compress the frame";
        return false;
    }
    if (file.encoded.size() > static_cast<size_t>(INT32_MAX)) {
        failure = "a compressed frame over 2 GiB";
        return false;
    }
    AVPacket *packet = av_packet_alloc();
    if (!packet) {
        failure = "no memory for a packet";
        return false;
    }
    // Not reference-counted: av_write_frame only reads it, before it returns.
    packet->data = file.encoded.data();
    packet->size = static_cast<int>(file.encoded.size());
    packet->stream_index = file.stream->index;
    packet->flags |= AV_PKT_FLAG_KEY;
    packet->pts = packet->dts = av_rescale_q(file.frames, file.frameDuration, file.stream->time_base);
    packet->duration = av_rescale_q(1, file.frameDuration, file.stream->time_base);
    const int status = av_write_frame(file.format, packet);
    av_packet_free(&packet);
    if (status < 0) {
        failure = "cannot write a frame: " + describe(status);
        return false;
    }
    file.frames += 1;
    return true;
}

bool finishMotionJPEG(MotionJPEGFile *file) {
    if (!file) return true;
    bool finished = file->headerWritten && av_write_trailer(file->format) >= 0;  // the index: the file is whole
    if (file->format->pb) finished = avio_closep(&file->format->pb) >= 0 && finished;
    delete file;
    return finished;
}

#else

struct MotionJPEGFile {};

MotionJPEGFile *openMotionJPEG(const char *, double, int, int, int, std::string &) { return nullptr; }
bool writeMotionJPEG(MotionJPEGFile &, const OCVImage &, std::string &failure) {
    failure = "Motion-JPEG without libavformat";
    return false;
}
bool finishMotionJPEG(MotionJPEGFile *file) {
    delete file;
    return true;
}

#endif

}  // namespace ocular_bridge
