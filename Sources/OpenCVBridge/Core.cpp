// OpenCV's core module: the library's version and threads, per-channel arithmetic and look-up tables,
// noise, padding, flips and quarter turns, the Fourier transform.
#include "Bridging.hpp"
#include "OpenCVBridge.h"

#include <opencv2/core.hpp>
#include <opencv2/core/hal/intrin.hpp>
#include <opencv2/core/version.hpp>
#include <opencv2/imgproc.hpp>  // cv::resize of a gain map

#include <algorithm>
#include <cmath>
#include <vector>

using namespace ocular_bridge;

OCULAR_SAME_VALUE(OCV_8UC1, CV_8UC1);
OCULAR_SAME_VALUE(OCV_8UC2, CV_8UC2);
OCULAR_SAME_VALUE(OCV_8UC3, CV_8UC3);
OCULAR_SAME_VALUE(OCV_8UC4, CV_8UC4);

const char *ocv_version(void) { return CV_VERSION; }

void ocv_set_thread_count(int32_t count) { cv::setNumThreads(count); }

int32_t ocv_thread_count(void) { return cv::getNumThreads(); }

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
