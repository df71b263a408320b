/// Every number face detection uses, in one place. ``textbook`` is the book's pipeline exactly; ``standard`` is
/// Ocular's default, which differs only where it was measured better on both recall/precision and
/// speed (see Benchmarks/FacesMeasured.md and `make bench`).
public struct FaceDetectionProfile: Sendable, Hashable {
    /// The profile's name as the CLI and the `faces` stage spell it.
    public var name: String
    /// Detection runs on a copy of the frame scaled by this (0.5: a quarter of the pixels).
    public var detectionScale: Double
    /// But never so small that the copy's short side falls below this many pixels (0: no floor):
    /// halving a 480 × 360 frame leaves a face a fifth of its height too few pixels for the cascade.
    public var minimumDetectionShortSide: Int
    /// When set, the copy's short side in pixels whatever the frame's size (never enlarged), instead
    /// of `detectionScale`: the smallest face sought then has the same pixels in every frame.
    public var detectionShortSide: Int?
    /// The detection copy is also searched turned by each of these angles (degrees): the frontal
    /// cascades find faces tilted by up to about ±10°, so ±15° covers heads tilted up to ±25°.
    public var tilts: [Double]
    /// A grey border this fraction of the copy's short side wide around it: a face the frame's edge
    /// cuts off then still has room for the cascade's window.
    public var edgeMargin: Double
    /// How the gray copy's contrast is spread before the cascades see it.
    public var equalization: Equalization
    /// Haar cascades, or the LBP variants (faster, a little less reliable) for the faces.
    public var cascadeKind: CascadeKind
    /// How human faces are searched for.
    public var humanFaces: CascadeSearch
    /// Relative to the face's width rather than the image's short side.
    public var eyes: CascadeSearch
    /// Which rows of the face the eyes are sought in, as fractions of its height (the textbook: all).
    public var eyeRows: ClosedRange<Double>
    /// The largest eye box, as a fraction of the face's width; nil for no bound.
    public var largestEye: Double?
    /// `nil`: cats are not searched.
    public var catFaces: CascadeSearch?
    /// Eyes and mouth are searched in the face's own gray copy at this width, cut from the full frame;
    /// nil searches them in the detection copy, as the textbook does (where a face a fifth of a
    /// 640-pixel frame high leaves eyes too small for the eye cascades' 20-pixel window).
    public var landmarkFaceWidth: Int?
    /// Searches the lower face for a mouth, and whether it smiles (one more cascade run per face).
    public var findsMouth: Bool
    /// The cat cascade also searches shrunken copies inside grey borders, and a box counts where
    /// several agree: a cat whose face fills the frame, or whose ears the frame cuts off, or that
    /// leans, gets few windows from the cascade (trained on whole upright heads) at any one size.
    /// A still gets every such search; a stream looks for a cat filling the frame now and then.
    public var findsCatsByVote: Bool
    /// Follows faces from frame to frame in a stream instead of searching every whole frame.
    public var tracking: Tracking?
    /// The least share of a cat box's pixels that are edges (Canny 50/150 on a 64 × 64 gray copy of the
    /// box): fur gives edges all over a cat's face (0.21 dimmed to 0.31 on the sweep's cat frames), a
    /// table or a wall with a few things on it almost none (0.06 for the demo's coins-and-beans still,
    /// where two coins and a bean make a cat's eyes and nose for the cat cascade). 0: no check.
    public var leastCatEdges: Double = 0
    /// Human faces found by a network instead of the human cascade (nil: the cascade); cats stay the
    /// cat cascade's. Without the model's file the cascades search, and the detector says so once.
    public var network: NetworkSearch?
    /// A second network that rules on the first one's unsure faces (nil: the first one's threshold decides alone).
    public var networkCheck: NetworkCheck? = nil
    /// Where a face's parts lie when they are placed by proportion, and what makes a mouth and a smile.
    public var layout = Layout()
    /// A cat box lying at least this fraction inside a bigger one is a part of it, not a cat: the cat
    /// cascade takes a close-up cat's nose and mouth for a small face, wholly inside the real one,
    /// and cat faces do not nest.
    public var nestedCatFace = 0.7
    /// A network's face that a cat window covers this well (IoU, the window against the face's box) is
    /// that cat's: the face networks score many cats' faces as people's.
    public var catOverNetworkFace = 0.4
    /// The cat searches by vote (shrunk, bordered copies): a box counts where enough agree at this
    /// IoU …
    public var catVoteAgreement = 0.5
    /// … and a box this close to a counted cat (IoU) is that cat again.
    public var sameCat = 0.3
    /// The vote for one cat filling the frame (0.6 to 1.25 of its short side), cheaply: what a still
    /// runs when nothing else was found, and what streams follow such a cat with.
    public var catVoteFillingTheFrame = CatVote(shortSides: [48, 56, 64, 72], borders: [0.25, 0.5], votes: 3, smallest: 0.6,
                                                fillsTheFrame: true)
    /// The vote for cats of any size (about 0.24 s at 1280×720), a still's: chosen on the sweep's cat
    /// frames, where it finds 20 of 22 with no false box (with the Haar cat cascade; 19 with LBP's).
    public var catVoteAnywhere = CatVote(shortSides: [64, 80, 100, 125, 160, 200], borders: [0.25, 0.5], votes: 4, smallest: 0)

    /// Cats sought by vote. The cat cascade, trained on whole heads, answers a face whose ears the
    /// frame cuts off (or that fills it) only weakly and only at some sizes; so the gray frame is
    /// shrunk to each of ``shortSides``, put inside grey borders of each of ``borders`` that give room
    /// where ears would be, and searched with few neighbours; a box counts where at least ``votes``
    /// of the searches agree on it (IoU ≥ ``FaceDetectionProfile/catVoteAgreement``), averaged over them.
    public struct CatVote: Sendable, Hashable {
        /// The short sides, in pixels, the gray frame is shrunk to, one search each (a frame already
        /// that small is not searched at that side).
        public var shortSides: [Int]
        /// The grey borders each shrunk copy is searched inside, as fractions of its short side.
        public var borders: [Double]
        /// How many of the searches must agree on a box for it to count.
        public var votes: Int
        /// The cascade's scale step in each search.
        public var scaleStep = 1.05
        /// The cascade's neighbours in each search: few, as the vote does the work of rejecting.
        public var minimumNeighbours = 2
        /// The smallest box sought, as a fraction of the shrunk copy's short side (0: the cascade's window).
        public var smallest: Double
        /// The largest box sought, as a fraction of the shrunk copy's short side: past the copy's
        /// edge into its border, where a cut-off cat's ears would be.
        public var largest = 1.25
        /// Looks for one cat filling the frame: run only when nothing else was found.
        public var fillsTheFrame = false

        /// A vote.
        /// - Parameters:
        ///   - shortSides: The short sides the frame is shrunk to.
        ///   - borders: The grey borders, as fractions of the short side.
        ///   - votes: The searches that must agree.
        ///   - smallest: The smallest box sought, as a fraction of the short side.
        ///   - fillsTheFrame: Whether it looks for one cat filling the frame.
        public init(shortSides: [Int], borders: [Double], votes: Int, smallest: Double, fillsTheFrame: Bool = false) {
            self.shortSides = shortSides
            self.borders = borders
            self.votes = votes
            self.smallest = smallest
            self.fillsTheFrame = fillsTheFrame
        }
    }

    /// A face's parts by proportion (fractions of the face's box, x from the viewer's left, y down),
    /// and the smile cascade's thresholds. The same for every profile: they describe faces, not a search.
    public struct Layout: Sendable, Hashable {
        /// A cat's face box, as the Cat Dataset draws it (from the higher ear tip to just below the mouth,
        /// across the eyes, mouth and ear bases), within the cat cascade's square window, which runs from
        /// the brows to the chin: the box's centre, as fractions of the window. Fitted on the tuned real
        /// cats (CatPhotoEvaluation holds the fit), so that a found cat is boxed as a labelled one is.
        public var catFaceCentre = Point(x: 0.5, y: 0.24)
        /// The cat's face box's width, as a fraction of the cascade's window.
        public var catFaceWidth = 0.96
        /// The cat's face box's height, as a fraction of the cascade's window.
        public var catFaceHeight = 1.1
        /// A cat's eyes, nose and mouth, which the cat cascade does not find: where they lie in the cat's
        /// face box, as the medians of the tuned real cats' landmarks say (the nose, which is not labelled,
        /// two thirds of the way from the eyes to the mouth).
        public var catLeftEye = Point(x: 0.29, y: 0.64)
        /// The cat's right eye (the viewer's right).
        public var catRightEye = Point(x: 0.74, y: 0.65)
        /// The cat's nose.
        public var catNose = Point(x: 0.51, y: 0.85)
        /// The cat's mouth.
        public var catMouth = Point(x: 0.52, y: 0.94)
        /// A human eye the eye cascade missed: at this height, this far across for the left eye and
        /// for the right (the eyes of a frontal face sit about 0.3 and 0.7 across, 0.4 down).
        public var missedLeftEye = Point(x: 0.3, y: 0.4)
        /// A missed right eye (the viewer's right).
        public var missedRightEye = Point(x: 0.7, y: 0.4)
        /// The centre of an eye within the eye cascade's box: its box takes in the brow above the eye.
        public var eyeInBox = Point(x: 0.5, y: 0.65)
        /// The nose tip lies this fraction of the face's height from between the eyes, along the
        /// normal of the line through them (so it follows a tilted head).
        public var noseDrop = 0.2
        /// The smile cascade runs on the face shrunk to this width: its 36 × 18 window fits a mouth
        /// there, and one run costs a fifth of what it does at the eyes' 100 pixels.
        public var mouthFaceWidth = 72
        /// How many overlapping windows (scale step 1.2, at ``mouthFaceWidth``) make a mouth, and how
        /// many a smile. Measured: astronaut.png's broad smile gathers 17 (9 at 64 pixels, 21 at 90);
        /// the bearded man of Piggy.png, whose mouth the beard hides, none. The shared data has no
        /// closed, visible mouth to set the smile threshold against more finely.
        public var mouthNeighbours = 4
        /// … and how many a smile.
        public var smileNeighbours = 12

        /// The layout measured on the shared data's faces.
        public init() {}

        /// The cat's face box for the cat cascade's `window` (any coordinates).
        /// - Parameter window: The window the cat cascade matched.
        /// - Returns: The face box, in the window's coordinates.
        public func catFace(inWindow window: PixelRectangle) -> PixelRectangle {
            let side = Double(window.width), tall = Double(window.height)
            let width = catFaceWidth * side, height = catFaceHeight * tall
            return PixelRectangle(x: Int((Double(window.x) + catFaceCentre.x * side - width / 2).rounded()),
                                  y: Int((Double(window.y) + catFaceCentre.y * tall - height / 2).rounded()),
                                  width: Int(width.rounded()), height: Int(height.rounded()))
        }

        /// The cascade's square window for a cat's face box that the frame may have cut: placed by the
        /// box's width and bottom, as the ear tips above are what a frame cuts first.
        /// - Parameter face: A cat's face box, as ``catFace(inWindow:)`` gives it.
        /// - Returns: The window, in the face box's coordinates.
        public func catWindow(ofFace face: PixelRectangle) -> PixelRectangle {
            let side = Double(face.width) / catFaceWidth
            let bottom = Double(face.y + face.height) - (catFaceCentre.y + catFaceHeight / 2) * side
            let centreX = Double(face.x) + Double(face.width) / 2
            return PixelRectangle(x: Int((centreX - catFaceCentre.x * side).rounded()), y: Int(bottom.rounded()),
                                  width: Int(side.rounded()), height: Int(side.rounded()))
        }
    }

    /// How a face network searches a picture.
    public struct NetworkSearch: Sendable, Hashable {
        /// The network.
        public var model: FaceNetworkModel
        /// The picture is shrunk (never enlarged) until its long side is at most this many pixels, then
        /// each side rounded up to a multiple of 32 for the network: the smallest face found shrinks with it.
        public var longestSide: Int
        /// The least heat-map score that is a face (0…1): the face's confidence.
        public var threshold: Double
        /// Boxes overlapping by this IoU or more are one face.
        public var overlap: Double
        /// The network boxes a face from forehead to chin; the cascades and the labels box it square,
        /// from above the brows to below the mouth. A network box becomes a square this many times its
        /// width wide, centred `boxRise` of its height above its own centre.
        public var boxScale: Double
        /// How far the square's centre sits above the network box's, as a fraction of its height.
        public var boxRise: Double
        /// A stream follows a face by running the network on the square around it, `margin` of the
        /// face's size on each side, shrunk to this many pixels a side (a multiple of 32).
        public var followSide: Int
        /// The long side of the whole searches of a stream that skip small faces (three in four, see
        /// ``Tracking/largeFacesOnly``): a quarter of the pixels, for faces from about 40 pixels at 720p.
        /// The default's 640 finds 207 of the sweep's 210 faces of 0.12–0.8 of the frame, as 512 does;
        /// 448 finds 205, 384 199 (`make eval`); 512 and 384 gave the motion sweep 12 false boxes to 640's 9.
        public var streamLongestSide: Int

        /// Creates network settings.
        /// - Parameters:
        ///   - model: The network's model.
        ///   - longestSide: The longest side of the picture the network sees.
        ///   - threshold: The least score that is a face.
        ///   - overlap: The IoU at which two boxes are one face.
        ///   - boxScale: The square box's side as a multiple of the network box's width.
        ///   - boxRise: How far the square's centre sits above the network box's, as a fraction of its height.
        ///   - followSide: The side of the square a followed face is searched in.
        ///   - streamLongestSide: The long side of a stream's whole searches for large faces.
        public init(model: FaceNetworkModel, longestSide: Int, threshold: Double, overlap: Double, boxScale: Double, boxRise: Double,
                    followSide: Int, streamLongestSide: Int) {
            self.model = model
            self.longestSide = longestSide
            self.threshold = threshold
            self.overlap = overlap
            self.boxScale = boxScale
            self.boxRise = boxRise
            self.followSide = followSide
            self.streamLongestSide = streamLongestSide
        }
    }

    /// How the gray copy is equalised.
    public enum Equalization: String, Sendable, Hashable, CaseIterable {
        /// cv::equalizeHist over the whole image.
        case histogram
        /// Contrast-limited adaptive equalisation (clip 2, 8 × 8 tiles): keeps a backlit face's detail.
        case clahe
        /// None: the cascades normalise each window's contrast themselves, and equalising a whole frame
        /// that is mostly a plain wall stretches a small face's grey levels out of shape.
        case none
    }

    /// Which kind of cascade a search uses.
    public enum CascadeKind: String, Sendable, Hashable, CaseIterable {
        /// Haar features (OpenCV's `haarcascade_*`) or local binary patterns (`lbpcascade_*`).
        case haar, lbp
    }

    /// One cascade's detectMultiScale parameters.
    public struct CascadeSearch: Sendable, Hashable {
        /// How much bigger each pyramid step looks (1.4 is coarse and fast, 1.1 fine and slow).
        public var scaleStep: Double
        /// How many overlapping windows must agree on an object.
        public var minimumNeighbours: Int
        /// The smallest object, as a fraction of the searched image's short side (eyes: of the face's width).
        public var minimumSize: Double
        /// Boxes of the several searches (tilts) that overlap are one object, kept when their
        /// neighbours add up to at least this (0: every box is kept).
        public var minimumVotes: Int
        /// … "overlap": at least this IoU with the strongest box. A face found upright and at a tilt
        /// gives boxes turned against each other, which overlap well short of 1; the sweep's figures
        /// were measured with 0.3.
        public var sameObject = 0.3

        /// Creates a search.
        /// - Parameters:
        ///   - scaleStep: The factor between the scales searched.
        ///   - minimumNeighbours: How many overlapping windows must agree.
        ///   - minimumSize: The smallest face, as a fraction of the image's short side.
        ///   - minimumVotes: The fewest votes a face needs after grouping.
        public init(scaleStep: Double, minimumNeighbours: Int, minimumSize: Double, minimumVotes: Int = 0) {
            self.scaleStep = scaleStep
            self.minimumNeighbours = minimumNeighbours
            self.minimumSize = minimumSize
            self.minimumVotes = minimumVotes
        }
    }

    /// Between whole-frame searches, each face is searched again only around where it was, at a
    /// working size where it is `workingFaceSize` pixels wide: a few hundred windows instead of tens
    /// of thousands.
    public struct Tracking: Sendable, Hashable {
        /// While faces are followed, the whole frame is searched again every this many frames (new faces).
        public var searchEveryWhileTracking: Int
        /// While no face is followed, the whole frame is searched every this many frames.
        public var searchEveryWhileLost: Int
        /// How far around the last box to look, as a fraction of the face's size on each side.
        public var margin: Double
        /// The face's width in the working copy the local search runs on.
        public var workingFaceSize: Int
        /// The local search's pyramid step, between 0.75 and 1.33 of the face's last size.
        public var scaleStep: Double
        /// Whole searches of a stream look only for faces at least this big (a fraction of the
        /// search image's short side, like ``CascadeSearch/minimumSize``), for humans and cats alike,
        /// except every `smallFacesEvery`-th, which goes down to the profile's own sizes: the smallest
        /// faces cost most of a search, and a stream can wait a few searches for them.
        public var largeFacesOnly: LargeFaces?
        /// Between the cascade's looks at a followed face, it is moved by the optical flow of the
        /// corners inside it (nil: the cascade looks every frame).
        public var flow: Flow?

        /// How faces are moved by optical flow between the cascade's looks.
        public struct Flow: Sendable, Hashable {
            /// The face's width in the gray copies the flow is measured in.
            public var faceWidth: Int
            /// The cascade looks for each followed face again every this many frames: the flow follows
            /// what moves, the cascade says whether it is still a face and sets its size and landmarks.
            public var checkEvery: Int
            /// With fewer corners than this followed there and back, the cascade looks at once.
            public var minimumPoints: Int
            /// A followed box whose short side is under this fraction of its long side has been cut by
            /// the frame's edge (a face's box is about square): a face leaving, which a whole search
            /// ends rather than the flow carrying a sliver of it on.
            public var leastUncutAspect: Double

            /// Creates the flow settings.
            /// - Parameters:
            ///   - faceWidth: The width faces are scaled to for optical flow.
            ///   - checkEvery: How many frames between checks that a followed face is still a face.
            ///   - minimumPoints: The fewest points that must follow for the face to be kept.
            ///   - leastUncutAspect: The narrowest box, short side over long, not taken as cut by the frame's edge.
            public init(faceWidth: Int, checkEvery: Int, minimumPoints: Int, leastUncutAspect: Double = 0.75) {
                self.faceWidth = faceWidth
                self.checkEvery = checkEvery
                self.minimumPoints = minimumPoints
                self.leastUncutAspect = leastUncutAspect
            }

            /// Whether `box` looks cut by the frame's edge (see ``leastUncutAspect``).
            func isCut(_ box: PixelRectangle) -> Bool {
                Double(min(box.width, box.height)) < leastUncutAspect * Double(max(box.width, box.height))
            }
        }

        /// The sizes most whole searches of a stream keep to.
        public struct LargeFaces: Sendable, Hashable {
            /// The smallest human face searched for, as a fraction of the frame's short side.
            public var smallestHuman: Double
            /// The smallest cat face searched for, as a fraction of the frame's short side.
            public var smallestCat: Double
            /// How many frames between full searches for small faces.
            public var smallFacesEvery: Int
            /// Those searches run on a copy this many pixels on its short side (nil: the profile's
            /// ``FaceDetectionProfile/detectionShortSide``): the smallest face they seek needs fewer
            /// pixels than the profile's smallest.
            public var shortSide: Int?

            /// Creates the large-face settings.
            /// - Parameters:
            ///   - smallestHuman: The smallest human face, as a fraction of the short side.
            ///   - smallestCat: The smallest cat face, as a fraction of the short side.
            ///   - smallFacesEvery: Frames between full searches.
            ///   - shortSide: The frame's short side these were chosen for, if any.
            public init(smallestHuman: Double, smallestCat: Double, smallFacesEvery: Int, shortSide: Int? = nil) {
                self.smallestHuman = smallestHuman
                self.smallestCat = smallestCat
                self.smallFacesEvery = smallFacesEvery
                self.shortSide = shortSide
            }
        }

        /// Creates tracking settings.
        /// - Parameters:
        ///   - searchEveryWhileTracking: Frames between searches while faces are followed.
        ///   - searchEveryWhileLost: Frames between searches while none is.
        ///   - margin: How far around a followed face the next search looks, as a fraction of its size.
        ///   - workingFaceSize: The size faces are scaled to before searching near them.
        ///   - scaleStep: The cascade's scale step near followed faces.
        ///   - largeFacesOnly: Settings for searching only large faces on most frames.
        ///   - flow: Optical-flow settings.
        public init(searchEveryWhileTracking: Int, searchEveryWhileLost: Int, margin: Double, workingFaceSize: Int, scaleStep: Double,
                    largeFacesOnly: LargeFaces? = nil, flow: Flow? = nil) {
            self.largeFacesOnly = largeFacesOnly
            self.flow = flow
            self.searchEveryWhileTracking = searchEveryWhileTracking
            self.searchEveryWhileLost = searchEveryWhileLost
            self.margin = margin
            self.workingFaceSize = workingFaceSize
            self.scaleStep = scaleStep
        }
    }

    /// The textbook's pipeline: half size, equalised histogram, humans 1.4 / 4 / 0.25, eyes
    /// 1.2 / 2 / 0.1, cats 1.4 / 6 / 0.2; every frame searched whole; no mouth, no cats by vote.
    public static let textbook = FaceDetectionProfile(
        name: "textbook",
        detectionScale: 0.5,
        minimumDetectionShortSide: 0,
        detectionShortSide: nil,
        tilts: [],
        edgeMargin: 0,
        equalization: .histogram,
        cascadeKind: .haar,
        humanFaces: CascadeSearch(scaleStep: 1.4, minimumNeighbours: 4, minimumSize: 0.25),
        eyes: CascadeSearch(scaleStep: 1.2, minimumNeighbours: 2, minimumSize: 0.1),
        eyeRows: 0...1,
        largestEye: nil,
        catFaces: CascadeSearch(scaleStep: 1.4, minimumNeighbours: 6, minimumSize: 0.2),
        landmarkFaceWidth: nil,
        findsMouth: false,
        findsCatsByVote: false,
        tracking: nil,
        network: nil)

    /// Ocular's default: ``cascades`` with people's faces found by YuNet over the whole frame
    /// (``FaceNetworkModel/yuNet``), its unsure faces checked by CenterFace (``FaceNetworkModel/centerFace``)
    /// around each (``NetworkCheck``). Chosen on the group scenes of the sweep (figures in the
    /// Benchmarks/FacesMeasured.md): it finds faces from 24 pixels at 720p, turned heads and tilts without
    /// extra searches, and gives eyes, nose and mouth for every face, at YuNet's speed with
    /// CenterFace's precision. Cats stay the cascades'. Without YuNet's file it is ``centerFace``;
    /// without CenterFace's, ``yuNet``; without either, ``cascades``.
    public static let standard: FaceDetectionProfile = {
        var profile = yuNet
        profile.name = "default"
        // `sure` was chosen on the tuned group scenes and the sweep's cat and tilt frames: YuNet's false
        // boxes there, each of those on a cat among them, score under 0.9 but for 4 (of 204 boxes over
        // 0.9), and its faces from 0.77 up. Those faces do not set the floor: 0.3 was set with the held-apart
        // scenes' misses in view (YuNet scored them from 0.33), so their figures at that floor are not
        // blind. About 3 checks a frame (at most 10) on the group scenes.
        // The landmarks: on the sweep's tilted heads (±5…25°, known exactly), YuNet's eye line is 5.1° off
        // on average (up to 18°: it turns 25° into 37° or 44°), CenterFace's over the whole frame 1.6°.
        // CenterFace's, run on a 256-pixel square around each face whose YuNet eye line is turned 5° or
        // more (15 % of the group scenes' faces), leave the default 2.4° off; on the check's 96-pixel
        // square they were no better than 2.4° even for every face (2.9° from 5°, 2.8° from 3°).
        profile.networkCheck = NetworkCheck(network: centerFace.network!, candidates: 0.3, sure: 0.9, margin: 0.5, turnedEyes: 5,
                                            landmarkSide: 256)
        return profile
    }()

    /// ``cascades`` with people's faces found by CenterFace alone: the default of Ocular 1.x (issue 57),
    /// measured beside the default in `make eval`.
    public static let centerFace: FaceDetectionProfile = {
        var profile = cascades
        profile.name = "centerface"
        profile.network = NetworkSearch(model: .centerFace, longestSide: 1280, threshold: 0.4, overlap: 0.3, boxScale: 1.1, boxRise: 0.05,
                                        followSide: 96, streamLongestSide: 640)
        // A check is one network run (about 3.4 ms at 96 × 96, 2.2 at 64, more its layers' cost than its
        // pixels'), so a group of twelve checked every 5th frame spent more on checks than on everything
        // else a frame does; the flow holds a face for 10 frames as well as for 5 (motion sweep: 676 of
        // 676 found, 9 false boxes, either way). A 64-pixel square is not enough: a large face shrunk to
        // 32 pixels there is boxed loosely, and the motion sweep lost 59 of 676.
        profile.tracking?.flow?.checkEvery = 10
        return profile
    }()

    /// ``cascades`` with people's faces found by YuNet alone (``FaceNetworkModel/yuNet``): OpenCV's own
    /// face network, a twentieth of CenterFace's size. Measured beside the default in `make eval`.
    public static let yuNet: FaceDetectionProfile = {
        var profile = centerFace
        profile.name = "yunet"
        // The box, chosen on the sweep's tuned frames (the held-apart group scenes not looked at): the labels'
        // square is 1.22 times YuNet's box's width on the single faces (229), 1.07 on the tuned group scenes
        // (200), as their sources draw faces more or less tightly; 1.2 finds the most of both together
        // (IoU ≥ 0.5: 428 of 429), which 1.07 (0.85 of the single faces) and 1.25 (0.955 of the groups)
        // do not. Centred 4.4 % of the box's height above its centre (the groups' median; the finds do not
        // change between 0 and 10 %). Every labelled face scored ≥ 0.77 (the tuned group scenes), and 8
        // of the 15 false boxes over 0.6 scored under 0.75.
        profile.network = NetworkSearch(model: .yuNet, longestSide: 1280, threshold: 0.75, overlap: 0.3, boxScale: 1.2, boxRise: 0.044,
                                        followSide: 96, streamLongestSide: 640)
        return profile
    }()

    /// Ocular's cascades, chosen on the robustness sweep: the default before the face network, and
    /// what the default falls back to without the network's file (`FaceSweep`; figures in the
    /// Benchmarks/FacesMeasured.md). Against the textbook: the detection copy is 320 pixels on its short side
    /// whatever the frame (faces down to 0.08 of it keep 25 pixels); no equalisation (the cascades
    /// normalise each window, and equalising a frame that is mostly wall wrecks a small face); human
    /// faces in scale steps of 1.1, also searched turned by ±15° and inside a grey margin a tenth of
    /// the short side wide (tilted heads, faces cut off by the frame's edge), where one face's boxes
    /// must gather 6 neighbours between the searches; eyes searched in a 90-pixel-wide upright copy
    /// of each face, in its rows 0.15…0.55 and no wider than 0.3 of it; mouth and smile; cats by
    /// vote; and, in streams, tracking (the whole frame searched again every 30 frames, three times
    /// in four for faces from 0.12 only on a 240-pixel copy; faces moved by optical flow, the cascade
    /// looking for each again every 5th frame where it is 48 pixels wide), which pays for the finer search.
    public static let cascades = FaceDetectionProfile(
        name: "cascades",
        detectionScale: 0.5,
        minimumDetectionShortSide: 0,
        detectionShortSide: 320,
        tilts: [-15, 15],
        edgeMargin: 0.1,
        equalization: .none,
        cascadeKind: .haar,
        humanFaces: CascadeSearch(scaleStep: 1.1, minimumNeighbours: 2, minimumSize: 0.08, minimumVotes: 8),
        eyes: CascadeSearch(scaleStep: 1.2, minimumNeighbours: 2, minimumSize: 0.1),
        eyeRows: 0.15...0.55,
        largestEye: 0.3,
        catFaces: CascadeSearch(scaleStep: 1.1, minimumNeighbours: 3, minimumSize: 0.15, minimumVotes: 6),
        landmarkFaceWidth: 90,
        findsMouth: true,
        findsCatsByVote: true,
        tracking: Tracking(searchEveryWhileTracking: 30, searchEveryWhileLost: 5, margin: 0.5, workingFaceSize: 48, scaleStep: 1.1,
                           largeFacesOnly: .init(smallestHuman: 0.12, smallestCat: 0.3, smallFacesEvery: 4, shortSide: 240),
                           flow: .init(faceWidth: 48, checkEvery: 5, minimumPoints: 8)),
        leastCatEdges: 0.1,
        network: nil)

    /// Every turn a human search is made at: upright first, then each of ``tilts``.
    var turns: [Double] { [0] + tilts }

    /// The named profiles, as `--profile` and the stage's choice list them.
    public enum Name: String, ParameterChoice {
        /// Ocular's profile: YuNet for people, checked by CenterFace where unsure; the cascades for cats.
        case standard = "default"
        /// The default with YuNet alone for people.
        case yunet
        /// The default with CenterFace alone for people (Ocular 1.x's default).
        case centerface
        /// Ocular's cascades alone, as before the face network.
        case cascades
        /// The textbook's profile.
        case textbook

        /// The profile this name stands for.
        public var profile: FaceDetectionProfile {
            switch self {
            case .standard: .standard
            case .yunet: .yuNet
            case .centerface: .centerFace
            case .cascades: .cascades
            case .textbook: .textbook
            }
        }

        public var title: String {
            switch self {
            case .standard: "Ocular (face networks, tracked)"
            case .yunet: "Ocular with YuNet alone (tracked)"
            case .centerface: "Ocular with CenterFace alone (tracked)"
            case .cascades: "Ocular cascades (finer, tracked)"
            case .textbook: "Textbook"
            }
        }
    }

    /// The named profiles, in the order ``Name`` lists them.
    public static let all = Name.allCases.map(\.profile)

    /// The profile of that name.
    /// - Parameter name: `default`, `yunet`, `centerface`, `cascades` or `textbook`.
    /// - Returns: The profile, or nil for another name.
    public static func named(_ name: String) -> FaceDetectionProfile? {
        Name(rawValue: name)?.profile
    }
}
