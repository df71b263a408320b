#!/usr/bin/python3
"""Writes Tests/Fixtures/layouts/: one small picture for every bit depth × channel layout each container
allows, the inputs the decode tests and `make fuzz` start from.

Why by hand: OpenCV writes only the layouts it reads back into its own types (no 1/2/4-bit PNG, no
gray + alpha, no palette, no 1/4-bit BMP, no CMYK JPEG), and the layouts it does not write are the
ones that reach unusual decoder paths: a 16-bit RGBA PNG crashed every entry point of Ocular. PNG,
BMP, TIFF and PNM are written here byte by byte, so each file is exactly the layout its name says;
WebP and JPEG go through Pillow (Debian's python3-pil), which is needed only to regenerate them.

Usage: /usr/bin/python3 scripts/make-layout-fixtures.py [FOLDER]
"""
import io
import os
import struct
import sys
import zlib

WIDTH, HEIGHT = 7, 5  # odd sizes: rows of sub-byte depths end mid-byte, BMP rows need padding


def sample(x, y, channel, maximum):
    """A gradient that differs per channel, so swapped channels show."""
    value = ((x * 37 + y * 53 + channel * 71) % 256) / 255
    return round(value * maximum)


def alpha(x, y, maximum):
    return round(((x + y * WIDTH) / (WIDTH * HEIGHT - 1)) * maximum)


# MARK: - PNG

def png_chunk(kind, data):
    body = kind + data
    return struct.pack(">I", len(data)) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)


def pack_bits(values, depth):
    """Packs samples of 1, 2 or 4 bits into bytes, most significant first."""
    out, current, filled = bytearray(), 0, 0
    for value in values:
        current = (current << depth) | value
        filled += depth
        if filled == 8:
            out.append(current)
            current, filled = 0, 0
    if filled:
        out.append(current << (8 - filled))
    return bytes(out)


def png(color_type, depth, rows, extra_chunks=()):
    """rows: lists of samples per row (already interleaved)."""
    raw = bytearray()
    for row in rows:
        raw.append(0)  # filter: none
        if depth < 8:
            raw += pack_bits(row, depth)
        elif depth == 8:
            raw += bytes(row)
        else:
            raw += b"".join(struct.pack(">H", value) for value in row)
    header = struct.pack(">IIBBBBB", WIDTH, HEIGHT, depth, color_type, 0, 0, 0)
    chunks = png_chunk(b"IHDR", header)
    for kind, data in extra_chunks:
        chunks += png_chunk(kind, data)
    chunks += png_chunk(b"IDAT", zlib.compress(bytes(raw), 9)) + png_chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + chunks


def png_fixtures():
    files = {}
    for depth in (1, 2, 4, 8, 16):
        top = (1 << depth) - 1
        gray = [[sample(x, y, 0, top) for x in range(WIDTH)] for y in range(HEIGHT)]
        files[f"png-gray-{depth}.png"] = png(0, depth, gray)
    # Gray with a transparent value (tRNS): decoders add an alpha channel.
    gray8 = [[sample(x, y, 0, 255) for x in range(WIDTH)] for y in range(HEIGHT)]
    files["png-gray-8-trns.png"] = png(0, 8, gray8, [(b"tRNS", struct.pack(">H", gray8[0][0]))])
    for depth in (8, 16):
        top = (1 << depth) - 1
        gray_alpha = [[v for x in range(WIDTH) for v in (sample(x, y, 0, top), alpha(x, y, top))] for y in range(HEIGHT)]
        files[f"png-gray-alpha-{depth}.png"] = png(4, depth, gray_alpha)
        rgb = [[sample(x, y, c, top) for x in range(WIDTH) for c in range(3)] for y in range(HEIGHT)]
        files[f"png-rgb-{depth}.png"] = png(2, depth, rgb)
        rgba = [[v for x in range(WIDTH) for v in [sample(x, y, c, top) for c in range(3)] + [alpha(x, y, top)]]
                for y in range(HEIGHT)]
        files[f"png-rgba-{depth}.png"] = png(6, depth, rgba)
    rgb8 = [[sample(x, y, c, 255) for x in range(WIDTH) for c in range(3)] for y in range(HEIGHT)]
    files["png-rgb-8-trns.png"] = png(2, 8, rgb8, [(b"tRNS", struct.pack(">HHH", *rgb8[0][:3]))])
    for depth in (1, 2, 4, 8):
        entries = 1 << depth
        palette = b"".join(bytes([(i * 67) % 256, (i * 131) % 256, (i * 29 + 40) % 256]) for i in range(entries))
        indices = [[(x + y * 3) % entries for x in range(WIDTH)] for y in range(HEIGHT)]
        files[f"png-palette-{depth}.png"] = png(3, depth, indices, [(b"PLTE", palette)])
        transparency = bytes((i * 255) // max(1, entries - 1) for i in range(entries))
        files[f"png-palette-{depth}-trns.png"] = png(3, depth, indices, [(b"PLTE", palette), (b"tRNS", transparency)])
    return files


# MARK: - BMP

def bmp(depth, rows, palette=None, masks=None):
    """rows top to bottom; BMP stores them bottom-up, each padded to 4 bytes."""
    pixel_rows = []
    for row in reversed(rows):
        if depth < 8:
            data = pack_bits(row, depth)
        else:
            data = bytes(row)
        data += b"\0" * (-len(data) % 4)
        pixel_rows.append(data)
    pixels = b"".join(pixel_rows)
    palette_bytes = b"".join(bytes([b, g, r, 0]) for (r, g, b) in (palette or []))
    header_size = 40 if masks is None else 108
    offset = 14 + header_size + len(palette_bytes)
    compression = 0 if masks is None else 3  # BI_RGB, BI_BITFIELDS
    info = struct.pack("<IiiHHIIiiII", header_size, WIDTH, HEIGHT, 1, depth, compression, len(pixels), 2835, 2835,
                       len(palette or []), 0)
    if masks is not None:  # BITMAPV4HEADER: masks, colour space 'sRGB', endpoints and gamma unused
        info += struct.pack("<IIII", *masks) + b"BGRs" + b"\0" * 48
    return b"BM" + struct.pack("<IHHI", offset + len(pixels), 0, 0, offset) + info + palette_bytes + pixels


def bmp_fixtures():
    files = {}
    for depth in (1, 4, 8):
        entries = 1 << depth
        palette = [((i * 67) % 256, (i * 131) % 256, (i * 29 + 40) % 256) for i in range(entries)]
        indices = [[(x + y * 3) % entries for x in range(WIDTH)] for y in range(HEIGHT)]
        files[f"bmp-palette-{depth}.bmp"] = bmp(depth, indices, palette)
    bgr = [[sample(x, y, c, 255) for x in range(WIDTH) for c in (2, 1, 0)] for y in range(HEIGHT)]
    files["bmp-bgr-24.bmp"] = bmp(24, bgr)
    bgra = [[v for x in range(WIDTH) for v in [sample(x, y, c, 255) for c in (2, 1, 0)] + [alpha(x, y, 255)]]
            for y in range(HEIGHT)]
    files["bmp-bgrx-32.bmp"] = bmp(32, bgra)
    files["bmp-bgra-32-bitfields.bmp"] = bmp(32, bgra, masks=(0x00FF0000, 0x0000FF00, 0x000000FF, 0xFF000000))
    return files


# MARK: - TIFF

def tiff(channels, depth, floating=False):
    """An uncompressed little-endian TIFF, one strip; a fourth channel is unassociated alpha."""
    top = (1 << depth) - 1 if not floating else 1.0
    values = []
    for y in range(HEIGHT):
        for x in range(WIDTH):
            for c in range(channels):
                if c == 3:
                    values.append(alpha(x, y, 255) / 255 if floating else alpha(x, y, top))
                elif floating:
                    values.append(sample(x, y, c, 255) / 255)
                else:
                    values.append(sample(x, y, c, top))
    code = {8: "B", 16: "H", 32: "f" if floating else "I"}[depth]
    pixels = struct.pack("<" + code * len(values), *values)
    entries = []  # (tag, type, count, value or bytes)
    photometric = 1 if channels == 1 else 2

    def short_array(values):
        return struct.pack("<" + "H" * len(values), *values)

    entries.append((256, 3, 1, WIDTH))
    entries.append((257, 3, 1, HEIGHT))
    entries.append((258, 3, channels, short_array([depth] * channels)))
    entries.append((259, 3, 1, 1))  # no compression
    entries.append((262, 3, 1, photometric))
    entries.append((273, 4, 1, None))  # strip offset, filled below
    entries.append((277, 3, 1, channels))
    entries.append((278, 3, 1, HEIGHT))
    entries.append((279, 4, 1, len(pixels)))
    entries.append((284, 3, 1, 1))  # chunky
    if channels == 4:
        entries.append((338, 3, 1, 2))  # unassociated alpha
    entries.append((339, 3, channels, short_array([3 if floating else 1] * channels)))
    entries.sort()
    ifd_offset = 8
    ifd_size = 2 + 12 * len(entries) + 4
    extra_offset = ifd_offset + ifd_size
    extra = b""
    pixel_offset = None
    # Values over 4 bytes live after the IFD; the pixels after them.
    laid = []
    for tag, kind, count, value in entries:
        if isinstance(value, bytes) and len(value) > 4:
            laid.append((tag, kind, count, struct.pack("<I", extra_offset + len(extra))))
            extra += value
        elif isinstance(value, bytes):
            laid.append((tag, kind, count, value.ljust(4, b"\0")))
        else:
            laid.append((tag, kind, count, value))
    pixel_offset = extra_offset + len(extra)
    ifd = struct.pack("<H", len(laid))
    for tag, kind, count, value in laid:
        if value is None:
            value = pixel_offset
        if isinstance(value, bytes):
            ifd += struct.pack("<HHI", tag, kind, count) + value
        elif kind == 3:
            ifd += struct.pack("<HHIHH", tag, kind, count, value, 0)
        else:
            ifd += struct.pack("<HHII", tag, kind, count, value)
    ifd += struct.pack("<I", 0)
    return b"II*\0" + struct.pack("<I", ifd_offset) + ifd + extra + pixels


def tiff_fixtures():
    files = {}
    for depth, floating in ((8, False), (16, False), (32, True)):
        for channels, name in ((1, "gray"), (3, "rgb"), (4, "rgba")):
            files[f"tiff-{name}-{depth}{'f' if floating else ''}.tiff"] = tiff(channels, depth, floating)
    return files


# MARK: - PNM

def pnm_fixtures():
    files = {}
    header = f"{WIDTH} {HEIGHT}\n".encode()
    bits = [[1 if sample(x, y, 0, 255) > 127 else 0 for x in range(WIDTH)] for y in range(HEIGHT)]
    files["pnm-bitmap.pbm"] = b"P4\n" + header + b"".join(pack_bits(row, 1) for row in bits)
    files["pnm-bitmap-ascii.pbm"] = b"P1\n" + header + "\n".join(" ".join(map(str, row)) for row in bits).encode() + b"\n"
    for depth in (8, 16):
        top = (1 << depth) - 1
        code = "B" if depth == 8 else ">H"

        def packed(values):
            return b"".join(struct.pack(code, v) for v in values)

        gray = [sample(x, y, 0, top) for y in range(HEIGHT) for x in range(WIDTH)]
        rgb = [sample(x, y, c, top) for y in range(HEIGHT) for x in range(WIDTH) for c in range(3)]
        files[f"pnm-gray-{depth}.pgm"] = b"P5\n" + header + f"{top}\n".encode() + packed(gray)
        files[f"pnm-rgb-{depth}.ppm"] = b"P6\n" + header + f"{top}\n".encode() + packed(rgb)
        files[f"pnm-gray-{depth}-ascii.pgm"] = b"P2\n" + header + f"{top}\n".encode() + " ".join(map(str, gray)).encode() + b"\n"
        rgba = [v for y in range(HEIGHT) for x in range(WIDTH) for v in [sample(x, y, c, top) for c in range(3)] + [alpha(x, y, top)]]
        files[f"pam-rgba-{depth}.pam"] = (f"P7\nWIDTH {WIDTH}\nHEIGHT {HEIGHT}\nDEPTH 4\nMAXVAL {top}\nTUPLTYPE RGB_ALPHA\nENDHDR\n".encode()
                                          + packed(rgba))
    return files


# MARK: - WebP and JPEG, through Pillow

def pillow_fixtures():
    from PIL import Image
    files = {}
    rgba = Image.new("RGBA", (WIDTH, HEIGHT))
    rgba.putdata([tuple(sample(x, y, c, 255) for c in range(3)) + (alpha(x, y, 255),)
                  for y in range(HEIGHT) for x in range(WIDTH)])

    def encoded(image, kind, **options):
        buffer = io.BytesIO()
        image.save(buffer, kind, **options)
        return buffer.getvalue()

    files["webp-rgba-lossless.webp"] = encoded(rgba, "WEBP", lossless=True)
    files["webp-rgba-lossy.webp"] = encoded(rgba, "WEBP", quality=80)
    files["webp-rgb-lossy.webp"] = encoded(rgba.convert("RGB"), "WEBP", quality=80)
    files["jpeg-gray.jpg"] = encoded(rgba.convert("L"), "JPEG", quality=90)
    files["jpeg-rgb.jpg"] = encoded(rgba.convert("RGB"), "JPEG", quality=90)
    files["jpeg-rgb-progressive.jpg"] = encoded(rgba.convert("RGB"), "JPEG", quality=90, progressive=True)
    files["jpeg-cmyk.jpg"] = encoded(rgba.convert("CMYK"), "JPEG", quality=90)
    # EXIF orientation 6 (rotate 90° clockwise): decoded into a matrix of the turned size.
    exif = Image.Exif()
    exif[0x0112] = 6
    files["jpeg-rgb-exif-rotated.jpg"] = encoded(rgba.convert("RGB"), "JPEG", quality=90, exif=exif.tobytes())
    return files


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    folder = sys.argv[1] if len(sys.argv) > 1 else os.path.join(root, "Tests", "Fixtures", "layouts")
    os.makedirs(folder, exist_ok=True)
    files = {**png_fixtures(), **bmp_fixtures(), **tiff_fixtures(), **pnm_fixtures(), **pillow_fixtures()}
    for name, data in sorted(files.items()):
        with open(os.path.join(folder, name), "wb") as file:
            file.write(data)
    print(f"{len(files)} layouts in {folder}, {sum(map(len, files.values()))} bytes")


if __name__ == "__main__":
    main()
