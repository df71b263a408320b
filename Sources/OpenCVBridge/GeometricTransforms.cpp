// imgproc's geometric image transformations: resizing, affine and perspective warps and their maps.
#include "Bridging.hpp"
#include "OpenCVBridge.h"

#include <opencv2/imgproc.hpp>

using namespace ocular_bridge;

OCVStatus ocv_resize_area(const OCVImage *source, const OCVImage *destination, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        cv::resize(matrix(source), output, output.size(), 0, 0, cv::INTER_AREA);
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

OCULAR_SAME_VALUE(OCV_INTER_NEAREST, cv::INTER_NEAREST);
OCULAR_SAME_VALUE(OCV_INTER_LINEAR, cv::INTER_LINEAR);
OCULAR_SAME_VALUE(OCV_INTER_CUBIC, cv::INTER_CUBIC);
OCULAR_SAME_VALUE(OCV_INTER_AREA, cv::INTER_AREA);
OCULAR_SAME_VALUE(OCV_INTER_LANCZOS4, cv::INTER_LANCZOS4);

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

OCVStatus ocv_resize_lanczos(const OCVImage *source, const OCVImage *destination, OCVError *error) {
    return fenced(error, [&] {
        cv::Mat output = matrix(destination);
        cv::resize(matrix(source), output, output.size(), 0, 0, cv::INTER_LANCZOS4);
        return checkWrittenInPlace(output, destination, error);
    });
}
