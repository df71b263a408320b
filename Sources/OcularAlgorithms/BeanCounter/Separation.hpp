// The steps of the separating detection (ocular_blob_finder_separate, BlobSeparation.cpp), one file
// each, in the order it runs them; every constant comes in OcularBlobSeparationSettings.
#pragma once

#include "OcularAlgorithms.h"
#include "TableSurface.hpp"

#include <opencv2/core.hpp>

#include <map>
#include <utility>
#include <vector>

namespace ocular_bean_counter {

// MARK: TableMask.cpp

/// Each pixel of `working` (8-bit BGR) against the `table` under it: its brightness as a fraction of the
/// table's (light divided out) in `brightnessMap`, how far its colour leans from the table's once
/// brightness is set aside in `leanMap`, its channels over the table's in `ratioMap`, and 255 in
/// `objects` where it is below `darker`, above `brighter` or leans by more than `tint`. A shadow is
/// darker by a fraction but keeps the table's colour.
void compareWithTable(const cv::Mat &working, const BackgroundSurface &table, float darker, float brighter, float tint,
                      cv::Mat &objects, cv::Mat &brightnessMap, cv::Mat &leanMap, cv::Mat &ratioMap);

/// Clears each hole of `objects` that `marked` (the pixels that stood out themselves) left and that
/// looks like table: its mean brightness within `pocketBrightness` of the table's and its colour
/// leaning by less than `pocketLean` (the paper showing between a ring of beans and its coin).
void clearTablePockets(cv::Mat &objects, const cv::Mat &marked, const cv::Mat &brightnessMap, const cv::Mat &leanMap,
                       const OcularBlobSeparationSettings &settings);

/// Cleans `mask` of what a pixel's noise makes: specks a pixel wide go (a 3 × 3 opening), and pinholes
/// (a coin's shine) fill (a 3 × 3 closing).
void cleanMask(cv::Mat &mask);

/// Keeps the outer outlines of `mask` whose rectangle reaches `smallestSide` on some side, filled
/// (holes close); the rest goes. `contours` is scratch kept from frame to frame.
void keepLarge(cv::Mat &mask, double smallestSide, std::vector<std::vector<cv::Point>> &contours);

// MARK: Coins.cpp

/// The circles of the working frame that may be coins, biggest first. A coin's radius is at most
/// `coinLargest` of the frame's short side; the big ones are looked for at half size, beside the small ones at full size.
std::vector<cv::Vec3f> proposeCoins(const cv::Mat &working, const OcularBlobSeparationSettings &settings);

/// The coins among the proposed `circles` (biggest first): those whose disc is object, that do not
/// overlap a bigger coin, and where the object stops at the outline.
std::vector<cv::Vec3f> judgeCoins(const cv::Mat &working, const cv::Mat &objects, const std::vector<cv::Vec3f> &circles,
                                  const OcularBlobSeparationSettings &settings);

/// `objects` with each coin's disc (`coinCarve` of its radius) taken out, what is left round them
/// opened by a disc of `carveOpening`, and the parts narrower and shorter than `smallestSide` dropped.
cv::Mat carveCoins(const cv::Mat &objects, const std::vector<cv::Vec3f> &coins, const OcularBlobSeparationSettings &settings,
                   double smallestSide);

/// Adds each coin to `labels` as an object of its own: the object's pixels within its carved disc,
/// and the regions beside it that lie wholly within reach of its centre, its rim or shadow left where
/// the circle fell a little inside the coin or the coin is seen at a slant. `labels` and `objects` are
/// the part of the frame from `origin` on; the coins are in the frame.
void giveCoinsTheirPixels(cv::Mat &labels, const cv::Mat &objects, const std::vector<cv::Vec3f> &coins, cv::Point origin,
                          const OcularBlobSeparationSettings &settings);

// MARK: Flooding.cpp

/// The seeds of the objects of a distance map (float, 0 outside): the pixel index of each peak that stands
/// at least `persistence` of its height, and `floor` pixels, above where it joins a higher one, and of the highest.
std::vector<int> distancePeaks(const cv::Mat &distance, double persistence, double floor);

/// Labels each object pixel of `distance` (above 0) 1… after the seed whose region reaches it first,
/// flooding from the highest distance down (Meyer's flooding, in steps of 1/16 pixel).
void flood(const cv::Mat &distance, const std::vector<int> &seeds, cv::Mat &labels);

/// Grows the labelled seeds of `labels` (int32, 0 unlabelled) over the nonzero pixels of `mask`,
/// lowest `elevation` first (a watershed by flooding, ties in order of arrival).
void floodByElevation(cv::Mat &labels, const cv::Mat &elevationView, const cv::Mat &maskView);

/// The distance transform of a part, the frame's edge not counted as background.
cv::Mat distanceInside(const cv::Mat &part);

// MARK: SeamCuts.cpp

/// `objects` with its seams taken out: the pixels whose colour gradient reaches `threshold`, outside
/// `uncut`, when the seam they lie on reaches the table. A seam enclosed by one object (a pinto bean's
/// speckle) stays in it: objects that touch meet along seams that run out to the table. All of
/// `objects` when `threshold` is 0.
void cutAtSeams(const cv::Mat &objects, const cv::Mat &gradient, double threshold, const cv::Mat &uncut, cv::Mat &carved);

/// Unlabels each region of `labels` more than `share` of whose pixels were not marked as object
/// themselves (`marked` 0) but filled in as a hole.
void dropFilled(cv::Mat &labels, const cv::Mat &marked, double share);

// MARK: RegionSplits.cpp

/// The colours the splits compare: each pixel's chromaticities (3 floats, `colours`) of `ratio` (its
/// channels over the table's) smoothed by a Gaussian of `colourSigma`, and the gradient of those and of
/// its log brightness (weighted by `brightnessWeight`) in `gradient`. Zeros where neither seams nor
/// splits are looked for. A blur of a submatrix reads beyond it, as OpenCV's filters do.
void colourFeatures(const cv::Mat &ratio, const OcularBlobSeparationSettings &settings, cv::Mat &colours, cv::Mat &gradient);

/// Splits each region of `labels` by colour or shape where that makes it more nearly ellipses (or
/// the colour changes sharply across the cut), again on each part, `splitDepth` times at most.
void splitRegions(cv::Mat &labels, const cv::Mat &colours, const cv::Mat &gradient, const OcularBlobSeparationSettings &settings,
                  double smallestCore);

// MARK: EllipseJoins.cpp

/// Joins neighbouring regions that together make an ellipse (IoU ≥ `mergeEllipse`) at least as well
/// as the better of the two alone, best first; a part too small to be an object (under `smallPart`
/// times the area of a disc as wide as the smallest blob) joins the neighbour with which it makes the
/// best ellipse.
void joinIntoEllipses(cv::Mat &labels, const OcularBlobSeparationSettings &settings, double smallestSide);

// MARK: NotchCuts.cpp

/// Cuts each region of `labels` whose outline has two notches facing each other (one object lying over
/// another) along the line between them, the parts again, `notchRounds` times at most.
void cutAtNotches(cv::Mat &labels, const OcularBlobSeparationSettings &settings);

// MARK: ShadowJoins.cpp

/// Joins each region of `labels` whose mean colour leans from the table's by less than `shadowLean`
/// and whose mean brightness against the table's lies between `darkest` and `lightest` (a shadow: the
/// table's colour, darkened), unless it is an ellipse at least `shadowEllipse` well, to the neighbour
/// it shares the longest border with; a region with no neighbour stays.
void joinShadows(cv::Mat &labels, const cv::Mat &brightness, const cv::Mat &lean, double shadowLean, double darkest, double lightest,
                 double shadowEllipse);

// MARK: Regions.cpp

/// How nearly a region (8-bit, nonzero inside) is an ellipse: its intersection over union with the
/// ellipse of the same second moments; 0 for a region too small to say.
double ellipseScore(const cv::Mat &region);

/// The bounding box of each label of `labels` (index = label; empty for none).
std::vector<cv::Rect> labelBoxes(const cv::Mat &labels);

/// How many pixel pairs (right and below neighbours) each pair of labels of `labels` shares, keyed
/// by the smaller label first.
std::map<std::pair<int, int>, int> sharedBorders(const cv::Mat &labels);

/// Sets `marked` (8-bit, zero) to 255 over each region of `labels` that is an ellipse at least
/// `threshold` well (``ellipseScore``).
void markEllipses(const cv::Mat &labels, double threshold, cv::Mat &marked);

/// The distance a seam pixel is given: above 0, so it is flooded, and in the lowest level, so last.
constexpr float seamDistance = 0.01f;

}  // namespace ocular_bean_counter
