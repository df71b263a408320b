#include "OpenCVCascades.h"

// The exception fence and matrix views are OpenCVBridge's (header-only, not part of its C module).
#include "Bridging.hpp"

#include <opencv2/objdetect.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace ocular_bridge;

struct OCVCascade {
    cv::CascadeClassifier classifier;
    std::vector<cv::Rect> objects;
    std::vector<int> neighbours;
};

namespace {

/// Why the trees of a cascade in OpenCV's current format (a `cascade` node with `stageType`) do not
/// hold together, or an empty string when they do. OpenCV checks each feature's rectangles against
/// the window but trusts the trees: a node naming a feature past the list, or a child outside its
/// tree, sends the search reading outside its buffers (measured: 4 of 125 copies of the frontal
/// face cascade with eight digits changed crashed the search under Valgrind), and a child pointing
/// back up loops for ever.
std::string treeProblem(const cv::FileNode &root) {
    const cv::FileNode features = root["features"], stages = root["stages"];
    if (!features.isSeq() || !stages.isSeq() || stages.size() == 0) return "it has no features or no stages";
    const int featureCount = static_cast<int>(features.size());
    // Categorical (LBP) nodes carry a bit set of the categories instead of a threshold.
    int subsetSize = 0;
    const cv::FileNode categories = root["featureParams"]["maxCatCount"];
    if (!categories.empty()) {
        const int count = static_cast<int>(categories);
        if (count < 0 || count > 1 << 16) return "its category count " + std::to_string(count) + " is out of range";
        subsetSize = (count + 31) / 32;
    }
    const int nodeStep = 3 + std::max(subsetSize, 1);
    int stageIndex = 0;
    for (const cv::FileNode &stage : stages) {
        const std::string stageName = "stage " + std::to_string(stageIndex);
        int treeIndex = 0;
        for (const cv::FileNode &tree : stage["weakClassifiers"]) {
            const std::string treeName = stageName + ", tree " + std::to_string(treeIndex);
            const cv::FileNode nodes = tree["internalNodes"], leaves = tree["leafValues"];
            const int values = static_cast<int>(nodes.size()), leafCount = static_cast<int>(leaves.size());
            if (values == 0 || values % nodeStep != 0 || leafCount == 0) return treeName + " is malformed";
            const int nodeCount = values / nodeStep;
            for (int node = 0; node < nodeCount; ++node) {
                const int feature = static_cast<int>(nodes[node * nodeStep + 2]);
                if (feature < 0 || feature >= featureCount) {
                    return treeName + " names feature " + std::to_string(feature) + " of " + std::to_string(featureCount);
                }
                // A positive child is a later node of the same tree; zero or negative, a leaf (its index negated).
                for (const int child : {static_cast<int>(nodes[node * nodeStep]), static_cast<int>(nodes[node * nodeStep + 1])}) {
                    if (child > 0 ? (child <= node || child >= nodeCount) : -child >= leafCount) {
                        return treeName + " has a branch to " + std::to_string(child) + ", outside its " + std::to_string(nodeCount)
                               + " nodes and " + std::to_string(leafCount) + " leaves";
                    }
                }
            }
            ++treeIndex;
        }
        if (treeIndex == 0) return stageName + " has no trees";
        ++stageIndex;
    }
    return "";
}

}  // namespace

OCVStatus ocv_cascade_load(const char *path, OCVCascade **cascade, OCVError *error) {
    *cascade = nullptr;
    return fenced(error, [&] {
        auto loaded = std::make_unique<OCVCascade>();
        cv::FileStorage storage(path, cv::FileStorage::READ);
        const cv::FileNode root = storage.isOpened() ? storage.getFirstTopLevelNode() : cv::FileNode();
        bool read = false;
        if (!root.empty() && !root["stageType"].empty()) {
            const std::string problem = treeProblem(root);
            if (!problem.empty()) {
                setMessage(error, "its trees do not hold together: %s", problem.c_str());
                return OCV_STATUS_OPEN_FAILED;
            }
            read = loaded->classifier.read(root);
        } else {
            // The format before OpenCV 2.4 (haarcascade_licence_plate_rus_16stages.xml): OpenCV converts it.
            read = loaded->classifier.load(path);
        }
        if (!read || loaded->classifier.empty()) {
            setMessage(error, "OpenCV reads no cascade classifier from it");
            return OCV_STATUS_OPEN_FAILED;
        }
        *cascade = loaded.release();
        return OCV_STATUS_OK;
    });
}

void ocv_cascade_window(const OCVCascade *cascade, int32_t *width, int32_t *height) {
    const cv::Size size = cascade->classifier.getOriginalWindowSize();
    *width = size.width;
    *height = size.height;
}

OCVStatus ocv_cascade_detect(OCVCascade *cascade, const OCVImage *gray, double scaleFactor, int32_t minimumNeighbours,
                             int32_t minimumSize, int32_t maximumSize, int32_t *count, OCVError *error) {
    *count = 0;
    return fenced(error, [&] {
        if (gray->type != OCV_8UC1) {
            setMessage(error, "a cascade searches 8-bit gray images, got type %d", static_cast<int>(gray->type));
            return OCV_STATUS_BAD_ARGUMENT;
        }
        cascade->objects.clear();
        cascade->neighbours.clear();
        cascade->classifier.detectMultiScale(matrix(gray), cascade->objects, cascade->neighbours, scaleFactor,
                                             minimumNeighbours, 0, cv::Size(minimumSize, minimumSize),
                                             cv::Size(maximumSize, maximumSize));
        *count = static_cast<int32_t>(cascade->objects.size());
        return OCV_STATUS_OK;
    });
}

void ocv_cascade_detections(const OCVCascade *cascade, OCVDetection *detections, int32_t capacity) {
    const size_t count = std::min(cascade->objects.size(), static_cast<size_t>(std::max(capacity, 0)));
    for (size_t index = 0; index < count; ++index) {
        const cv::Rect &object = cascade->objects[index];
        const int agreeing = index < cascade->neighbours.size() ? cascade->neighbours[index] : 0;
        detections[index] = OCVDetection{object.x, object.y, object.width, object.height, agreeing};
    }
}

void ocv_cascade_release(OCVCascade *cascade) { delete cascade; }
