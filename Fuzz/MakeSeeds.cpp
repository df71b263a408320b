// Writes small seeds for the decode fuzzer in every format this OpenCV writes: crops of the shared
// images as PNG (8- and 16-bit, gray, colour, alpha), JPEG (baseline, progressive, gray, with EXIF-less
// restart markers), BMP, TIFF, WebP, PPM/PGM/PAM, PFM, Sun raster, JPEG 2000, Radiance HDR and EXR.
// Usage: make-seeds OUTPUT_FOLDER IMAGE...   Each seed's first byte picks the read mode, as the harness expects.
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

static void save(const std::string &folder, const std::string &name, const std::vector<uchar> &bytes) {
    for (char mode = 0; mode < 4; ++mode) {
        std::ofstream file(folder + "/" + name + "-" + std::to_string(mode), std::ios::binary);
        file.put(mode);
        file.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
}

int main(int argc, char **argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: %s OUTPUT_FOLDER IMAGE...\n", argv[0]);
        return 2;
    }
    const std::string folder = argv[1];
    int written = 0;
    for (int index = 2; index < argc; ++index) {
        const cv::Mat image = cv::imread(argv[index], cv::IMREAD_COLOR);
        if (image.empty()) continue;
        const cv::Mat crop = image(cv::Rect((image.cols - 40) / 2, (image.rows - 30) / 2, 40, 30)).clone();
        cv::Mat gray, bgra, wide, wideGray, wideBGRA, floating;
        cv::cvtColor(crop, gray, cv::COLOR_BGR2GRAY);
        cv::cvtColor(crop, bgra, cv::COLOR_BGR2BGRA);
        crop.convertTo(wide, CV_16U, 257);
        gray.convertTo(wideGray, CV_16U, 257);
        bgra.convertTo(wideBGRA, CV_16U, 257);
        crop.convertTo(floating, CV_32F, 1.0 / 255);
        const std::string stem = "seed" + std::to_string(index - 1);
        const struct {
            const char *extension;
            const cv::Mat *pixels;
            std::vector<int> parameters;
        } variants[] = {
            {".png", &crop, {}}, {".png", &gray, {}}, {".png", &bgra, {}}, {".png", &wide, {}}, {".png", &wideGray, {}},
            {".png", &wideBGRA, {}}, {".tiff", &wideBGRA, {}}, {".ppm", &wide, {}},
            {".jpg", &crop, {cv::IMWRITE_JPEG_QUALITY, 80}}, {".jpg", &gray, {}},
            {".jpg", &crop, {cv::IMWRITE_JPEG_PROGRESSIVE, 1}}, {".jpg", &crop, {cv::IMWRITE_JPEG_RST_INTERVAL, 2}},
            {".bmp", &crop, {}}, {".bmp", &gray, {}}, {".tiff", &crop, {}}, {".tiff", &wide, {}}, {".webp", &crop, {}},
            {".webp", &bgra, {cv::IMWRITE_WEBP_QUALITY, 101}}, {".ppm", &crop, {}}, {".pgm", &gray, {}}, {".pam", &bgra, {}},
            {".pfm", &floating, {}}, {".ras", &crop, {}}, {".jp2", &crop, {}}, {".hdr", &floating, {}}, {".exr", &floating, {}},
        };
        int variant = 0;
        for (const auto &each : variants) {
            std::vector<uchar> bytes;
            try {
                if (!cv::imencode(each.extension, *each.pixels, bytes, each.parameters)) continue;
            } catch (const cv::Exception &) {
                continue;  // a codec this OpenCV build lacks
            }
            save(folder, stem + "-" + std::to_string(variant++) + (each.extension + 1), bytes);
            ++written;
        }
    }
    std::printf("%d seeds\n", written);
    return written > 0 ? 0 : 1;
}
