import Foundation

/// One small picture (7 × 5) for every bit depth × channel layout each container allows, in
/// `Tests/Fixtures/layouts` (made by `scripts/make-layout-fixtures.py`): PNG 1/2/4/8/16-bit gray,
/// gray + alpha, RGB, RGBA, palette with and without transparency; TIFF 8/16/32-bit float; BMP
/// 1/4/8/24/32; PNM 8/16; WebP with alpha; JPEG gray, CMYK and EXIF-rotated.
///
/// Every pixel of the gradient is `((x·37 + y·53 + channel·71) mod 256)` scaled to the depth, so the
/// samples of 16-bit files are exact multiples of 257 and come back as those 8-bit values.
public enum LayoutFixtures {
    public static let folder: String = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/layouts").path

    /// The path of one fixture, such as `png-rgba-16.png`.
    public static func path(_ name: String) -> String { folder + "/" + name }

    /// The bytes of one fixture.
    public static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(name))))
    }

    /// Every fixture's name and bytes, sorted by name.
    public static func all() throws -> [(name: String, bytes: [UInt8])] {
        try FileManager.default.contentsOfDirectory(atPath: folder).sorted().map { ($0, try bytes($0)) }
    }

    /// The 8-bit value of one sample of the fixtures' gradient.
    public static func sample(x: Int, y: Int, channel: Int) -> UInt8 {
        UInt8((x * 37 + y * 53 + channel * 71) % 256)
    }
}
