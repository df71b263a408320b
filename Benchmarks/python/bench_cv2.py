#!/usr/bin/env python3
"""The Python cv2 column of ocular-bench: the same OpenCV calls, timed from Python.

ocular-bench writes the input frames (raw, tightly packed BGRA) and the JPEG to a folder with a
manifest.json and runs this script once; it prints one JSON object on stdout:

    {"opencv": "4.x.y", "threads": 2, "parallel": "pthreads", "numpy": "...", "python": "...",
     "results": {"gray@1280x720": median_ns, ...}, "notes": [...]}

If cv2 cannot be imported it prints {"error": "..."} and exits with status 3.
Each call returns a fresh output array, as the Swift API returns a fresh image.
"""

import json
import os
import platform
import statistics
import sys
import time


def fail(message, status=3):
    print(json.dumps({"error": message}))
    sys.exit(status)


try:
    import numpy as np
    import cv2
except Exception as exception:  # ImportError, or a broken wheel
    fail(f"cannot import cv2/numpy: {exception}")


def parallel_framework():
    for line in cv2.getBuildInformation().splitlines():
        if "Parallel framework:" in line:
            return line.split(":", 1)[1].strip()
    return ""


def measure(body, target_seconds, rounds, minimum_iterations):
    """Per-call times in ns: a warm-up, then `rounds` rounds of about target_seconds / rounds each."""
    start = time.perf_counter()
    body()
    body()
    one = max(time.perf_counter() - start, 1e-7) / 2
    per_round = max(minimum_iterations, int(target_seconds / rounds / one))
    samples = []
    clock = time.perf_counter_ns
    for _ in range(rounds):
        for _ in range(per_round):
            begin = clock()
            body()
            samples.append(clock() - begin)
    return samples


def hue_numpy(backdrop, source):
    """W3C hue blending of BGRA frames in NumPy float32, op by op; alpha from the backdrop."""
    cb = backdrop[:, :, :3].astype(np.float32)
    cs = source[:, :, :3].astype(np.float32)
    weights = np.array([0.11, 0.59, 0.3], dtype=np.float32)  # B, G, R

    def lum(c):
        return c @ weights

    low = cs.min(axis=2)
    spread = cs.max(axis=2) - low
    saturation = cb.max(axis=2) - cb.min(axis=2)
    scale = np.divide(saturation, spread, out=np.zeros_like(spread), where=spread > 0)
    c = (cs - low[:, :, None]) * scale[:, :, None]
    c += (lum(cb) - lum(c))[:, :, None]
    l, n, x = lum(c), c.min(axis=2), c.max(axis=2)
    with np.errstate(divide="ignore", invalid="ignore"):
        below = n < 0
        c = np.where(below[:, :, None], l[:, :, None] + (c - l[:, :, None]) * (l / (l - n))[:, :, None], c)
        above = x > 255
        c = np.where(above[:, :, None], l[:, :, None] + (c - l[:, :, None]) * ((255 - l) / (x - l))[:, :, None], c)
    output = np.empty_like(backdrop)
    output[:, :, :3] = np.clip(c + 0.5, 0, 255).astype(np.uint8)
    output[:, :, 3] = backdrop[:, :, 3]
    return output


def measure_blending(folder, blend, results, notes, target, rounds, minimum):
    """The textbook's op-by-op blends with cv2, hue in NumPy, and Pillow's ImageChops."""
    width, height = blend["width"], blend["height"]
    size = f"{width}x{height}"

    def load(name):
        pixels = np.fromfile(os.path.join(folder, blend[name]), dtype=np.uint8)
        if pixels.size != width * height * 4:
            fail(f"{blend[name]}: {pixels.size} bytes, expected {width * height * 4}", 4)
        return pixels.reshape(height, width, 4)

    frame, picture, inverted_edges = load("frame"), load("picture"), load("invertedEdges")
    inverted_picture = cv2.subtract(255, picture)  # what the textbook caches
    white = (255.0, 255.0, 255.0, 255.0)

    def screen_with(inverted):
        def screen():
            inverted_frame = cv2.subtract(white, frame)
            product = cv2.multiply(inverted_frame, inverted, scale=1 / 255.0)
            return cv2.subtract(white, product)
        return screen

    results[f"blend-screen@{size}"] = measure(screen_with(inverted_picture), target, rounds, minimum)
    results[f"blend-hud@{size}"] = measure(screen_with(inverted_edges), target, rounds, minimum)
    results[f"blend-multiply@{size}"] = measure(lambda: cv2.multiply(frame, picture, scale=1 / 255.0), target, rounds, minimum)
    results[f"blend-hue@{size}"] = measure(lambda: hue_numpy(frame, picture), target, rounds, minimum)

    try:
        from PIL import Image, ImageChops
    except Exception as exception:
        notes.append(f"Pillow: not installed ({exception}); pip install pillow for its column")
        return
    frame_image = Image.frombuffer("RGBA", (width, height), frame.tobytes(), "raw", "RGBA", 0, 1)
    picture_image = Image.frombuffer("RGBA", (width, height), picture.tobytes(), "raw", "RGBA", 0, 1)
    edges = Image.frombuffer("RGBA", (width, height), cv2.subtract(255, inverted_edges).tobytes(), "raw", "RGBA", 0, 1)
    results[f"pillow-screen@{size}"] = measure(lambda: ImageChops.screen(frame_image, picture_image), target, rounds, minimum)
    results[f"pillow-hud@{size}"] = measure(lambda: ImageChops.screen(frame_image, edges), target, rounds, minimum)
    results[f"pillow-multiply@{size}"] = measure(lambda: ImageChops.multiply(frame_image, picture_image), target, rounds, minimum)
    import PIL
    notes.append(f"Pillow {PIL.__version__}: ImageChops has no hue mode")


def load_bgr(folder, file, width, height):
    """A tightly packed BGR picture ocular-bench wrote."""
    pixels = np.fromfile(os.path.join(folder, file), dtype=np.uint8)
    if pixels.size != width * height * 3:
        fail(f"{file}: {pixels.size} bytes, expected {width * height * 3}", 4)
    return pixels.reshape(height, width, 3)


def measure_merge(folder, merge, results, target, rounds, minimum):
    """The textbook's face merge: getAffineTransform, warpAffine onto the bigger face, multiply."""
    bigger = load_bgr(folder, merge["bigger"], merge["biggerWidth"], merge["biggerHeight"])
    smaller = load_bgr(folder, merge["smaller"], merge["smallerWidth"], merge["smallerHeight"])
    source = np.array(merge["smallerLandmarks"], dtype=np.float32).reshape(3, 2)
    target_points = np.array(merge["biggerLandmarks"], dtype=np.float32).reshape(3, 2)
    size = (merge["biggerWidth"], merge["biggerHeight"])

    def merge_faces():
        matrix = cv2.getAffineTransform(source, target_points)
        warped = cv2.warpAffine(smaller, matrix, size, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return cv2.multiply(bigger, warped, scale=1 / 255.0)

    results[f"merge@{size[0]}x{size[1]}"] = measure(merge_faces, target, rounds, minimum)


def measure_beans(folder, beans, results, target, rounds, minimum):
    """the textbook's blob detection with Ocular's one blob per object, and the textbook classification of one blob."""
    from bench_beans import Describer, detect_blobs

    scene = load_bgr(folder, beans["scene"], beans["sceneWidth"], beans["sceneHeight"])
    blob = load_bgr(folder, beans["blob"], beans["blobWidth"], beans["blobHeight"])
    height, width = scene.shape[:2]
    describer = Describer(beans["references"], beans["labels"])
    results[f"blobs@{width}x{height}"] = measure(lambda: detect_blobs(scene), target, rounds, minimum)
    results[f"classify@{blob.shape[1]}x{blob.shape[0]}"] = measure(lambda: describer.label(blob), target, rounds, minimum)


def main():
    if len(sys.argv) != 2:
        fail("usage: bench_cv2.py FOLDER (with the manifest.json ocular-bench wrote)", 2)
    folder = sys.argv[1]
    with open(os.path.join(folder, "manifest.json")) as file:
        manifest = json.load(file)
    target = float(manifest.get("targetSeconds", 1.0))
    rounds = int(manifest.get("rounds", 10))
    minimum = int(manifest.get("minimumIterations", 3))
    threshold = float(manifest["saturationThreshold"])
    red, green, blue = manifest["tint"]
    quality = int(manifest["jpegQuality"])

    results = {}
    notes = []

    for frame in manifest["frames"]:
        width, height = frame["width"], frame["height"]
        source = np.fromfile(os.path.join(folder, frame["file"]), dtype=np.uint8)
        if source.size != width * height * 4:
            fail(f"{frame['file']}: {source.size} bytes, expected {width * height * 4}", 4)
        source = source.reshape(height, width, 4)
        size = f"{width}x{height}"

        def gray():
            return cv2.cvtColor(source, cv2.COLOR_BGRA2GRAY)

        results[f"gray@{size}"] = measure(gray, target, rounds, minimum)

        threshold255 = round(threshold * 255)
        luma_weights = (0.114, 0.587, 0.299)

        def white_balance():
            # Gray-world channel sums over the pixels xphoto's GrayworldWB counts, gains scaled to
            # keep the mean luma, as Ocular does.
            bgr = source[:, :, :3]
            high = bgr.max(axis=2).astype(np.uint32)
            low = bgr.min(axis=2).astype(np.uint32)
            counted = (high - low) * 255 <= threshold255 * high
            sums = [float(np.sum(bgr[:, :, channel], where=counted, dtype=np.uint64)) for channel in range(3)]
            means = cv2.mean(source)
            inverse = [1.0 / total if total else 0.0 for total in sums]
            luma = sum(w * m for w, m in zip(luma_weights, means))
            balanced = sum(w * i * m for w, i, m in zip(luma_weights, inverse, means))
            scale = luma / balanced if balanced > 0 else 1.0
            return cv2.multiply(source, (inverse[0] * scale, inverse[1] * scale, inverse[2] * scale, 1.0))

        results[f"whitebalance@{size}"] = measure(white_balance, target, rounds, minimum)

        factors = (float(blue), float(green), float(red), 1.0)

        def tint():
            return cv2.multiply(source, factors)

        results[f"tint@{size}"] = measure(tint, target, rounds, minimum)

        # The zoom stage's map (Image.zoomed about the middle), bicubic, edges replicated.
        factor = float(manifest["zoomFactor"])
        w, h = float(width), float(height)
        shape = w / h
        field_width, field_height = (h * shape, h) if w / h > shape else (w, w / shape)
        crop_width, crop_height = field_width / factor, field_height / factor
        left = min(max(0.5 * w, crop_width / 2), w - crop_width / 2) - crop_width / 2
        top = min(max(0.5 * h, crop_height / 2), h - crop_height / 2) - crop_height / 2
        scale = w / crop_width
        zoom_map = np.array([[scale, 0, scale * (0.5 - left) - 0.5], [0, scale, scale * (0.5 - top) - 0.5]], dtype=np.float64)

        def zoom():
            return cv2.warpAffine(source, zoom_map, (width, height), flags=cv2.INTER_CUBIC, borderMode=cv2.BORDER_REPLICATE)

        results[f"zoom@{size}"] = measure(zoom, target, rounds, minimum)

    parameters = [cv2.IMWRITE_JPEG_QUALITY, quality]
    for picture in manifest["jpegs"]:
        with open(os.path.join(folder, picture["file"]), "rb") as file:
            jpeg = np.frombuffer(file.read(), dtype=np.uint8)

        def jpeg_round_trip(jpeg=jpeg):
            image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
            written, encoded = cv2.imencode(".jpg", image, parameters)
            if not written:
                raise RuntimeError("cv2.imencode refused the image")
            return encoded

        results[f"jpeg@{picture['width']}x{picture['height']}"] = measure(jpeg_round_trip, target, rounds, minimum)

    merge = manifest.get("merge")
    if merge:
        measure_merge(folder, merge, results, target, rounds, minimum)
    beans = manifest.get("beans")
    if beans:
        measure_beans(folder, beans, results, target, rounds, minimum)

    blend = manifest.get("blend")
    if blend:
        measure_blending(folder, blend, results, notes, target, rounds, minimum)

    print(json.dumps({
        "opencv": cv2.__version__,
        "threads": cv2.getNumThreads(),
        "parallel": parallel_framework(),
        "numpy": np.__version__,
        "python": platform.python_version(),
        "results": {key: statistics.median(samples) for key, samples in results.items()},
        "iterations": {key: len(samples) for key, samples in results.items()},
        "notes": notes,
    }))


if __name__ == "__main__":
    try:
        main()
    except SystemExit:
        raise
    except Exception as exception:
        fail(f"{type(exception).__name__}: {exception}", 5)
