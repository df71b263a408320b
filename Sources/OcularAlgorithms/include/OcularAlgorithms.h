// Ocular's own image algorithms in C++, over OpenCV: blending in every mode in one pass, and finding,
// separating and cutting out objects on a table (the bean counter). Kept apart from OpenCVBridge, which
// only wraps OpenCV's calls; every constant an algorithm uses comes in its settings, filled by Swift
// from the capability's profile. Every function catches C++ exceptions, as the bridge's do.
#pragma once

#include <OpenCVBridgeCore.h>

#ifdef __cplusplus
extern "C" {
#endif

// MARK: - Blending

/// Per-pixel blend modes: the W3C Compositing Level 1 modes plus the textbook's average. The frame is
/// the backdrop (Cb), the blend source the source (Cs).
typedef enum OcularBlendMode {
    OCULAR_BLEND_NORMAL = 0,
    OCULAR_BLEND_AVERAGE = 1,
    OCULAR_BLEND_MULTIPLY = 2,
    OCULAR_BLEND_SCREEN = 3,
    OCULAR_BLEND_OVERLAY = 4,
    OCULAR_BLEND_DARKEN = 5,
    OCULAR_BLEND_LIGHTEN = 6,
    OCULAR_BLEND_COLOR_DODGE = 7,
    OCULAR_BLEND_COLOR_BURN = 8,
    OCULAR_BLEND_HARD_LIGHT = 9,
    OCULAR_BLEND_SOFT_LIGHT = 10,
    OCULAR_BLEND_DIFFERENCE = 11,
    OCULAR_BLEND_EXCLUSION = 12,
    OCULAR_BLEND_HUE = 13,
    OCULAR_BLEND_SATURATION = 14,
    OCULAR_BLEND_COLOR = 15,
    OCULAR_BLEND_LUMINOSITY = 16,
} OcularBlendMode;

/// Blends `source` into `backdrop` in one pass, rows spread over the cores:
/// out = round(((255 − α)·Cb + α·B(Cb, Cs)) / 255) with α = round(opacity · 255) and B(Cb, Cs) the
/// mode's result rounded to 8 bits. All three images have the same size and 1, 3 or 4 channels;
/// `redChannel` is the index of red (0 for RGB, 2 for BGR; ignored for one channel), and a fourth
/// channel is alpha, copied from the backdrop.
OCVStatus ocular_blend(const OCVImage *_Nonnull backdrop, const OCVImage *_Nonnull source,
                    const OCVImage *_Nonnull destination, OcularBlendMode mode, double opacity,
                    int32_t redChannel, OCVError *_Nonnull error);

// MARK: - Blobs

/// The constants of the textbook's blob detection.
typedef struct OcularBlobSettings {
    double scale;               ///< the frame is shrunk by this (INTER_AREA) before anything else
    double deviations;          ///< background: within this many standard deviations of the mean, per channel
    double erosionFraction;     ///< side of the square erosion kernel, as a fraction of the shrunk frame's short side
    int32_t erosionIterations;
    double cannyLow;
    double cannyHigh;
    double minimumFraction;     ///< blobs narrower or shorter than this fraction of the frame's short side are dropped
} OcularBlobSettings;

/// Finds blobs; keeps its buffers between frames. Not safe to use from two threads at once.
typedef struct OcularBlobFinder OcularBlobFinder;
OCVStatus ocular_blob_finder_create(OcularBlobFinder *_Nullable *_Nonnull finder, OCVError *_Nonnull error);
void ocular_blob_finder_release(OcularBlobFinder *_Nullable finder);

/// Mask, Canny, contour tree and bounding rectangles at full scale, every rectangle of the tree;
/// read them with ocular_blob_finder_rectangles and the mask with ocular_blob_finder_mask.
OCVStatus ocular_blob_finder_find(OcularBlobFinder *_Nonnull finder, const OCVImage *_Nonnull image,
                               const OcularBlobSettings *_Nonnull settings, int32_t *_Nonnull count,
                               OCVError *_Nonnull error);
/// Copies up to `capacity` rectangles of the last find.
void ocular_blob_finder_rectangles(const OcularBlobFinder *_Nonnull finder, OCVRectangle *_Nonnull rectangles, int32_t capacity);
/// The last find's background mask at the working scale (255 = background), valid until the next find.
OCVImage ocular_blob_finder_mask(const OcularBlobFinder *_Nonnull finder);

/// The constants of the separating detection (a lit table, touching objects).
typedef struct OcularBlobSeparationSettings {
    int32_t workingShortSide;   ///< the frame is shrunk (INTER_AREA) until its short side is at most this
    double darker;              ///< an object: brightness below this fraction of the background's under it
    double darkerOnDarkTable;   ///< … or this, where the table is darker than most of what lies on it
    double brighter;            ///< an object: brightness above this multiple of the background's
    double tint;                ///< an object: colour leaning from the background's by more than this fraction
    double persistence;         ///< a distance peak is an object of its own when it stands this fraction of its height above where it joins a higher one
    double minimumFraction;     ///< blobs narrower and shorter than this fraction of the frame's short side are dropped
    double notchDepth;          ///< a region is cut between two notches of its outline at least this fraction of its radius deep; 0: never
    double notchSolidity;       ///< … when its area is below this fraction of its convex hull's
    double pocketBrightness;    ///< a hole in an object stays table when its brightness is within this of the table's …
    double pocketLean;          ///< … and its colour leans from the table's by less than this
    double smallestCore;        ///< a seed of a split stands at least this fraction of the working short side inside its part
    double colourSigma;         ///< the colours compared at a split are smoothed by a Gaussian of this many working pixels
    double brightnessWeight;    ///< the weight of log brightness beside the three chromaticities in those colours
    double splitPersistence;    ///< a region's own distance peaks seed a split when they stand this fraction above their join
    double splitMargin;         ///< a split is kept when its parts are ellipses by this much more than the whole …
    double strongBoundary;      ///< … or when the colour changes across the cut by at least this much per pixel
    double mergeEllipse;        ///< neighbours join when together they are an ellipse this well (IoU), as well as either alone
    int32_t splitDepth;         ///< a region is split at most this many times over
    double coinRoundness;       ///< coins first: HoughCircles' HOUGH_GRADIENT_ALT param2 (how perfect a circle); 0: no coin search
    double coinEdge;            ///< … its param1, Canny's upper threshold on the working frame's smoothed gray
    double coinSmallest;        ///< … the smallest radius looked for, as a fraction of the working frame's short side
    double coinHalfSizeFrom;    ///< … radii from this fraction of the short side up are looked for in a half-size copy …
    double coinSearchOverlap;   ///< … each search reaching this factor past that boundary
    double coinLargest;         ///< the largest radius looked for, as a fraction of the short side
    double coinHoughResolution; ///< HoughCircles' dp …
    double coinHoughSpacing;    ///< … and least distance between centres, in working pixels
    int32_t coinOutlineSamples; ///< a coin's outline is looked at in this many directions …
    int32_t coinRimSamples;     ///< … at this many radii across its rim in each
    double coinCoverage;        ///< a circle is a coin only when at least this fraction of its disc is object …
    double coinOverlap;         ///< … when it overlaps a bigger coin by less than this fraction of its radius …
    double coinRim;             ///< … and the object does not go on across its outline: colours compared at (1 ∓ this) × radius …
    double coinSameChroma;      ///< … as the same object when their chromaticities differ by less than this in every channel …
    double coinSameBrightness;  ///< … and their log brightnesses by less than this …
    double coinContinuation;    ///< … over less than this fraction of the outline …
    double coinEdgeContrast;    ///< … and an edge crosses the outline where the colour gradient (Sobel, 8-bit scale) reaches this …
    double coinEdgeless;        ///< … everywhere but less than this fraction of the outline where the object goes on
    double coinCarve;           ///< a coin takes the object's pixels within this multiple of its radius (its rim's antialiasing and shadow)
    double coinCrescentReach;   ///< a region beside a coin lying wholly within this multiple of its radius from its centre is its rim or shadow
    int32_t carveOpening;       ///< what is left beside a carved coin is opened by a disc of this radius in working pixels (its slivers go)
    double seamGradient;        ///< inside the objects, a colour gradient at least this is a seam the distance map is taken without; 0: none
    double wholeEllipse;        ///< a region the distance map alone parts that is an ellipse this well (IoU) is never cut at seams; 1: always cut
    double shadowLean;          ///< a region leaning from the table's colour by less than this (mean) …
    double shadowDarkest;       ///< … and from this …
    double shadowLightest;      ///< … to this bright against it is a shadow, joined to its longest-touching neighbour; lean 0: none …
    double shadowEllipse;       ///< … unless it is an ellipse at least this well (IoU): then it is a grey object; above 1: none is
    double filledShare;         ///< a region more than this share of which was a filled hole is dropped (shade between objects); 1: none kept out
    double smallPart;           ///< a part under this many discs as wide as the smallest blob joins its best-ellipse neighbour
    double surfaceOutliers;     ///< a pixel stays in the table's surface fit while within this many median residuals of it
    double notchReach;          ///< two notches are cut between only when closer than this many times the sum of their depths
    double notchSliver;         ///< a part a notch cut leaves under this fraction of the region stays with the region
    int32_t notchRounds;        ///< a region is cut at notches at most this many times over
    int32_t notchShortestOutline; ///< a region whose outline has fewer points than this is never cut at notches
    double notchShallowest;     ///< a notch is at least this many working pixels deep, whatever the region's radius
    double peakFloor;           ///< a distance peak is an object of its own only when it stands at least this many working pixels above its join …
    double splitPeakFloor;      ///< … and a region's own peak seeds a split only at this many
    int32_t surfaceSide;        ///< the table's surface is fitted on a copy whose short side is at most this many pixels
    int32_t surfaceRounds;      ///< … in at most this many rounds of dropping outliers …
    int32_t surfaceLeastPixels; ///< … stopping when fewer pixels than this are left in the fit
    double surfaceClose;        ///< a pixel within this fraction of the surface's brightness lies on it; beyond, it stands out
    double surfaceDarkest;      ///< residuals are relative to the surface's level, taken as at least this many 8-bit levels
} OcularBlobSeparationSettings;

/// Fits the background as a smooth surface per channel, marks what differs from it by brightness or
/// colour (a shadow only darkens), fills holes that do not look like table, finds the coins (circles
/// whose disc is object and whose object ends at their outline) and carves them out, and splits touching objects
/// by a watershed on the distance transform from one seed per persistent peak; then splits each region
/// by colour or by its own shape where the parts are more nearly ellipses than the whole (or the colour
/// changes sharply across the cut), and joins neighbours that together make an ellipse. `image` must be 8-bit BGR. Read the
/// rectangles with ocular_blob_finder_rectangles and the mask with ocular_blob_finder_mask.
OCVStatus ocular_blob_finder_separate(OcularBlobFinder *_Nonnull finder, const OCVImage *_Nonnull image,
                                   const OcularBlobSeparationSettings *_Nonnull settings, int32_t *_Nonnull count,
                                   OCVError *_Nonnull error);
/// Copies the separated blob `index` of the last separate call out of `image` (the same frame) into
/// `output` (8-bit BGR, the rectangle's size), its neighbours' pixels replaced by the background;
/// `mask` (8-bit gray, the same size) gets 255 on the blob's own pixels, and `tableBrightness` the
/// mean of the fitted background's channels under the rectangle's centre.
OCVStatus ocular_blob_finder_isolate(const OcularBlobFinder *_Nonnull finder, const OCVImage *_Nonnull image, int32_t index,
                                  const OCVImage *_Nonnull output, const OCVImage *_Nonnull mask,
                                  double *_Nonnull tableBrightness, OCVError *_Nonnull error);

/// The constants of cutting one object out of a picture of it on a plain backdrop.
typedef struct OcularCutoutSettings {
    int32_t workingSide;        ///< GrabCut runs on a copy at most this many pixels across
    int32_t border;             ///< this many pixels along every edge are backdrop for certain
    double backdropDarkest;     ///< a pixel between these brightnesses (relative to the backdrop's) …
    double backdropLightest;
    double backdropLean;        ///< … whose colour leans from the backdrop's by less than this is probably backdrop
    double shadowDarkest;       ///< a pixel between these brightnesses …
    double shadowLightest;
    double shadowLean;          ///< … leaning by less than this is probably the object's shadow, so backdrop too
    int32_t leastObjectSeeds;   ///< with fewer probable object pixels than this the picture has no object
    int32_t grabCutIterations;
    double coinRoundness;       ///< a circle round the picture's centre (HOUGH_GRADIENT_ALT's param2) with a radius of
    double coinSmallest;        ///< at least this …
    double coinLargest;         ///< … and at most this fraction of the picture's short side …
    double coinKept;            ///< … is the object when GrabCut kept less than this share of its disc; 0: never
} OcularCutoutSettings;

/// The opacity of the object in a picture of one object on a plain backdrop (a training crop): 255
/// inside its outline (GrabCut seeded by the border's colour, the object's shadow taken as backdrop;
/// its largest part, holes filled; or the coin's circle, when GrabCut kept too little of it), 0 outside, soft at the edge;
/// all 0 when nothing stands out. `alpha` is 8-bit gray of the picture's size; `backdropBrightness` gets the mean of the
/// border's median B, G and R.
OCVStatus ocular_object_alpha(const OCVImage *_Nonnull image, const OcularCutoutSettings *_Nonnull settings, const OCVImage *_Nonnull alpha,
                              double *_Nonnull backdropBrightness, OCVError *_Nonnull error);

/// Lays `object` (8-bit BGR, opacity `alpha`) onto `canvas` in place, moved by the 2×3 map: first its
/// soft shadow (the placed alpha shifted by (shadowX, shadowY), blurred by shadowSigma, darkening by
/// up to shadowStrength), then the object.
OCVStatus ocular_composite_object(const OCVImage *_Nonnull object, const OCVImage *_Nonnull alpha, const double *_Nonnull coefficients,
                               const OCVImage *_Nonnull canvas, double shadowX, double shadowY, double shadowSigma,
                               double shadowStrength, OCVError *_Nonnull error);

#ifdef __cplusplus
}
#endif
