// swift-tools-version:6.1
import PackageDescription

// OpenCV 4 comes from the system through pkg-config's `opencv4` (the COpenCV system-library target: Debian's
// libopencv-dev and libopencv-contrib-dev, Homebrew's opencv), so a package that depends on Ocular by version
// builds it without unsafe flags.
//
// pkg-config names all 55 OpenCV libraries, and loading them all (Qt, VTK, HDF5 and Tesseract come with some)
// costs ~0.1 s at every process start. Ocular's own executables therefore link only the libraries their code
// calls: on Linux through --as-needed, which must come before the libraries, where only a clang configuration
// file puts it (swiftc places -Xlinker flags after them); on macOS through ld64's -dead_strip_dylibs. A client's
// executable may do the same: unsafe flags on a root package's own targets are allowed.
let linksOnlyWhatItCalls: [LinkerSetting] = [
    .unsafeFlags(["-Xclang-linker", "--config=\(Context.packageDirectory)/scripts/link-as-needed.cfg"], .when(platforms: [.linux])),
    .unsafeFlags(["-Xlinker", "-dead_strip_dylibs"], .when(platforms: [.macOS])),
]

// The PNGMessages target's functions stand in for libpng's only where the executable exports them: ELF's
// dynamic linker then finds them before libpng's. (Mach-O's two-level namespaces bind OpenCV's calls to
// libpng itself; there libpng keeps printing.)
let exportsPNGMessages: [LinkerSetting] = [
    .unsafeFlags(["-Xlinker", "--export-dynamic-symbol=png_create_read_struct", "-Xlinker", "--export-dynamic-symbol=png_create_write_struct"],
                 .when(platforms: [.linux])),
]

let package = Package(
    name: "Ocular",
    platforms: [.macOS(.v15)],
    products: [
        // Images, stages and recipes, faces, blobs, video sources and sinks: OpenCV and Foundation only.
        .library(name: "Ocular", targets: ["Ocular"]),
        // The photo and video gallery: a folder of files and its SQLite index (GRDB).
        .library(name: "OcularGallery", targets: ["OcularGallery"]),
        // Ocular Studio, the web app (Hummingbird).
        .library(name: "OcularStudio", targets: ["OcularStudio"]),
        .executable(name: "ocular", targets: ["ocular"]),
        .executable(name: "ocular-bench", targets: ["ocular-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/console-kit.git", from: "4.16.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "COpenCV",
            path: "Sources/COpenCV",
            pkgConfig: "opencv4",
            providers: [.apt(["libopencv-dev", "libopencv-contrib-dev"]), .brew(["opencv"])]
        ),
        // What every bridge below shares: the C types their functions take (status, error, the view of the
        // caller's pixels, a rectangle) and, for their C++, the exception fence and matrix views (Bridging.hpp).
        .target(
            name: "OpenCVBridgeCore",
            dependencies: ["COpenCV"]
        ),
        // A plain C API over the OpenCV calls Ocular makes, whose every function catches C++ exceptions.
        .target(
            name: "OpenCVBridge",
            dependencies: ["OpenCVBridgeCore", "COpenCV"],
            // libjpeg-turbo, OpenCV's own JPEG library, for frames straight from and to BGR (JPEG.cpp).
            // On Linux, where Debian's OpenCV 4.6 needs it; elsewhere cv::imdecode decodes them all.
            // FFmpeg's libavformat (OpenCV's video library) puts those frames in Motion-JPEG AVI files
            // (MotionJPEG.cpp); elsewhere cv::VideoWriter writes them.
            linkerSettings: [
                .linkedLibrary("jpeg", .when(platforms: [.linux])),
                .linkedLibrary("avformat", .when(platforms: [.linux])),
                .linkedLibrary("avcodec", .when(platforms: [.linux])),
                .linkedLibrary("avutil", .when(platforms: [.linux])),
            ]
        ),
        // Ocular's own algorithms in C++ over OpenCV (blending in one pass, the bean counter's detection and
        // separation), each taking a settings struct filled from its profile; the bridge stays a wrapper.
        // One file per algorithm: Blending/, and BeanCounter/ (each step of the separation, in the order
        // BlobSeparation.cpp runs them, declared in Separation.hpp).
        .target(
            name: "OcularAlgorithms",
            dependencies: ["OpenCVBridgeCore", "COpenCV"]
        ),
        // Cascade classifiers (objdetect): kept apart from the bridge every image operation goes through,
        // like the next three; --as-needed keeps a library only where some target's code calls it.
        .target(
            name: "OpenCVCascades",
            dependencies: ["OpenCVBridgeCore", "COpenCV"]
        ),
        // Deep networks (dnn): the face network, read from an ONNX file.
        .target(
            name: "OpenCVNetworks",
            dependencies: ["OpenCVBridgeCore", "COpenCV"]
        ),
        // Blob description for classification: ORB and brute-force matching (features2d).
        .target(
            name: "OpenCVFeatures",
            dependencies: ["OpenCVBridgeCore", "COpenCV"]
        ),
        // Optical flow for following faces between a stream's searches (video).
        .target(
            name: "OpenCVMotion",
            dependencies: ["OpenCVBridgeCore", "COpenCV"]
        ),
        // The OpenCV tutorial's samples (edges, corners, contours, cartoon, keypoints, TV denoising, the
        // pencil drawing): denoise_TVL1 is photo's, the keypoint detectors features2d's.
        .target(
            name: "OpenCVSamples",
            dependencies: ["OpenCVBridgeCore", "COpenCV"]
        ),
        // zlib's CRC-32, the gallery's checksum of every saved file (zlib comes with OpenCV's PNG codec).
        .systemLibrary(
            name: "CZlib",
            path: "Sources/CZlib",
            providers: [.apt(["zlib1g-dev"]), .brew(["zlib"])]
        ),
        // QR codes of the studio's address, printed in the terminal for a phone's camera.
        .systemLibrary(
            name: "CQRencode",
            path: "Sources/CQRencode",
            pkgConfig: "libqrencode",
            providers: [.apt(["libqrencode-dev"]), .brew(["qrencode"])]
        ),
        .target(
            name: "Ocular",
            dependencies: [
                "OpenCVBridge",
                "OcularAlgorithms",
                "OpenCVCascades",
                "OpenCVNetworks",
                "OpenCVFeatures",
                "OpenCVMotion",
                "OpenCVSamples",
                "CZlib",
            ]
        ),
        // How well the detectors and classifiers do: the labelled sweeps (faces, table scenes of beans), the
        // plain-OpenCV baseline they are measured against, and the tables. Used by the CLI's evaluate, sweep and
        // scenes commands, the tests and the benchmarks; a client of the Ocular product compiles none of it.
        .target(
            name: "OcularEvaluation",
            dependencies: ["Ocular", "OpenCVBridge", "OcularAlgorithms"]
        ),
        .target(
            name: "OcularGallery",
            dependencies: ["Ocular", .product(name: "GRDB", package: "GRDB.swift"), .product(name: "GRDBSQLite", package: "GRDB.swift")]
        ),
        .target(
            name: "OcularStudio",
            dependencies: [
                "Ocular",
                "OcularGallery",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
                .product(name: "HummingbirdTLS", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                "CQRencode",
            ],
            resources: [.copy("Public"), .copy("TrainingList")]
        ),
        // libpng's messages routed instead of printed: the executable's own png_create_read_struct and
        // png_create_write_struct, exported so that OpenCV's calls reach them (see PNGMessages.c).
        .target(name: "PNGMessages"),
        .executableTarget(
            name: "ocular",
            dependencies: [
                "PNGMessages",
                "Ocular",
                "OcularEvaluation",
                "OcularGallery",
                "OcularStudio",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ConsoleKitTerminal", package: "console-kit"),
                .product(name: "Logging", package: "swift-log"),
                // SHA-256 of a batch's inputs, which --resume compares.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            linkerSettings: linksOnlyWhatItCalls + exportsPNGMessages
        ),
        // The same OpenCV work written directly in C++, timed beside the Swift API in one process.
        .target(
            name: "BenchBaseline",
            dependencies: ["COpenCV"],
            path: "Benchmarks/BenchBaseline"
        ),
        .executableTarget(
            name: "ocular-bench",
            dependencies: [
                "Ocular",
                "OcularEvaluation",
                "OcularStudio",
                "BenchBaseline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Benchmarks/ocular-bench",
            linkerSettings: linksOnlyWhatItCalls
        ),
        // What OpenCV itself decodes, with nothing of the bridge: the fuzz test's oracle (and the
        // libFuzzer harness's, see scripts/fuzz.sh).
        .target(
            name: "OpenCVReference",
            dependencies: ["COpenCV"],
            path: "Tests/OpenCVReference"
        ),
        // Hand-crafted hostile inputs shared by the test targets.
        .target(
            name: "OcularTestSupport",
            dependencies: ["Ocular", "OcularEvaluation"],
            path: "Tests/OcularTestSupport"
        ),
        // A test target per library target. OcularTests uses OcularEvaluation's scenes and sweeps as
        // pictures with exact labels; the evaluations themselves, which score whole sweeps, are make eval's.
        .testTarget(
            name: "OcularTests",
            dependencies: ["Ocular", "OcularEvaluation", "OpenCVBridge", "OpenCVReference", "OcularTestSupport"],
            linkerSettings: linksOnlyWhatItCalls
        ),
        .testTarget(
            name: "OcularGalleryTests",
            dependencies: ["Ocular", "OcularGallery", "OcularTestSupport"],
            linkerSettings: linksOnlyWhatItCalls
        ),
        // The sweeps and evaluations behind the measured figures (Benchmarks/): make eval runs them whole,
        // and make test leaves them to it.
        .testTarget(
            name: "OcularEvaluationTests",
            dependencies: ["Ocular", "OcularEvaluation", "OcularTestSupport"],
            linkerSettings: linksOnlyWhatItCalls
        ),
        // The documentation's examples, compiled and run; and a check that every article's code is among them.
        .testTarget(
            name: "OcularDocumentationTests",
            dependencies: ["Ocular", "OcularGallery"],
            linkerSettings: linksOnlyWhatItCalls
        ),
        .testTarget(
            name: "OcularStudioTests",
            dependencies: [
                "OcularStudio",
                "StudioPlugins",
                "OcularTestSupport",
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSTesting", package: "hummingbird-websocket"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "NIOCore", package: "swift-nio"),
            ],
            linkerSettings: linksOnlyWhatItCalls
        ),
        // Saves photos into a gallery until it is killed: the victim of the SIGKILL test.
        .executableTarget(
            name: "gallery-save-loop",
            dependencies: ["Ocular", "OcularGallery"],
            path: "Tests/GallerySaveLoop",
            linkerSettings: linksOnlyWhatItCalls
        ),
        // A stage only the tests register, and the studio serving it: the page must show what it
        // has never heard of.
        .target(
            name: "StudioPlugins",
            dependencies: ["Ocular"],
            path: "Tests/StudioPlugins"
        ),
        .executableTarget(
            name: "ocular-studio-fixture",
            dependencies: ["Ocular", "OcularStudio", "StudioPlugins"],
            path: "Tests/StudioFixture",
            linkerSettings: linksOnlyWhatItCalls
        ),
        .testTarget(
            name: "OcularCLITests",
            dependencies: ["ocular", "gallery-save-loop", "Ocular", "OcularEvaluation", "OcularGallery", "OcularStudio", "OcularTestSupport"],
            linkerSettings: linksOnlyWhatItCalls
        ),
    ],
    cxxLanguageStandard: .cxx17
)
