// The blob finder's buffers, kept from frame to frame: the textbook's finding (BlobFinder.cpp) and
// the separating one (BlobSeparation.cpp).
#pragma once

#include "OcularAlgorithms.h"
#include "TableSurface.hpp"

#include <opencv2/core.hpp>

#include <memory>
#include <vector>

struct BlobSeparation {
    cv::Mat bgr;          // the frame as 8-bit BGR, when it came otherwise
    cv::Mat working;      // the frame shrunk to the working size (never a view of the frame)
    cv::Mat small;        // shrunk further, for fitting the background
    cv::Mat objects;      // 255 where an object is, at the working size
    cv::Mat carved;       // the objects with their seams taken out
    cv::Mat whole;        // 255 over regions parted by their outline alone that are ellipses: never cut at seams
    cv::Mat distance;     // distance of each object pixel to the background (or a seam)
    cv::Mat labels;       // 1… per separated object, 0 for background
    cv::Mat brightness;   // each working pixel's brightness as a fraction of the table's under it
    cv::Mat lean;         // how far its colour leans from the table's
    cv::Mat ratio;        // its colour divided by the table's, per channel
    ocular_bean_counter::BackgroundSurface background;
    double scale = 1;     // working size / frame size
    std::vector<int> rectangleLabels;
};

struct OcularBlobFinder {
    cv::Mat resized;
    cv::Mat mask;
    cv::Mat edges;
    std::vector<std::vector<cv::Point>> contours;
    std::vector<cv::Rect> rectangles;
    // The separating detection's buffers, made on its first use.
    std::unique_ptr<BlobSeparation> separation;
};
