// swift-tools-version:6.1
import PackageDescription

// OpenCV 4 comes from the system (Debian: libopencv-dev, libopencv-contrib-dev; Homebrew: opencv).
// pkg-config would link all 55 OpenCV libraries, which costs ~0.45 s at every process start, so the
// C++ targets name only the modules Ocular calls.
let openCVIncludeFlags: [String] = ["-I/usr/include/opencv4", "-I/usr/local/include/opencv4", "-I/opt/homebrew/include/opencv4"]
let openCVLibraries: [LinkerSetting] = [
    "opencv_core", "opencv_imgproc", "opencv_imgcodecs", "opencv_videoio", "opencv_xphoto",
].map { .linkedLibrary($0) } + [
    .unsafeFlags(["-L/opt/homebrew/lib", "-L/usr/local/lib"], .when(platforms: [.macOS])),
]
let cxxSettings: [CXXSetting] = [.unsafeFlags(openCVIncludeFlags)]

let package = Package(
    name: "Ocular",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "Ocular", targets: ["Ocular"]),
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
    ],
    targets: [
        // The only code that touches OpenCV: a plain C API whose every function catches C++ exceptions.
        .target(
            name: "OpenCVBridge",
            cxxSettings: cxxSettings,
            linkerSettings: openCVLibraries
        ),
        // Cascade classifiers: objdetect (which pulls in dnn, calib3d, features2d and protobuf) is linked
        // by the one target whose code calls it, not by the bridge every image operation goes through.
        .target(
            name: "OpenCVCascades",
            dependencies: ["OpenCVBridge"],
            cxxSettings: cxxSettings,
            linkerSettings: [.linkedLibrary("opencv_objdetect")] + openCVLibraries
        ),
        // Blob description for classification: ORB and brute-force matching come from features2d,
        // linked by this target alone.
        .target(
            name: "OpenCVFeatures",
            dependencies: ["OpenCVBridge"],
            cxxSettings: cxxSettings,
            linkerSettings: [.linkedLibrary("opencv_features2d")] + openCVLibraries
        ),
        // Optical flow for following faces between a stream's searches: the video module, linked by
        // this target alone.
        .target(
            name: "OpenCVMotion",
            dependencies: ["OpenCVBridge"],
            cxxSettings: cxxSettings,
            linkerSettings: [.linkedLibrary("opencv_video")] + openCVLibraries
        ),
        // The OpenCV tutorial's samples (edges, corners, contours, cartoon, keypoints, TV denoising, the
        // pencil drawing): denoise_TVL1 is photo's, the keypoint detectors features2d's.
        .target(
            name: "OpenCVSamples",
            dependencies: ["OpenCVBridge"],
            cxxSettings: cxxSettings,
            linkerSettings: [.linkedLibrary("opencv_photo"), .linkedLibrary("opencv_features2d")] + openCVLibraries
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
                "OpenCVCascades",
                "OpenCVFeatures",
                "OpenCVMotion",
                "OpenCVSamples",
                "CZlib",
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        .target(
            name: "OcularStudio",
            dependencies: [
                "Ocular",
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
        .executableTarget(
            name: "ocular",
            dependencies: [
                "Ocular",
                "OcularStudio",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "ConsoleKitTerminal", package: "console-kit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The same OpenCV work written directly in C++, timed beside the Swift API in one process.
        .target(
            name: "BenchBaseline",
            path: "Benchmarks/BenchBaseline",
            cxxSettings: cxxSettings,
            linkerSettings: [.linkedLibrary("opencv_objdetect"), .linkedLibrary("opencv_features2d"), .linkedLibrary("opencv_photo"),
                             .linkedLibrary("opencv_video")] + openCVLibraries
        ),
        .executableTarget(
            name: "ocular-bench",
            dependencies: [
                "Ocular",
                "OcularStudio",
                "BenchBaseline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Benchmarks/ocular-bench"
        ),
        // What OpenCV itself decodes, with nothing of the bridge: the fuzz test's oracle (and the
        // libFuzzer harness's, see scripts/fuzz.sh).
        .target(
            name: "OpenCVReference",
            path: "Tests/OpenCVReference",
            cxxSettings: cxxSettings,
            linkerSettings: openCVLibraries
        ),
        // Hand-crafted hostile inputs shared by the test targets.
        .target(
            name: "OcularTestSupport",
            path: "Tests/OcularTestSupport"
        ),
        .testTarget(
            name: "OcularTests",
            dependencies: ["Ocular", "OpenCVBridge", "OpenCVReference", "OcularTestSupport"]
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
            ]
        ),
        // Saves photos into a gallery until it is killed: the victim of the SIGKILL test.
        .executableTarget(
            name: "gallery-save-loop",
            dependencies: ["Ocular"],
            path: "Tests/GallerySaveLoop"
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
            path: "Tests/StudioFixture"
        ),
        .testTarget(
            name: "OcularCLITests",
            dependencies: ["ocular", "gallery-save-loop", "Ocular", "OcularTestSupport"]
        ),
    ],
    cxxLanguageStandard: .cxx17
)
