// Colour conversion, per-channel arithmetic and white balance.
#include "Bridging.hpp"

#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/core/version.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/xphoto/white_balance.hpp>

#include <algorithm>
#include <cmath>
#include <vector>
#include <mutex>

using namespace ocular_bridge;

OCULAR_SAME_VALUE(OCV_8UC1, CV_8UC1);
OCULAR_SAME_VALUE(OCV_8UC2, CV_8UC2);
OCULAR_SAME_VALUE(OCV_8UC3, CV_8UC3);
OCULAR_SAME_VALUE(OCV_8UC4, CV_8UC4);
OCULAR_SAME_VALUE(OCV_COLOR_BGR2BGRA, cv::COLOR_BGR2BGRA);
OCULAR_SAME_VALUE(OCV_COLOR_BGRA2BGR, cv::COLOR_BGRA2BGR);
OCULAR_SAME_VALUE(OCV_COLOR_BGR2RGBA, cv::COLOR_BGR2RGBA);
OCULAR_SAME_VALUE(OCV_COLOR_RGBA2BGR, cv::COLOR_RGBA2BGR);
OCULAR_SAME_VALUE(OCV_COLOR_BGR2RGB, cv::COLOR_BGR2RGB);
OCULAR_SAME_VALUE(OCV_COLOR_BGRA2RGBA, cv::COLOR_BGRA2RGBA);
OCULAR_SAME_VALUE(OCV_COLOR_BGR2GRAY, cv::COLOR_BGR2GRAY);
OCULAR_SAME_VALUE(OCV_COLOR_RGB2GRAY, cv::COLOR_RGB2GRAY);
OCULAR_SAME_VALUE(OCV_COLOR_GRAY2BGR, cv::COLOR_GRAY2BGR);
OCULAR_SAME_VALUE(OCV_COLOR_GRAY2BGRA, cv::COLOR_GRAY2BGRA);
OCULAR_SAME_VALUE(OCV_COLOR_BGRA2GRAY, cv::COLOR_BGRA2GRAY);
OCULAR_SAME_VALUE(OCV_COLOR_RGBA2GRAY, cv::COLOR_RGBA2GRAY);
OCULAR_SAME_VALUE(OCV_COLOR_YUV2RGB_NV12, cv::COLOR_YUV2RGB_NV12);
OCULAR_SAME_VALUE(OCV_COLOR_YUV2BGR_NV12, cv::COLOR_YUV2BGR_NV12);
OCULAR_SAME_VALUE(OCV_COLOR_YUV2RGBA_NV12, cv::COLOR_YUV2RGBA_NV12);
OCULAR_SAME_VALUE(OCV_COLOR_YUV2BGRA_NV12, cv::COLOR_YUV2BGRA_NV12);
OCULAR_SAME_VALUE(OCV_COLOR_YUV2RGB_I420, cv::COLOR_YUV2RGB_I420);
OCULAR_SAME_VALUE(OCV_COLOR_YUV2BGR_I420, cv::COLOR_YUV2BGR_I420);
OCULAR_SAME_VALUE(OCV_COLOR_YUV2RGBA_I420, cv::COLOR_YUV2RGBA_I420);
OCULAR_SAME_VALUE(OCV_COLOR_YUV2BGRA_I420, cv::COLOR_YUV2BGRA_I420);
OCULAR_SAME_VALUE(OCV_COLOR_YUV2GRAY_420, cv::COLOR_YUV2GRAY_420);
OCULAR_SAME_VALUE(OCV_COLOR_YUV2RGB_YUYV, cv::COLOR_YUV2RGB_YUYV);
OCULAR_SAME_VALUE(OCV_COLOR_YUV2BGR_YUYV, cv::COLOR_YUV2BGR_YUYV);
OCULAR_SAME_VALUE(OCV_COLOR_YUV2RGBA_YUYV, cv::COLOR_YUV2RGBA_YUYV);
OCULAR_SAME_VALUE(OCV_COLOR_YUV2BGRA_YUYV, cv::COLOR_YUV2BGRA_YUYV);
OCULAR_SAME_VALUE(OCV_COLOR_YUV2GRAY_YUYV, cv::COLOR_YUV2GRAY_YUYV);
OCULAR_SAME_VALUE(OCV_COLOR_RGB2YUV_I420, cv::COLOR_RGB2YUV_I420);
OCULAR_SAME_VALUE(OCV_COLOR_BGR2YUV_I420, cv::COLOR_BGR2YUV_I420);
OCULAR_SAME_VALUE(OCV_COLOR_RGBA2YUV_I420, cv::COLOR_RGBA2YUV_I420);
OCULAR_SAME_VALUE(OCV_COLOR_BGRA2YUV_I420, cv::COLOR_BGRA2YUV_I420);

const char *ocv_version(void) { return CV_VERSION; }

void ocv_set_thread_count(int32_t count) { cv::setNumThreads(count); }

int32_t ocv_thread_count(void) { return cv::getNumThreads(); }

OCVStatus ocv_convert_color(const OCVImage *source, const OCVImage *destination, OCVColorConversion code,
                            OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        cv::cvtColor(matrix(source), output, static_cast<int>(code));
        return checkWrittenInPlace(output, destination, error);
    });
}

namespace {

/// Looks each byte up in its channel's table (`tables`: 256 entries per channel, channel after
/// channel) from `input` into `output` of the same size and type, which may be the same storage.
/// Why not cv::LUT with an interleaved table: OpenCV 4.6 indexes it with a multiply per byte (1.8 ms
/// for a 1280×720 BGR frame against 1.0 here, one table load per byte).
template <int Channels>
void lookUpPerChannel(const cv::Mat &input, cv::Mat &output, const uint8_t *tables) {
    cv::parallel_for_(cv::Range(0, input.rows), [&](const cv::Range &rows) {
        // Copied into locals: a byte stored through `to` may alias anything reached through the
        // closure, and the compiler would reload the table's address after every store (1.6 ms, not 1.0).
        const uint8_t *const lookup = tables;
        const int columns = input.cols;
        for (int y = rows.start; y < rows.end; ++y) {
            const uint8_t *from = input.ptr<uint8_t>(y);
            uint8_t *to = output.ptr<uint8_t>(y);
            for (int x = 0; x < columns; ++x, from += Channels, to += Channels) {
                for (int channel = 0; channel < Channels; ++channel) to[channel] = lookup[channel * 256 + from[channel]];
            }
        }
    }, cv::getNumThreads());
}

/// Multiplies every byte by its channel's factor in single-precision floats, 16 bytes a step, into
/// `output` (same size and type; may be the same storage). It gives the bytes of the table lookup (the
/// double products, rounded half to even and saturated) only where the float products round the same
/// way for all 256 values of every channel, so that is checked first: false, nothing written, when not.
/// Why: 0.37 ms for a 1280×720 BGR frame against the table's 0.79; every gain tried on the batch bench's
/// pictures passed the check.
template <int Channels>
bool multipliedInFloats(const cv::Mat &input, cv::Mat &output, const double *factors, const uint8_t *tables) {
#if CV_SIMD128
    float gains[Channels];
    for (int channel = 0; channel < Channels; ++channel) {
        gains[channel] = static_cast<float>(factors[channel]);
        for (int value = 0; value < 256; ++value) {
            // As the vector code computes it: a float product, converted to the nearest integer (ties to even).
            const float product = static_cast<float>(value) * gains[channel];
            if (cv::saturate_cast<uint8_t>(static_cast<int>(std::nearbyint(product))) != tables[channel * 256 + value]) return false;
        }
    }
    // A step is 16 whole pixels: `Channels` registers of 16 bytes, each register's four quarters with
    // their own pattern of gains (byte i of a step belongs to channel i mod Channels).
    cv::v_float32x4 pattern[Channels][4];
    for (int part = 0; part < Channels; ++part) {
        for (int quarter = 0; quarter < 4; ++quarter) {
            float lanes[4];
            for (int lane = 0; lane < 4; ++lane) lanes[lane] = gains[(16 * part + 4 * quarter + lane) % Channels];
            pattern[part][quarter] = cv::v_load(lanes);
        }
    }
    cv::parallel_for_(cv::Range(0, input.rows), [&](const cv::Range &rows) {
        const int rowBytes = input.cols * Channels;
        for (int y = rows.start; y < rows.end; ++y) {
            const uint8_t *from = input.ptr<uint8_t>(y);
            uint8_t *to = output.ptr<uint8_t>(y);
            int x = 0;
            for (; x + 16 * Channels <= rowBytes; x += 16 * Channels) {
                for (int part = 0; part < Channels; ++part) {
                    cv::v_uint16x8 halves[2];
                    cv::v_expand(cv::v_load(from + x + 16 * part), halves[0], halves[1]);
                    cv::v_int32x4 products[4];
                    for (int half = 0; half < 2; ++half) {
                        cv::v_uint32x4 quarters[2];
                        cv::v_expand(halves[half], quarters[0], quarters[1]);
                        for (int index = 0; index < 2; ++index) {
                            const cv::v_float32x4 values = cv::v_cvt_f32(cv::v_reinterpret_as_s32(quarters[index]));
                            products[2 * half + index] = cv::v_round(values * pattern[part][2 * half + index]);
                        }
                    }
                    // Saturating packs: 32 → 16 bits signed, then 16 → 8 bits unsigned (0 … 255).
                    cv::v_store(to + x + 16 * part,
                                cv::v_pack_u(cv::v_pack(products[0], products[1]), cv::v_pack(products[2], products[3])));
                }
            }
            for (; x < rowBytes; ++x) to[x] = tables[(x % Channels) * 256 + from[x]];
        }
    }, cv::getNumThreads());
    return true;
#else
    (void)input;
    (void)output;
    (void)factors;
    (void)tables;
    return false;
#endif
}

/// `lookUpPerChannel` for 3 or 4 channels into an output of the input's size and type; false for
/// anything else, which the caller leaves to cv::LUT.
bool lookedUpPerChannel(const cv::Mat &input, cv::Mat &output, const uint8_t *tables) {
    if (input.depth() != CV_8U || output.type() != input.type() || output.size() != input.size()) return false;
    switch (input.channels()) {
        case 3: lookUpPerChannel<3>(input, output, tables); return true;
        case 4: lookUpPerChannel<4>(input, output, tables); return true;
        default: return false;
    }
}

}  // namespace

OCVStatus ocv_multiply_channels(const OCVImage *source, const OCVImage *destination, const double *factors,
                                OCVError *error) {
    return fenced(error, [&] {
        cv::Mat input = matrix(source);
        cv::Scalar scale;
        for (int channel = 0; channel < input.channels() && channel < 4; ++channel) scale[channel] = factors[channel];
        cv::Mat output = matrix(destination);
        if (input.depth() == CV_8U && input.channels() <= 4) {
            // cv::multiply by a Scalar works in doubles per pixel (hal::mul64f, ~5 ms at 720p); a table of
            // the same products, rounded and saturated the same way, gives the same bytes for 256 of them.
            const int channels = input.channels();
            std::vector<uint8_t> tables(256 * channels);
            for (int channel = 0; channel < channels; ++channel) {
                for (int value = 0; value < 256; ++value) tables[channel * 256 + value] = cv::saturate_cast<uint8_t>(value * scale[channel]);
            }
            const bool sameShape = output.type() == input.type() && output.size() == input.size();
            if (sameShape && ((channels == 3 && multipliedInFloats<3>(input, output, factors, tables.data())) ||
                              (channels == 4 && multipliedInFloats<4>(input, output, factors, tables.data())))) {
                return checkWrittenInPlace(output, destination, error);
            }
            if (lookedUpPerChannel(input, output, tables.data())) return checkWrittenInPlace(output, destination, error);
            cv::Mat table(1, 256, CV_8UC(channels));
            for (int value = 0; value < 256; ++value)
                for (int channel = 0; channel < channels; ++channel) table.ptr<uint8_t>()[value * channels + channel] = tables[channel * 256 + value];
            cv::LUT(input, table, output);
        } else {
            cv::multiply(input, scale, output);
        }
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_multiply_by_gain_map(const OCVImage *image, const float *gains, int32_t gainColumns, int32_t gainRows,
                                   const double *factors, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat target = matrix(image);
        if (gainColumns < 1 || gainRows < 1 || target.depth() != CV_8U || target.channels() > 4) {
            setMessage(error, "a gain map needs at least 1×1 gains and an 8-bit image of 1 to 4 channels");
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const cv::Mat grid(gainRows, gainColumns, CV_32F, const_cast<float *>(gains));
        cv::Mat field;
        cv::resize(grid, field, target.size(), 0, 0, cv::INTER_LINEAR);
        std::vector<cv::Mat> planes;
        cv::split(target, planes);
        for (size_t channel = 0; channel < planes.size(); ++channel)
            cv::multiply(planes[channel], field, planes[channel], factors[channel], CV_8U);
        cv::merge(planes, target);
        return checkWrittenInPlace(target, image, error);
    });
}

OCVStatus ocv_add_gaussian_noise(const OCVImage *image, double sigma, uint64_t seed, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat target = matrix(image);
        if (target.depth() != CV_8U) {
            setMessage(error, "noise is added to 8-bit images only");
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cv::Mat noise(target.size(), CV_MAKETYPE(CV_16S, target.channels()));
        cv::RNG random(seed);
        random.fill(noise, cv::RNG::NORMAL, cv::Scalar::all(0), cv::Scalar::all(sigma));
        cv::Mat sum;
        cv::add(target, noise, sum, cv::noArray(), CV_16S);
        sum.convertTo(target, target.type());
        return checkWrittenInPlace(target, image, error);
    });
}

OCVStatus ocv_mask_outline(const OCVImage *mask, double tolerance, double *points, int32_t capacity, int32_t *count,
                           OCVError *error) {
    *count = 0;
    return fenced(error, [&] {
        const cv::Mat region = matrix(mask);
        if (region.type() != CV_8UC1) {
            setMessage(error, "an outline is traced on an 8-bit gray mask, got type %d", region.type());
            return OCV_STATUS_BAD_ARGUMENT;
        }
        std::vector<std::vector<cv::Point>> contours;
        cv::findContours(region, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
        if (contours.empty()) return OCV_STATUS_OK;
        const auto largest = std::max_element(contours.begin(), contours.end(), [](const auto &a, const auto &b) {
            return cv::contourArea(a) < cv::contourArea(b);
        });
        std::vector<cv::Point> simplified;
        cv::approxPolyDP(*largest, simplified, tolerance, true);
        *count = static_cast<int32_t>(simplified.size());
        for (size_t index = 0; index < simplified.size() && index < static_cast<size_t>(std::max(capacity, 0)); ++index) {
            points[2 * index] = simplified[index].x;
            points[2 * index + 1] = simplified[index].y;
        }
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_lookup_channels(const OCVImage *source, const OCVImage *destination, const uint8_t *tables, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat input = matrix(source);
        const int channels = input.channels();
        cv::Mat output = matrix(destination);
        // One table for every channel: cv::LUT's single-table path is about twice as fast.
        if (std::equal(tables, tables + 256 * (channels - 1), tables + 256)) {
            cv::LUT(input, cv::Mat(1, 256, CV_8UC1, const_cast<uint8_t *>(tables)), output);
            return checkWrittenInPlace(output, destination, error);
        }
        if (lookedUpPerChannel(input, output, tables)) return checkWrittenInPlace(output, destination, error);
        // cv::LUT wants the tables interleaved: entry i of every channel side by side.
        cv::Mat table(1, 256, CV_8UC(channels));
        for (int entry = 0; entry < 256; ++entry)
            for (int channel = 0; channel < channels; ++channel) table.ptr<uint8_t>(0)[entry * channels + channel] = tables[channel * 256 + entry];
        cv::LUT(input, table, output);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_gray_world_white_balance(const OCVImage *source, const OCVImage *destination, float saturationThreshold,
                                       OCVError *error) {
    return fenced(error, [&] {
        // The balancer holds no state between calls worth sharing across threads: one per thread.
        thread_local cv::Ptr<cv::xphoto::GrayworldWB> balancer = cv::xphoto::createGrayworldWB();
        balancer->setSaturationThreshold(saturationThreshold);
        cv::Mat input = matrix(source);
        cv::Mat output = matrix(destination);
        if (input.channels() == 3) {
            balancer->balanceWhite(input, output);
            return checkWrittenInPlace(output, destination, error);
        }
        if (input.channels() != 4 || output.channels() != 4) {
            setMessage(error, "gray-world white balance needs 3 or 4 channels, got %d", input.channels());
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cv::Mat colour, balanced;
        cv::cvtColor(input, colour, cv::COLOR_BGRA2BGR);
        balancer->balanceWhite(colour, balanced);
        // Balanced colour into channels 0-2, the source's alpha into channel 3.
        const cv::Mat inputs[] = {balanced, input};
        const int fromTo[] = {0, 0, 1, 1, 2, 2, 6, 3};
        cv::mixChannels(inputs, 2, &output, 1, fromTo, 4);
        return checkWrittenInPlace(output, destination, error);
    });
}

namespace {

/// Channel sums over one row of 3- or 4-channel pixels: `counted` over the pixels xphoto's GrayworldWB
/// counts ((max − min) · 255 ≤ threshold255 · max), `all` over every pixel.
/// Why universal intrinsics: the stride of 3 keeps the compiler from vectorising the plain loop (1.45 ms
/// for a 1280×720 frame, and cv::mean's pass 0.44 more, against 0.75 for both here with SSE2).
template <int Channels>
void addGrayWorldRowSums(const uint8_t *row, int columns, unsigned threshold255, uint64_t counted[3], uint64_t all[3]) {
    int x = 0;
#if CV_SIMD128
    // 16 pixels a step. In 16 bits neither (max − min) · 255 nor threshold255 · max overflows (≤ 255²);
    // the pixels that count keep their bytes under a mask. A lane of the 32-bit sums adds at most
    // 4 · 255 a step, so one row (at most 2^22 steps before overflow) cannot overflow it.
    const cv::v_uint8x16 ones = cv::v_setall_u8(1);
    const cv::v_uint16x8 scale = cv::v_setall_u16(255), limit = cv::v_setall_u16(static_cast<uint16_t>(threshold255));
    cv::v_uint32x4 countedSums[3] = {cv::v_setzero_u32(), cv::v_setzero_u32(), cv::v_setzero_u32()};
    cv::v_uint32x4 allSums[3] = {cv::v_setzero_u32(), cv::v_setzero_u32(), cv::v_setzero_u32()};
    for (; x + 16 <= columns; x += 16) {
        cv::v_uint8x16 channel[3];
        if (Channels == 4) {
            cv::v_uint8x16 alpha;
            cv::v_load_deinterleave(row + x * 4, channel[0], channel[1], channel[2], alpha);
        } else {
            cv::v_load_deinterleave(row + x * 3, channel[0], channel[1], channel[2]);
        }
        const cv::v_uint8x16 low = cv::v_min(channel[0], cv::v_min(channel[1], channel[2]));
        const cv::v_uint8x16 high = cv::v_max(channel[0], cv::v_max(channel[1], channel[2]));
        cv::v_uint16x8 lowHalves[2], highHalves[2];
        cv::v_expand(low, lowHalves[0], lowHalves[1]);
        cv::v_expand(high, highHalves[0], highHalves[1]);
        cv::v_uint16x8 countsHalves[2];
        for (int half = 0; half < 2; ++half) {
            countsHalves[half] = cv::v_mul_wrap(highHalves[half] - lowHalves[half], scale) <= cv::v_mul_wrap(highHalves[half], limit);
        }
        const cv::v_uint8x16 counts = cv::v_pack(countsHalves[0], countsHalves[1]);  // 0xFFFF → 0xFF
        for (int index = 0; index < 3; ++index) {
            countedSums[index] = cv::v_dotprod_expand(channel[index] & counts, ones, countedSums[index]);
            allSums[index] = cv::v_dotprod_expand(channel[index], ones, allSums[index]);
        }
    }
    for (int index = 0; index < 3; ++index) {
        counted[index] += cv::v_reduce_sum(countedSums[index]);
        all[index] += cv::v_reduce_sum(allSums[index]);
    }
#endif
    for (const uint8_t *pixel = row + x * Channels; x < columns; ++x, pixel += Channels) {
        const unsigned a = pixel[0], b = pixel[1], c = pixel[2];
        const unsigned low = std::min(a, std::min(b, c)), high = std::max(a, std::max(b, c));
        const bool counts = (high - low) * 255 <= threshold255 * high;
        counted[0] += counts ? a : 0;
        counted[1] += counts ? b : 0;
        counted[2] += counts ? c : 0;
        all[0] += a;
        all[1] += b;
        all[2] += c;
    }
}

/// The sums of `addGrayWorldRowSums` over the image, in one stripe of rows per thread (a few large
/// tasks time steadily; many small ones wait on the scheduler).
template <int Channels>
void grayWorldSums(const cv::Mat &input, unsigned threshold255, uint64_t counted[3], uint64_t all[3]) {
    std::mutex lock;
    cv::parallel_for_(cv::Range(0, input.rows), [&](const cv::Range &rows) {
        uint64_t stripeCounted[3] = {0, 0, 0}, stripeAll[3] = {0, 0, 0};
        for (int y = rows.start; y < rows.end; ++y) {
            addGrayWorldRowSums<Channels>(input.ptr<uint8_t>(y), input.cols, threshold255, stripeCounted, stripeAll);
        }
        std::lock_guard<std::mutex> guard(lock);
        for (int channel = 0; channel < 3; ++channel) {
            counted[channel] += stripeCounted[channel];
            all[channel] += stripeAll[channel];
        }
    }, cv::getNumThreads());
}

}  // namespace

OCVStatus ocv_gray_world_statistics(const OCVImage *source, float saturationThreshold, double *unsaturatedSums,
                                    double *means, OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(source);
        const int channels = input.channels();
        if (input.depth() != CV_8U || (channels != 3 && channels != 4)) {
            setMessage(error, "gray-world statistics need 8-bit images of 3 or 4 channels, got %d channels", channels);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        // xphoto's GrayworldWB rule, in integers so that the same pixels count.
        const unsigned threshold255 = static_cast<unsigned>(cvRound(saturationThreshold * 255));
        uint64_t counted[3] = {0, 0, 0}, all[3] = {0, 0, 0};
        if (channels == 4) {
            grayWorldSums<4>(input, threshold255, counted, all);
        } else {
            grayWorldSums<3>(input, threshold255, counted, all);
        }
        // As cv::mean divides: by multiplying with the reciprocal, so the means are its to the last bit.
        const double reciprocal = input.total() > 0 ? 1.0 / static_cast<double>(input.total()) : 0;
        for (int channel = 0; channel < 3; ++channel) {
            unsaturatedSums[channel] = static_cast<double>(counted[channel]);
            means[channel] = static_cast<double>(all[channel]) * reciprocal;
        }
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_resize_area(const OCVImage *source, const OCVImage *destination, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        cv::resize(matrix(source), output, output.size(), 0, 0, cv::INTER_AREA);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_rotate_quarter_turns(const OCVImage *source, const OCVImage *destination, int32_t quarterTurns,
                                   OCVError *error) {
    return fenced(error, [&] {
        int code;
        switch (quarterTurns) {
        case 1: code = cv::ROTATE_90_CLOCKWISE; break;
        case 2: code = cv::ROTATE_180; break;
        case 3: code = cv::ROTATE_90_COUNTERCLOCKWISE; break;
        default:
            setMessage(error, "a rotation is 1, 2 or 3 quarter turns, not %d", quarterTurns);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cv::Mat output = matrix(destination);
        cv::rotate(matrix(source), output, code);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_mirror(const OCVImage *source, const OCVImage *destination, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        cv::flip(matrix(source), output, 1);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_resize_linear(const OCVImage *source, const OCVImage *destination, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        cv::resize(matrix(source), output, output.size(), 0, 0, cv::INTER_LINEAR);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_affine_from_triangles(const double *from, const double *to, double *coefficients, OCVError *error) {
    return fenced(error, [&] {
        const cv::Point2f source[3] = {{float(from[0]), float(from[1])}, {float(from[2]), float(from[3])},
                                       {float(from[4]), float(from[5])}};
        const cv::Point2f target[3] = {{float(to[0]), float(to[1])}, {float(to[2]), float(to[3])},
                                       {float(to[4]), float(to[5])}};
        // Three points on one line leave the map undetermined; OpenCV would answer a matrix of zeros.
        const double area = (source[1].x - source[0].x) * (source[2].y - source[0].y) -
                            (source[2].x - source[0].x) * (source[1].y - source[0].y);
        if (!(std::abs(area) > 1e-6)) {
            setMessage(error, "the points (%g, %g), (%g, %g), (%g, %g) lie on one line", from[0], from[1], from[2],
                       from[3], from[4], from[5]);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const cv::Mat map = cv::getAffineTransform(source, target);
        for (int index = 0; index < 6; ++index) coefficients[index] = map.at<double>(index / 3, index % 3);
        return OCV_STATUS_OK;
    });
}

static_assert(OCV_INTER_NEAREST == cv::INTER_NEAREST && OCV_INTER_LINEAR == cv::INTER_LINEAR &&
              OCV_INTER_CUBIC == cv::INTER_CUBIC && OCV_INTER_AREA == cv::INTER_AREA &&
              OCV_INTER_LANCZOS4 == cv::INTER_LANCZOS4, "OCVInterpolation must match cv::InterpolationFlags");

OCVStatus ocv_warp_affine(const OCVImage *source, const OCVImage *destination, const double *coefficients,
                          OCVInterpolation interpolation, bool replicateBorder, OCVError *error) {
    return fenced(error, [&] {
        if (interpolation < OCV_INTER_NEAREST || interpolation > OCV_INTER_LANCZOS4) {
            setMessage(error, "unknown interpolation %d", int(interpolation));
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cv::Mat output = matrix(destination);
        const cv::Mat map(2, 3, CV_64F, const_cast<double *>(coefficients));
        cv::warpAffine(matrix(source), output, map, output.size(), int(interpolation),
                       replicateBorder ? cv::BORDER_REPLICATE : cv::BORDER_CONSTANT, cv::Scalar::all(0));
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_warp_perspective(const OCVImage *source, const OCVImage *destination, const double *coefficients,
                               OCVInterpolation interpolation, OCVError *error) {
    return fenced(error, [&] {
        if (interpolation < OCV_INTER_NEAREST || interpolation > OCV_INTER_LANCZOS4) {
            setMessage(error, "unknown interpolation %d", int(interpolation));
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cv::Mat output = matrix(destination);
        const cv::Mat map(3, 3, CV_64F, const_cast<double *>(coefficients));
        cv::warpPerspective(matrix(source), output, map, output.size(), int(interpolation), cv::BORDER_REPLICATE);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_perspective_transform(const double *from, const double *to, double *coefficients, OCVError *error) {
    return fenced(error, [&] {
        cv::Point2f source[4], target[4];
        for (int i = 0; i < 4; ++i) {
            source[i] = cv::Point2f(static_cast<float>(from[2 * i]), static_cast<float>(from[2 * i + 1]));
            target[i] = cv::Point2f(static_cast<float>(to[2 * i]), static_cast<float>(to[2 * i + 1]));
        }
        const cv::Mat map = cv::getPerspectiveTransform(source, target);
        for (int i = 0; i < 9; ++i) coefficients[i] = map.at<double>(i / 3, i % 3);
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_gaussian_blur(const OCVImage *source, const OCVImage *destination, double sigma, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        cv::GaussianBlur(matrix(source), output, cv::Size(), sigma, sigma, cv::BORDER_REPLICATE);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_warp_affine_over(const OCVImage *source, const OCVImage *destination, const double *coefficients,
                               OCVError *error) {
    return fenced(error, [&] {
        if (source->type != destination->type) {
            setMessage(error, "warping over an image needs the same pixel type, got %d onto %d", static_cast<int>(source->type),
                       static_cast<int>(destination->type));
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cv::Mat output = matrix(destination);
        const cv::Mat map(2, 3, CV_64F, const_cast<double *>(coefficients));
        cv::warpAffine(matrix(source), output, map, output.size(), cv::INTER_LINEAR, cv::BORDER_TRANSPARENT);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_equalize_histogram(const OCVImage *source, const OCVImage *destination, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        cv::equalizeHist(matrix(source), output);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_equalize_clahe(const OCVImage *source, const OCVImage *destination, double clipLimit, int32_t tiles,
                             OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        // Creating the CLAHE object is cheap next to applying it; one per call keeps the bridge stateless.
        cv::createCLAHE(clipLimit, cv::Size(tiles, tiles))->apply(matrix(source), output);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_pad_constant(const OCVImage *source, const OCVImage *destination, int32_t left, int32_t top,
                           uint8_t value, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        const cv::Mat input = matrix(source);
        const int right = output.cols - input.cols - left, bottom = output.rows - input.rows - top;
        if (left < 0 || top < 0 || right < 0 || bottom < 0) {
            setMessage(error, "a %dx%d image does not fit %dx%d at (%d, %d)", input.cols, input.rows, output.cols,
                       output.rows, left, top);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cv::copyMakeBorder(input, output, top, bottom, left, right, cv::BORDER_CONSTANT, cv::Scalar::all(value));
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_draw_rectangle(const OCVImage *image, int32_t x, int32_t y, int32_t width, int32_t height,
                             const double *colour, int32_t thickness, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat canvas = matrix(image);
        cv::rectangle(canvas, cv::Rect(x, y, width, height), cv::Scalar(colour[0], colour[1], colour[2], colour[3]),
                      thickness, cv::LINE_8);
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_draw_circle(const OCVImage *image, double x, double y, int32_t radius, const double *colour,
                          int32_t thickness, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat canvas = matrix(image);
        // Sub-pixel centres: 2 fractional bits (quarter pixels).
        const int shift = 2;
        cv::circle(canvas, cv::Point(cvRound(x * (1 << shift)), cvRound(y * (1 << shift))), radius << shift,
                   cv::Scalar(colour[0], colour[1], colour[2], colour[3]), thickness, cv::LINE_8, shift);
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_draw_polyline(const OCVImage *image, const double *points, int32_t count, const double *colour,
                            int32_t thickness, OCVError *error) {
    return fenced(error, [&] {
        if (count < 2 || thickness < 1 || thickness > 64) {
            setMessage(error, "a line needs 2 or more points (got %d) and a thickness of 1 to 64 (got %d)", int(count), int(thickness));
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cv::Mat canvas = matrix(image);
        // Sub-pixel vertices: 4 fractional bits; anti-aliased, as a chart's slanted lines should be.
        const int shift = 4;
        std::vector<cv::Point> vertices;
        vertices.reserve(size_t(count));
        for (int32_t i = 0; i < count; ++i) {
            vertices.emplace_back(cvRound(points[2 * i] * (1 << shift)), cvRound(points[2 * i + 1] * (1 << shift)));
        }
        cv::polylines(canvas, vertices, false, cv::Scalar(colour[0], colour[1], colour[2], colour[3]), thickness,
                      cv::LINE_AA, shift);
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_draw_text(const OCVImage *image, const char *text, double x, double y, double height, int32_t anchor,
                        const double *colour, OCVError *error) {
    return fenced(error, [&] {
        if (!(height >= 4 && height <= 400) || anchor < 0 || anchor > 2) {
            setMessage(error, "text needs a height of 4 to 400 pixels (got %g) and an anchor of 0, 1 or 2 (got %d)", height, int(anchor));
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cv::Mat canvas = matrix(image);
        const int font = cv::FONT_HERSHEY_SIMPLEX;
        const double scale = height / 22.0;
        const int thickness = std::max(1, static_cast<int>(std::lround(height / 12)));
        int baseline = 0;
        const cv::Size size = cv::getTextSize(text, font, scale, thickness, &baseline);
        const double left = x - size.width * anchor / 2.0;
        cv::putText(canvas, text, cv::Point(cvRound(left), cvRound(y)), font, scale,
                    cv::Scalar(colour[0], colour[1], colour[2], colour[3]), thickness, cv::LINE_AA);
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_dft_magnitudes(const double *samples, int32_t count, double *magnitudes, OCVError *error) {
    return fenced(error, [&] {
        if (count < 2) {
            setMessage(error, "a Fourier transform needs 2 or more samples, got %d", int(count));
            return OCV_STATUS_BAD_ARGUMENT;
        }
        const cv::Mat input(1, count, CV_64F, const_cast<double *>(samples));
        cv::Mat spectrum;
        cv::dft(input, spectrum, cv::DFT_COMPLEX_OUTPUT);
        const auto *bins = spectrum.ptr<cv::Vec2d>(0);
        for (int32_t k = 0; k <= count / 2; ++k) magnitudes[k] = std::hypot(bins[k][0], bins[k][1]);
        return OCV_STATUS_OK;
    });
}

namespace {
/// Where a label's letters and tag go: shared by drawing and measuring, so a tag measured is the tag drawn.
struct LabelLayout {
    static constexpr int font = cv::FONT_HERSHEY_SIMPLEX;
    double scale;
    int thickness, pad, width, tall;
    cv::Size text;

    LabelLayout(const char *label, double height) {
        scale = height / 22.0;
        thickness = std::max(1, static_cast<int>(std::lround(height / 12)));
        int baseline = 0;
        text = cv::getTextSize(label, font, scale, thickness, &baseline);
        pad = std::max(2, static_cast<int>(height / 5));
        width = text.width + 2 * pad;
        tall = text.height + baseline + 2 * pad;
    }
};
}  // namespace

void ocv_label_size(const char *text, double height, int32_t *width, int32_t *tall) {
    *width = 0;
    *tall = 0;
    if (!(height >= 4 && height <= 400)) return;
    try {
        const LabelLayout layout(text, height);
        *width = layout.width;
        *tall = layout.tall;
    } catch (...) {
    }
}

OCVStatus ocv_draw_label(const OCVImage *image, const char *text, int32_t x, int32_t y, double height, const double *colour,
                         const double *ink, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat canvas = matrix(image);
        if (!(height >= 4 && height <= 400)) {
            setMessage(error, "a label's height must be 4 to 400 pixels, got %g", height);
            return OCV_STATUS_BAD_ARGUMENT;
        }
        // Hershey's simplex at the scale that makes capitals `height` pixels tall, on a filled tag so
        // it reads over any picture; the tag stays inside the picture.
        const LabelLayout layout(text, height);
        const int font = LabelLayout::font, thickness = layout.thickness, pad = layout.pad, width = layout.width, tall = layout.tall;
        const double scale = layout.scale;
        const cv::Size size = layout.text;
        const int left = std::clamp(x, 0, std::max(0, canvas.cols - width));
        const int top = std::clamp(y, 0, std::max(0, canvas.rows - tall));
        const cv::Scalar fill(colour[0], colour[1], colour[2], colour[3]), letters(ink[0], ink[1], ink[2], ink[3]);
        cv::rectangle(canvas, cv::Rect(left, top, width, tall), fill, cv::FILLED, cv::LINE_8);
        cv::putText(canvas, text, cv::Point(left + pad, top + pad + size.height), font, scale, letters, thickness, cv::LINE_AA);
        return OCV_STATUS_OK;
    });
}

OCVStatus ocv_edge_image(const OCVImage *source, const OCVImage *destination, const double *channelFactors,
                         OCVError *error) {
    return fenced(error, [&] {
        const cv::Mat input = matrix(source);
        cv::Mat output = matrix(destination), blurred, edges;
        cv::GaussianBlur(input, blurred, cv::Size(5, 5), 0);
        cv::Laplacian(blurred, edges, -1, 3);
        cv::Scalar factors;
        for (int channel = 0; channel < input.channels() && channel < 4; ++channel) factors[channel] = channelFactors[channel];
        cv::multiply(edges, factors, output);
        return checkWrittenInPlace(output, destination, error);
    });
}

OCVStatus ocv_resize_lanczos(const OCVImage *source, const OCVImage *destination, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        cv::resize(matrix(source), output, output.size(), 0, 0, cv::INTER_LANCZOS4);
        return checkWrittenInPlace(output, destination, error);
    });
}
