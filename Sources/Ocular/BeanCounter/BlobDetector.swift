internal import OcularAlgorithms
internal import OpenCVBridge
import Synchronization

/// Finds objects lying on a table.
///
/// Two ways, one per ``BlobProfile``:
/// - ``Method/textbook(_:)``: the textbook's. Everything not within one standard deviation of the frame's
///   mean colour, eroded so an object's parts join, outlined, boxed. It needs an evenly lit plain
///   background and objects apart: touching objects are one box, a shadow is an object.
/// - ``Method/separating(_:)``: Ocular's default. The table's colour is fitted as a smooth surface
///   (light falling across it is smooth) and divided out; a pixel is an object when it is much darker
///   or brighter than the table under it or leans to another colour (a shadow only darkens, by less);
///   holes fill; touching objects are split by a watershed on the distance transform, one seed per
///   peak that stands clear of the peak it joins.
///
/// The finder keeps its buffers from frame to frame, so detections take turns: one detector per
/// stream.
public final class BlobDetector: Sendable {
    /// The textbook's constants.
    public struct Settings: Sendable, Hashable {
        /// The frame is shrunk by this before the mask is made.
        public var scale = 0.5
        /// The background: within this many standard deviations of the mean colour, per channel.
        public var deviations = 1.0
        /// The square erosion kernel's side, as a fraction of the shrunk frame's short side.
        public var erosionFraction = 0.005
        /// How many times the mask is eroded before contours are found.
        public var erosionIterations = 8
        /// Canny's lower threshold on the eroded mask.
        public var cannyLow = 191.0
        /// Canny's upper threshold on the eroded mask.
        public var cannyHigh = 255.0
        /// Blobs narrower or shorter than this fraction of the frame's short side are dropped.
        public var minimumFraction = 0.05

        /// The textbook's values.
        public init() {}
    }

    /// The separating detection's constants, chosen on `BlobScenes` (Benchmarks/BeanCounterMeasured.md has the sweep).
    public struct Separation: Sendable, Hashable {
        /// The frame is shrunk until its short side is at most this many pixels.
        public var workingShortSide = 480
        /// An object is darker than this fraction of the table under it (a soft shadow is not) … The
        /// training pictures' objects are 0.22–0.39 of their paper (median); silver coins on white paper
        /// in indoor light 0.45–0.54, their shadows there 0.79 and lighter. At 0.45 a quarter of the
        /// tables' silver coins were left unboxed (found 78 % on the coin photos tuned on, 96 % at 0.55,
        /// 100 % at 0.6, which named fewer: a coin's ragged rim came in). The demo's deep bean shadows
        /// (0.48) lean warm of the table and are in either way; ``shadowLean`` gives them back.
        public var darker = 0.55
        /// … or than this fraction, on a table darker than most of what lies on it (coins on black
        /// cloth): there what is darker still is mostly the cloth's folds and the gaps between objects.
        /// At 0.55 a gap between two Greek coins on dark cloth was boxed and the coin beside it lost.
        public var darkerOnDarkTable = 0.45
        /// … or brighter than this multiple of it …
        public var brighter = 1.3
        /// … or its colour leans from the table's by more than this fraction in some channel. The
        /// demo's deep shadows lean 0.16 warm on its paper and the least colourful objects (the silver
        /// coins) 0.16–0.17, but those are darker than ``darker``: 0.14 keeps the shadows out of the
        /// objects at 640×480 (0.12 let one in, 0.16 cost held-apart scattered scenes an exact tally).
        public var tint = 0.14
        /// A peak of the distance map is an object of its own when it stands this fraction of its
        /// height above where it joins a higher one: two coins side by side join near 0, a small
        /// coin laid 30 % under a bigger one about 0.9 of the way up; a bean's ridge has no dip.
        public var persistence = 0.06
        /// Blobs narrower and shorter than this fraction of the frame's short side are dropped.
        public var minimumFraction = 0.04
        /// A region is cut between two notches of its outline at least this fraction of its radius
        /// (and 2 working pixels) deep (a bean over a coin's edge); 0 never cuts … After the colour and
        /// shape splits it still lifts scattered scenes' exact tallies (79 → 85 % held apart) while
        /// costing rings some precision (80 → 75 %).
        public var notchDepth = 0.07
        /// … when its area is below this fraction of its convex hull's (a coin alone is about 0.99) …
        public var notchSolidity = 0.97
        /// … and the two notches are closer than this many times the sum of their depths: where two
        /// outlines cross, the notches face each other across a narrow neck; the dents of one bumpy bean
        /// lie far apart for their depth.
        public var notchReach = 2.5
        /// A part a notch cut leaves under this fraction of the region stays with it: the sliver the
        /// two-pixel cut line shaves off an outline is not an object.
        public var notchSliver = 0.08
        /// A region is cut at notches at most this many times over (three objects crossed need two cuts,
        /// and a third round costs nothing where nothing is left to cut).
        public var notchRounds = 3
        /// A region whose outline has fewer points than this is never cut at notches: two notches
        /// and the outline between them need a dozen points to be told from the staircase of a
        /// pixelated curve.
        public var notchShortestOutline = 12
        /// A notch is at least this many working pixels deep, however small its region: a dent of
        /// one pixel is how a pixelated outline goes round a curve.
        public var notchShallowest = 2.0
        /// A distance peak is an object of its own only when it also stands at least this many working
        /// pixels above its join: the distance map steps by a pixel along a straight edge, so one
        /// pixel and a half is the least that is not the staircase of an outline.
        public var peakFloor = 1.5
        /// … and a region's own peak seeds a split at one pixel: the region is already known to hold
        /// something to part, so a lower bar finds the second bean in it.
        public var splitPeakFloor = 1.0
        /// The table's surface is fitted to the pixels within this many median residuals of the last
        /// fit, five rounds: the usual robust cut-off, which leaves out objects and their shadows while
        /// keeping the table's own grain and the light's gradient.
        public var surfaceOutliers = 2.5
        /// The table's surface is fitted on a copy whose short side is at most this many pixels: the
        /// surface is a quadratic (six unknowns) and light across a table changes slowly, so a few
        /// thousand pixels fix it as well as the working frame's hundreds of thousands, at a
        /// hundredth of the cost.
        public var surfaceSide = 48
        /// … dropping the pixels outside ``surfaceOutliers`` this many times: each round refits to
        /// what the last one left as table, starting from one half of the pixels.
        public var surfaceRounds = 5
        /// … and stopping when fewer pixels than this are left in the fit (twice the six unknowns,
        /// below which a fit follows its pixels' noise).
        public var surfaceLeastPixels = 12
        /// A pixel within this fraction of the fitted surface's brightness lies on it, and beyond it
        /// stands out: the start (brighter or darker half) whose fit more pixels lie on is the table,
        /// and the table is lighter than its objects when more of what stands out is darker. Below
        /// ``tint`` (0.14), so what stands out here is about what the detection calls an object.
        public var surfaceClose = 0.1
        /// The fit's residuals are relative to the surface's level, taken as at least this many 8-bit
        /// levels: on black velvet a level of 2 would make every speck of dust an outlier.
        public var surfaceDarkest = 8.0
        /// How a training picture's one object is cut from its backdrop (``Blob/alone(in:cutout:)``).
        public var cutout = Blob.Cutout()
        /// A hole inside an object stays table when its mean brightness is within this of the table's
        /// under it and its colour leans by less than ``pocketLean``: the paper showing between a ring
        /// of beans and their coin, or in the gaps of a heap, where the beans' contact shadows darken it
        /// to half the table's brightness but leave it the table's colour (0.25 kept those gaps as
        /// objects: the heaps chosen on 94.6 % precise, at 0.55 96.6 %). A coin's shine is brighter, or of the
        /// coin's colour. Only on a table lighter than its objects: on dark cloth a coin's dark relief
        /// looks like the cloth (24 Greek coins became 34 boxes).
        public var pocketBrightness = 0.55
        /// See ``pocketBrightness``: half the tint that makes a pixel an object.
        public var pocketLean = 0.06
        /// A split's seed stands at least this fraction of the working short side inside its part
        /// (6 pixels at 480): a bean laid across the frame's whole arrangement at its smallest is 8–10
        /// pixels half-wide there; the seams between objects, where colours mix, are thinner.
        public var smallestCore = 0.012
        /// Colours are compared after a Gaussian of this many working pixels: a pinto bean's speckles
        /// blur into its body, a coin's edge stays.
        public var colourSigma = 1.5
        /// Log brightness counts this much beside the three chromaticities: a bean's shaded side is
        /// the same bean, a coin of another metal is not.
        public var brightnessWeight = 0.3
        /// A region's own distance peaks seed a split when they stand this fraction of their height
        /// above their join: a third of ``persistence``, tried only where the parts come out as ellipses.
        public var splitPersistence = 0.02
        /// A split is kept when its parts are together at least this much more nearly ellipses (area-
        /// weighted intersection over union with their moment ellipses) than the whole …
        public var splitMargin = 0.0
        /// … or when the colour changes across the cut by at least this much a pixel (the gradient of
        /// chromaticity and weighted log brightness): seams between objects measured a median 0.87 on
        /// the ring scenes chosen on, cuts through one object 0.5. Rings were found best at 0.9 (84 %),
        /// but a bean's own deep shadow was then cut off it, in pieces that changed with the camera's
        /// size and JPEG quality (the demo photo at 400–640 pixels wide: 7 to 10 blobs); at 1.5 the
        /// demo is 7 blobs at every size tried.
        public var strongBoundary = 1.5
        /// Neighbours are joined when together they are an ellipse at least this well, and as well as
        /// the better of them alone: a toonie's gold centre and silver ring, a bean cut along its highlight.
        public var mergeEllipse = 0.9
        /// A region is split at most this many times over (a ring of 14 beans needs 4 halvings).
        public var splitDepth = 5
        /// Coins are looked for first, as circles (OpenCV's HOUGH_GRADIENT_ALT) whose roundness score is
        /// at least this; 0 looks for none. Circles are only proposals: ``coinCoverage`` and
        /// ``coinContinuation`` decide. At 0.85 the ring and heap scenes chosen on gave 92 % of their
        /// coins and about as many false circles (a bean's end, a toonie's centre); at 0.9, 85 %.
        public var coinRoundness = 0.85
        /// Canny's upper threshold for that search on the smoothed gray frame: coins' rims against
        /// paper and beans measure far above it, the relief on their faces mostly below.
        public var coinEdge = 300.0
        /// The smallest coin radius looked for, as a fraction of the frame's short side. The ring and
        /// heap scenes' coins measure 0.054 and up, the scattered ones' 0.042 (found as well without);
        /// a romano bean's end in the demo photo at 480×270 fits a circle of 0.041. Coins smaller in the
        /// frame than this (a table shot from far off) are separated as before, by shape and colour.
        public var coinSmallest = 0.045
        /// Circles with a radius from this fraction of the short side up are looked for in a copy of
        /// half the size, the smaller ones in the frame itself. The search's cost grows with the range
        /// of radii, and a coin of 0.13 still has a radius of 31 pixels at half size: at 640×480 the
        /// search took 10.1 ms over every radius at full size, 5.3 ms in two side by side. Chosen on
        /// the ring and heap scenes 0–47 among 0.12–0.2 (all within a scene or two of one search:
        /// the circles proposed move a little, and with them a few cuts); the scattered scenes' coins
        /// (0.105 at most) and the demo's (0.10) are all found at full size, a ring's coin reaches
        /// 0.23 of the short side and a small heap's 0.29.
        public var coinHalfSizeFrom = 0.13
        /// Each of the two searches reaches this factor past ``coinHalfSizeFrom``, so a coin on the
        /// boundary is found by one (the bigger of two circles on one coin is kept).
        public var coinSearchOverlap = 1.15
        /// The largest coin looked for has this fraction of the short side as its radius: a coin
        /// filling two thirds of the frame is a close-up, not a table of beans (a small heap's coin
        /// reaches 0.29).
        public var coinLargest = 1.0 / 3
        /// HoughCircles' accumulator resolution (dp) and the least distance between two circles'
        /// centres in working pixels: OpenCV's own example for HOUGH_GRADIENT_ALT uses 1.5 and a
        /// spacing that keeps one circle per coin.
        public var coinHoughResolution = 1.5
        /// See ``coinHoughResolution``.
        public var coinHoughSpacing = 10.0
        /// A coin's outline is looked at in this many directions (every 5°) for ``coinContinuation``
        /// and ``coinEdgeless`` …
        public var coinOutlineSamples = 72
        /// … and at this many radii across its rim in each, for the strongest edge.
        public var coinRimSamples = 7
        /// A circle is a coin only when at least this share of its disc is object (a circle that
        /// strays over the table is not one object).
        public var coinCoverage = 0.95
        /// … and it overlaps no bigger coin by this fraction of its radius or more: touching coins lie
        /// 0.3–1.1 mm over each other; a toonie's gold centre lies wholly inside it.
        public var coinOverlap = 0.15
        /// … and the object does not go on across its outline: colours are compared at (1 ∓ this) ×
        /// the radius, far enough from the rim's own shading …
        public var coinRim = 0.15
        /// … as the same object when their chromaticities differ by less than this in every channel …
        public var coinSameChroma = 0.04
        /// … and their log brightnesses by less than this …
        public var coinSameBrightness = 0.25
        /// … over less than this share of the outline. A coin meets its neighbours along short arcs
        /// (median 8 % of its outline in the ring and heap scenes chosen on); a circle fitted to a bean's
        /// end has the bean beyond half of it (median 32 %). At 0.25, 143 of 154 true circles were kept
        /// and 10 of 65 false ones.
        public var coinContinuation = 0.25
        /// An edge crosses a coin's outline where the colour gradient (Sobel on the 8-bit frame after a
        /// Gaussian of one pixel, the strongest channel) reaches this within ``coinRim`` / 1.5 of it …
        public var coinEdgeContrast = 80.0
        /// … and a circle is no coin when the object goes on across its outline with no such edge over
        /// this share of it or more: a bean's end shades on into the bean, its shadow beyond. With
        /// ``coinContinuation``, 140 of 154 true circles were kept on the scenes chosen on and 6 of 65
        /// false ones; alone, the colour test kept 10 false ones, one of them a romano bean's end in
        /// the demo photo squeezed to 4:3.
        public var coinEdgeless = 0.25
        /// A coin takes the object's pixels out to this multiple of its radius: its antialiased rim
        /// and contact shadow, which would otherwise stay as a crescent beside it.
        public var coinCarve = 1.04
        /// A region beside a coin lying wholly within this multiple of the coin's radius from its centre
        /// is the coin's own rim or shadow, left where the circle fell a little inside the coin (the demo
        /// photo's loonie and nickel) or the coin is seen at a slant (an ellipse, its ends outside the
        /// circle). A bean beside a coin reaches out past 1.5 radii even for a toonie. Judging by
        /// thinness instead (half-width under 0.2 radii) took real objects in: scattered exact tallies
        /// 81 → 76 %.
        public var coinCrescentReach = 1.3
        /// What is left of the objects round the carved coins is opened by a disc of this radius
        /// (working pixels), so the slivers of rim a circle missed go: 2 lifted the scattered scenes'
        /// exact tallies (83 → 88 % chosen on); 4 cost rings and scattered scenes a little recall.
        public var carveOpening = 2
        /// Inside the objects, a pixel whose colour gradient (as ``strongBoundary`` measures it)
        /// reaches this is a seam, when the seam runs out to the table: the distance map is taken with
        /// the seams out, so beans lying side by side in a heap, whose outlines make no pinch, part
        /// where their colours change. A seam enclosed by one object (a pinto bean's speckles) stays
        /// in it. On the ring and heap scenes chosen on: none, heaps found 82 %; 0.4 cut beans along
        /// their own markings (heaps 77 % precise); 0.55 found 97 % of heaps and 98.6 % of rings;
        /// 0.9 and up, 88 % and less.
        public var seamGradient = 0.55
        /// A region the distance map parts by its outline alone that is already an ellipse at least this
        /// well (as ``mergeEllipse`` measures it) is one object and is not cut at its seams: they are its
        /// own markings (a coin's relief, a bean's stripe). Chosen on the ring and heap scenes chosen on:
        /// cut everywhere, 52.1 and 64.6 % exact tallies; kept whole from 0.93, 52.1 and 62.5 %; from
        /// 0.9, 58.3 and 66.7 % (98 % precise on heaps).
        public var wholeEllipse = 0.9
        /// A region more than this share of which was a hole filled in (its pixels not marked as object
        /// themselves) is dropped: the shaded table in a gap between three beans, which the seams
        /// part from its beans as a region of its own. A coin's filled shine is a small share of it.
        /// 0.3 and 0.5 did the same on rings (96 % precise); 0.3 was a little better on heaps (94.6
        /// against 93.8 %); 1 keeps every region.
        public var filledShare = 0.3
        /// A region whose colour leans from the table's by less than this on average, and whose
        /// brightness against the table's lies between ``shadowDarkest`` and ``shadowLightest``, is a
        /// shadow and goes back to the neighbour (not itself a shadow) it shares the longest border
        /// with: the seams part a bean from its own deep shadow too. In the demo photo the shadows
        /// measure 0.19–0.21 lean and 0.49 bright, and a sliver between the romano bean and its shadow
        /// 0.285 and 0.37 (at JPEG quality 90); pinto beans lean 0.37–0.39, romano beans 0.68–0.71.
        /// A grey object as dark as a shadow (a silver coin no circle was found for, lying against a
        /// bean) looks like one: the coins are looked for first for that reason too.
        public var shadowLean = 0.3
        /// See ``shadowLean``. A dime no circle was found for measured 0.28. At 0.33 scattered scenes
        /// lost 5 objects held apart (dark coins joined to the bean beside them); at 0.36 one, and the
        /// demo photo is 7 blobs at JPEG quality 90 too.
        public var shadowDarkest = 0.36
        /// See ``shadowLean``: a shadow is darker than the table; a pale object beside a dark one (a
        /// beige square at 0.82) is not one. Nor is a region lighter than the darkness that marks an
        /// object on its table (``darker``, ``darkerOnDarkTable``), which is in the mask for its colour:
        /// coffee beans on dark card, 0.56–0.69 of the card and grey enough to lean 0.16–0.30 only,
        /// were joined to the bean they touched as its shadow (six on the real bean photos, 86 % found).
        public var shadowLightest = 0.7
        /// See ``shadowLean``: a region that is an ellipse at least this well (``wholeEllipse``'s
        /// measure) is an object however grey and dark, since a shadow parted from its object is
        /// mostly the crescent along its side (above 1, every such region is a shadow). The demo's
        /// shadows measure 0.70–0.77, the made scenes' shadow slivers up to 0.78, the hard shadow a
        /// test's pinto bean carries from its cut-out 0.83–0.84 at its largest; silver coins no circle
        /// was found for 0.87–0.97 (made rings 96.8 → 99.1 % found, heaps 94.8 → 97.0 at 0.8–0.85),
        /// coffee beans on dark card 0.87–0.94.
        public var shadowEllipse = 0.85
        /// A part of a split smaller than this many discs as wide as the smallest blob
        /// (``minimumFraction``) is no object and joins the neighbour it makes the best ellipse with: a
        /// bean's end cut along its highlight. At 2, pinto beans in 1280 × 720 webcam frames (1.7
        /// discs) joined the coin they lay against (rings chosen on 97.4 % found); at 1.5, 99.6 %, and
        /// heaps 98 → 99.8 %; at 1, bean fragments stood as objects (scattered 95.6 → 92.6 % precise).
        public var smallPart = 1.5
        /// After naming (``BlobDetector/rejoined(_:in:by:)``), a part named nothing or doubtfully is
        /// joined back to a named neighbour its mask comes within this many working pixels of …
        public var rejoinReach = 2.0
        /// … when together they are named as the neighbour and at most this much farther from its
        /// reference than the neighbour alone (a bean's shaded side joined back moved it 0.26 → 0.27,
        /// a loonie's rim outside its circle 0.2478 → 0.2481) …
        public var rejoinSlack = 0.01
        /// … and the whole is an ellipse (`Blob.ellipseAgreement`) at most this much less well than
        /// the neighbour alone, for a part named nothing: a romano bean cut by the frame's edge joined
        /// to the bean beside it fell 0.95 → 0.62, a small pinto to its neighbour 0.93 → 0.82; a shaded
        /// side or a rim rose or fell by 0.02 at most. 0.05 and 0.1 did the same on the ring and heap
        /// scenes chosen on, 0.2 cost heaps 1.2 % of their objects.
        public var rejoinEllipseLoss = 0.05
        /// … or this much, for a part with a name: the measure's own wobble. A romano bean's shaded side
        /// cut off 20 pixels wide, named doubtfully, made with the rest a whole of 0.8586 against the
        /// rest's 0.8600; two beans side by side lose a tenth. 0 and 0.01 did as well on the made
        /// scenes chosen on, trading heaps for rings.
        public var rejoinNamedEllipseLoss = 0.01
        /// A named part is a doubtful one, which may be a fragment, from this distance to its reference
        /// up (chosen when the threshold was 0.33, before the outline counted; from 0.28 to 1 it changed
        /// nothing on the scenes chosen on since): fragments named measured 0.28–0.32 in the heaps, whole beans
        /// mostly below 0.28. On the heap and ring scenes chosen on, exact tallies 85.4 and 87.5 % with
        /// unnamed parts alone; 87.5 and 89.6 % from 0.28 or 0.29; 85.4 and 91.7 % from 0.25 or 0.27
        /// (scattered scenes lost 0.7 % of their objects at 0.25); 85.4 and 85.4 % from 0.31.
        public var rejoinDoubt = 0.28
        /// A named part is also doubtful when it is shorter than this fraction of its label's length
        /// at the photo's scale (``BlobClassification/lengthRatio``; the training list's
        /// ``TrainingList/millimetres`` make it a real one), and may then join a neighbour however much
        /// farther the whole is from its reference, when together they come nearer the label's length:
        /// the book's pinto beans, 21 mm long, broken by their spots in the ring scenes (whole ones about
        /// 1, halves 0.8–0.85, smaller pieces 0.3–0.6). Held-apart heaps: 70.8 % exact tallies without,
        /// 85.4 % at 0.75 with the slack kept, 87.5 % without it; 0.85 joined two more pieces on the rings
        /// chosen on and changed nothing held apart.
        public var rejoinShort = 0.85
        /// Blobs along the frame's edge, none of them an ellipse (``edgeEllipse``), that together run
        /// longer than this many times the longest label at the photo's scale, in one piece or several
        /// side by side, are no objects but the table's end or what lies beyond it (the shared bean
        /// photos' card ends at their top edge: strips 2–3 times a złoty long were counted as beans).
        public var edgeLongest = 1.3
        /// See ``edgeLongest``: a blob at the edge is an object, whole or cut by it, when it is an
        /// ellipse (`Blob.ellipseAgreement`) at least this well. The Greek coin beside the light strip
        /// down the edge of the shared coins photo was left out at 1, and a coin the edge cuts whose
        /// photo's scale came from a wrongly named blob, when a blob longer than the longest label
        /// was left out whatever its shape. Named surely or not: the card's end broke into bean-sized
        /// pieces named white beans at distances 0.17–0.22 (the bean photos tuned on: 71 % precise when
        /// only doubtful pieces made a run, 90 % with any).
        public var edgeEllipse = 0.85
        /// … and a blob filling a corner of the frame (touching two edges) that is an ellipse less well
        /// than this is the table's shade there, however short: a lamp's vignette is darkest in the
        /// corners, where the dark card's went below ``darkerOnDarkTable`` in ragged patches (ellipse
        /// 0.60–0.68, named beans at 0.35–0.48 on the shared coffee photos; a bean or coin the corner
        /// cuts stays a convex piece of an ellipse, well above).
        public var edgeCornerEllipse = 0.7

        /// The values chosen on the scene sweep.
        public init() {}
    }

    /// How blobs are found.
    public enum Method: Sendable, Hashable {
        /// The textbook's detection: the table's colour range, eroded, Canny, contours.
        case textbook(Settings)
        /// Ocular's detection: objects told apart from the table by colour and brightness, touching ones split.
        case separating(Separation)
    }

    /// How the detector separates blobs from the table.
    public let method: Method
    private let finder: Mutex<OpaquePointer>

    /// The textbook's detection with these settings.
    /// - Parameter settings: The textbook's constants.
    /// - Throws: ``OcularError/invalidArgument(_:)`` when a setting is out of its range.
    public convenience init(settings: Settings) throws(OcularError) {
        try self.init(method: .textbook(settings))
    }

    /// The detection of a profile: separating for the default, the textbook's for the textbook's.
    /// - Parameter profile: The profile.
    /// - Throws: ``OcularError/invalidArgument(_:)`` when a constant is out of its range.
    public convenience init(profile: BlobProfile = .standard) throws(OcularError) {
        try self.init(method: profile.detection)
    }

    /// Creates a detector.
    /// - Parameter method: The textbook's detection or Ocular's separating one, with its constants.
    /// - Throws: ``OcularError/invalidArgument(_:)`` when a constant is out of its range.
    public init(method: Method) throws(OcularError) {
        try refuseOutOfRange(method.constants, of: "the blob finder")
        var made: OpaquePointer?
        try OpenCV.call("blob finder") { ocular_blob_finder_create(&made, $0) }
        guard let made else { throw .openCV(operation: "blob finder", message: "not created") }
        self.method = method
        self.finder = Mutex(made)
    }

    deinit {
        finder.withLock { ocular_blob_finder_release($0) }
    }

    /// What one frame holds: its blobs, biggest first, and the background mask the search made.
    public struct Detection: Sendable {
        /// The blobs found, largest first.
        public var blobs: [Blob]
        /// 255 where the background is, at the working scale (smaller than the frame).
        public var mask: Image
    }

    /// The blobs of `image` and its mask.
    /// - Parameter image: The frame, in any format.
    /// - Returns: The blobs, largest first, and the mask they were cut from.
    /// - Throws: ``OcularError`` naming what failed and why.
    public func detect(in image: Image) throws(OcularError) -> Detection {
        switch method {
        case .textbook(let settings): try detectTextbook(in: image, settings: settings)
        case .separating(let separation): try detectSeparating(in: image, separation: separation)
        }
    }

    /// The textbook's contour tree holds each outline twice (the outside and the inside of the edge line)
    /// and the outlines of holes inside an object: every rectangle lying inside another is that
    /// object again, so only the outermost rectangles are kept, one blob per object.
    private func detectTextbook(in image: Image, settings: Settings) throws(OcularError) -> Detection {
        let frame = image.format.isYUV || image.format.channels == 2 ? try image.converted(to: .bgr8) : image
        var constants = OcularBlobSettings(
            scale: settings.scale, deviations: settings.deviations, erosionFraction: settings.erosionFraction,
            erosionIterations: Int32(clamping: settings.erosionIterations), cannyLow: settings.cannyLow,
            cannyHigh: settings.cannyHigh, minimumFraction: settings.minimumFraction)
        let (rectangles, mask) = try finder.withLock { (finder) throws(OcularError) -> ([PixelRectangle], Image) in
            var count: Int32 = 0
            try frame.withMatrix { (view) throws(OcularError) in
                try OpenCV.call("blob detection(\(frame))") { ocular_blob_finder_find(finder, view, &constants, &count, $0) }
            }
            return (Self.rectangles(of: finder, count: count), try Image(copying: ocular_blob_finder_mask(finder), format: .gray8))
        }
        var blobs: [Blob] = []
        for bounds in Self.outermost(rectangles) {
            blobs.append(Blob(image: try frame.cropped(to: bounds), bounds: bounds))
        }
        return Detection(blobs: blobs, mask: mask)
    }

    /// Each blob's picture is its rectangle with the pixels of the objects it touches replaced by the
    /// table under them, so a neighbour's colour does not enter its description.
    private func detectSeparating(in image: Image, separation: Separation) throws(OcularError) -> Detection {
        let frame = image.format == .bgr8 ? image : try image.converted(to: .bgr8)
        var constants = OcularBlobSeparationSettings(
            workingShortSide: Int32(clamping: separation.workingShortSide), darker: separation.darker, darkerOnDarkTable: separation.darkerOnDarkTable, brighter: separation.brighter,
            tint: separation.tint, persistence: separation.persistence, minimumFraction: separation.minimumFraction,
            notchDepth: separation.notchDepth, notchSolidity: separation.notchSolidity, pocketBrightness: separation.pocketBrightness,
            pocketLean: separation.pocketLean, smallestCore: separation.smallestCore, colourSigma: separation.colourSigma,
            brightnessWeight: separation.brightnessWeight, splitPersistence: separation.splitPersistence, splitMargin: separation.splitMargin,
            strongBoundary: separation.strongBoundary, mergeEllipse: separation.mergeEllipse, splitDepth: Int32(clamping: separation.splitDepth),
            coinRoundness: separation.coinRoundness, coinEdge: separation.coinEdge, coinSmallest: separation.coinSmallest, coinHalfSizeFrom: separation.coinHalfSizeFrom, coinSearchOverlap: separation.coinSearchOverlap,
            coinLargest: separation.coinLargest, coinHoughResolution: separation.coinHoughResolution, coinHoughSpacing: separation.coinHoughSpacing,
            coinOutlineSamples: Int32(clamping: separation.coinOutlineSamples), coinRimSamples: Int32(clamping: separation.coinRimSamples),
            coinCoverage: separation.coinCoverage,
            coinOverlap: separation.coinOverlap, coinRim: separation.coinRim, coinSameChroma: separation.coinSameChroma,
            coinSameBrightness: separation.coinSameBrightness, coinContinuation: separation.coinContinuation,
            coinEdgeContrast: separation.coinEdgeContrast, coinEdgeless: separation.coinEdgeless,
            coinCarve: separation.coinCarve, coinCrescentReach: separation.coinCrescentReach, carveOpening: Int32(clamping: separation.carveOpening),
            seamGradient: separation.seamGradient, wholeEllipse: separation.wholeEllipse, shadowLean: separation.shadowLean, shadowDarkest: separation.shadowDarkest,
            shadowLightest: separation.shadowLightest, shadowEllipse: separation.shadowEllipse,
            filledShare: separation.filledShare, smallPart: separation.smallPart, surfaceOutliers: separation.surfaceOutliers,
            notchReach: separation.notchReach, notchSliver: separation.notchSliver, notchRounds: Int32(clamping: separation.notchRounds),
            notchShortestOutline: Int32(clamping: separation.notchShortestOutline), notchShallowest: separation.notchShallowest,
            peakFloor: separation.peakFloor, splitPeakFloor: separation.splitPeakFloor, surfaceSide: Int32(clamping: separation.surfaceSide),
            surfaceRounds: Int32(clamping: separation.surfaceRounds), surfaceLeastPixels: Int32(clamping: separation.surfaceLeastPixels),
            surfaceClose: separation.surfaceClose, surfaceDarkest: separation.surfaceDarkest)
        return try finder.withLock { (finder) throws(OcularError) -> Detection in
            var count: Int32 = 0
            try frame.withMatrix { (view) throws(OcularError) in
                try OpenCV.call("blob separation(\(frame))") { ocular_blob_finder_separate(finder, view, &constants, &count, $0) }
            }
            let rectangles = Self.rectangles(of: finder, count: count)
            var blobs: [Blob] = []
            for (index, bounds) in rectangles.enumerated() {
                var mask = try Image(width: bounds.width, height: bounds.height, format: .gray8, filledWith: [0])
                var brightness = 0.0
                let picture = try Image.filledByOpenCV(width: bounds.width, height: bounds.height, format: .bgr8) { (output) throws(OcularError) in
                    try frame.withMatrix { (input) throws(OcularError) in
                        try mask.withMutableMatrix { (own) throws(OcularError) in
                            try OpenCV.call("isolating blob \(index)") { ocular_blob_finder_isolate(finder, input, Int32(index), output, own, &brightness, $0) }
                        }
                    }
                }
                blobs.append(Blob(image: picture, bounds: bounds, mask: mask, tableBrightness: brightness))
            }
            blobs.sort(by: Blob.biggestFirst)
            return Detection(blobs: blobs, mask: try Image(copying: ocular_blob_finder_mask(finder), format: .gray8))
        }
    }

    private static func rectangles(of finder: OpaquePointer, count: Int32) -> [PixelRectangle] {
        guard count > 0 else { return [] }
        var found = [OCVRectangle](repeating: OCVRectangle(), count: Int(count))
        found.withUnsafeMutableBufferPointer { ocular_blob_finder_rectangles(finder, $0.baseAddress!, count) }
        return found.map { PixelRectangle(x: Int($0.x), y: Int($0.y), width: Int($0.width), height: Int($0.height)) }
    }

    /// The rectangles not inside another, biggest first (equal ones once).
    static func outermost(_ rectangles: [PixelRectangle]) -> [PixelRectangle] {
        let bySize = rectangles.sorted { $0.area != $1.area ? $0.area > $1.area : ($0.y, $0.x) < ($1.y, $1.x) }
        var kept: [PixelRectangle] = []
        for rectangle in bySize where !kept.contains(where: { $0.contains(rectangle) }) {
            kept.append(rectangle)
        }
        return kept
    }
}

extension BlobDetector.Method {
    /// Every constant with the range in which it means what its documentation says, so that a wrong
    /// value is refused by name instead of showing up as odd blobs (a tint of 2 finds nothing, a
    /// `darker` above 1 takes the whole table in, NaN compares false everywhere).
    var constants: [RangedConstant] {
        switch self {
        case .textbook(let settings):
            [("scale", settings.scale, 0.01...1), ("deviations", settings.deviations, 0...100),
             ("erosionFraction", settings.erosionFraction, 0...0.5), ("erosionIterations", Double(settings.erosionIterations), 0...100),
             ("cannyLow", settings.cannyLow, 0...settings.cannyHigh.clampedForRange), ("cannyHigh", settings.cannyHigh, 0...10_000),
             ("minimumFraction", settings.minimumFraction, 0...1)]
        case .separating(let separation):
            [("workingShortSide", Double(separation.workingShortSide), 32...8192),
             ("darker", separation.darker, 0...1), ("darkerOnDarkTable", separation.darkerOnDarkTable, 0...1),
             ("brighter", separation.brighter, 1...100), ("tint", separation.tint, 0...1),
             ("persistence", separation.persistence, 0...1), ("minimumFraction", separation.minimumFraction, 0...1),
             ("notchDepth", separation.notchDepth, 0...1), ("notchSolidity", separation.notchSolidity, 0...1),
             ("notchReach", separation.notchReach, 0...100), ("notchSliver", separation.notchSliver, 0...1),
             ("notchRounds", Double(separation.notchRounds), 0...16), ("surfaceOutliers", separation.surfaceOutliers, 0.5...100),
             ("notchShortestOutline", Double(separation.notchShortestOutline), 4...10_000),
             ("notchShallowest", separation.notchShallowest, 0...1000), ("peakFloor", separation.peakFloor, 0...1000),
             ("splitPeakFloor", separation.splitPeakFloor, 0...1000), ("surfaceSide", Double(separation.surfaceSide), 8...4096),
             ("surfaceRounds", Double(separation.surfaceRounds), 1...100), ("surfaceLeastPixels", Double(separation.surfaceLeastPixels), 6...1_000_000),
             ("surfaceClose", separation.surfaceClose, 0...1), ("surfaceDarkest", separation.surfaceDarkest, 1...255),
             ("pocketBrightness", separation.pocketBrightness, 0...1), ("pocketLean", separation.pocketLean, 0...1),
             ("smallestCore", separation.smallestCore, 0...0.5), ("colourSigma", separation.colourSigma, 0...50),
             ("brightnessWeight", separation.brightnessWeight, 0...100), ("splitPersistence", separation.splitPersistence, 0...1),
             ("splitMargin", separation.splitMargin, -1...1), ("strongBoundary", separation.strongBoundary, 0...1000),
             ("mergeEllipse", separation.mergeEllipse, 0...1), ("splitDepth", Double(separation.splitDepth), 0...16),
             ("rejoinReach", separation.rejoinReach, 0...16), ("rejoinSlack", separation.rejoinSlack, 0...1),
             ("rejoinEllipseLoss", separation.rejoinEllipseLoss, 0...1),
             ("rejoinNamedEllipseLoss", separation.rejoinNamedEllipseLoss, 0...1), ("rejoinDoubt", separation.rejoinDoubt, 0...1),
             ("rejoinShort", separation.rejoinShort, 0...1), ("edgeLongest", separation.edgeLongest, 1...100),
             ("edgeEllipse", separation.edgeEllipse, 0...1), ("edgeCornerEllipse", separation.edgeCornerEllipse, 0...1),
             ("coinRoundness", separation.coinRoundness, 0...1), ("coinEdge", separation.coinEdge, 1...10_000),
             ("coinLargest", separation.coinLargest, 0.001...0.5),
             ("coinSmallest", separation.coinSmallest, 0.001...separation.coinLargest.clampedForRange),
             ("coinHoughResolution", separation.coinHoughResolution, 1...4), ("coinHoughSpacing", separation.coinHoughSpacing, 1...1000),
             ("coinOutlineSamples", Double(separation.coinOutlineSamples), 8...3600), ("coinRimSamples", Double(separation.coinRimSamples), 2...100),
             ("coinHalfSizeFrom", separation.coinHalfSizeFrom, 0...1),
             ("coinSearchOverlap", separation.coinSearchOverlap, 1...2), ("coinCoverage", separation.coinCoverage, 0...1),
             ("coinOverlap", separation.coinOverlap, 0...2), ("coinRim", separation.coinRim, 0...0.5),
             ("coinSameChroma", separation.coinSameChroma, 0...1), ("coinSameBrightness", separation.coinSameBrightness, 0...100),
             ("coinContinuation", separation.coinContinuation, 0...1), ("coinEdgeContrast", separation.coinEdgeContrast, 0...10_000),
             ("coinEdgeless", separation.coinEdgeless, 0...1), ("coinCarve", separation.coinCarve, 1...2),
             ("coinCrescentReach", separation.coinCrescentReach, 1...4), ("carveOpening", Double(separation.carveOpening), 0...32),
             ("seamGradient", separation.seamGradient, 0...1000), ("wholeEllipse", separation.wholeEllipse, 0...1), ("filledShare", separation.filledShare, 0...1),
             ("smallPart", separation.smallPart, 0...100),
             ("shadowLean", separation.shadowLean, 0...1), ("shadowDarkest", separation.shadowDarkest, 0...1),
             ("shadowLightest", separation.shadowLightest, 0...1), ("shadowEllipse", separation.shadowEllipse, 0...2)]
                + separation.cutout.constants.map { ("cutout." + $0.name, $0.value, $0.range) }
        }
    }
}

/// A constant of an algorithm, with the range in which it means what its documentation says.
typealias RangedConstant = (name: String, value: Double, range: ClosedRange<Double>)

/// Refuses the first constant outside its range, by name: "the blob finder's darker is 1.5; it must lie in 0.0…1.0".
/// - Parameters:
///   - constants: The constants.
///   - owner: Whose constants they are, as the message names it.
/// - Throws: ``OcularError/invalidArgument(_:)`` for the first constant out of its range (NaN is never in one).
func refuseOutOfRange(_ constants: [RangedConstant], of owner: String) throws(OcularError) {
    for constant in constants where !constant.range.contains(constant.value) {
        throw .invalidArgument("\(owner)'s \(constant.name) is \(constant.value); it must lie in \(constant.range.lowerBound)…\(constant.range.upperBound)")
    }
}

extension Double {
    /// An upper bound a range can be built on: a NaN or negative `cannyHigh` is refused on its own line.
    var clampedForRange: Double { isNaN || self < 0 ? 0 : self }
}
