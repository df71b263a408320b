#!/usr/bin/env python3
"""The textbook's bean counter in Python cv2: ocular-bench's Python column for the blobs,
classify and count rows.

    bench_beans.py FRAMES.raw COUNT WIDTH HEIGHT ROUNDS REFERENCES.json

FRAMES.raw holds COUNT tightly packed BGR frames; REFERENCES.json is {"references": [picture
path, ...], "labels": [label, ...]}, the training pictures (read before the timing). Each round runs, per frame in order, the blob detection (resize 0.5
INTER_AREA, meanStdDev, inRange, erode, Canny, findContours, boundingRect, one blob per object) and
names every blob by the nearest reference (32³ BGR histogram, ORB on the CLAHE gray; 0.98 ×
chi-square-alt + 0.02 × the Hamming sum). Prints {"milliseconds": [mean per frame of each round],
"objects": [[[x, y, w, h, label], ...] per frame of the last round]}.
bench_cv2.py imports detect_blobs and Describer from here.
"""

import json
import sys
import time

try:
    import cv2
    import numpy
except Exception as exception:
    print(json.dumps({"error": f"cannot import cv2: {exception}"}))
    sys.exit(3)


def detect_blobs(scene):
    """The rectangles (x, y, w, h) of the textbook's blobs inside no other, biggest first, and each blob's pixels copied."""
    height, width = scene.shape[:2]
    resized = cv2.resize(scene, (max(1, round(width * 0.5)), max(1, round(height * 0.5))), interpolation=cv2.INTER_AREA)
    mean, deviation = cv2.meanStdDev(resized)
    mask = cv2.inRange(resized, (mean - deviation).ravel(), (mean + deviation).ravel())
    side = int(min(resized.shape[:2]) * 0.005)
    if side > 0:
        mask = cv2.erode(mask, cv2.getStructuringElement(cv2.MORPH_RECT, (side, side)), iterations=8)
    edges = cv2.Canny(mask, 191, 255)
    contours, _ = cv2.findContours(edges, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    smallest = int(min(width, height) * 0.05)
    found = []
    for contour in contours:
        x, y, w, h = (int(v / 0.5) for v in cv2.boundingRect(contour))
        w, h = min(x + w, width) - x, min(y + h, height) - y
        if w >= smallest and h >= smallest:
            found.append((x, y, w, h))
    found.sort(key=lambda r: (-r[2] * r[3], r[1], r[0]))
    kept = []
    for r in found:
        if not any(o[0] <= r[0] and o[1] <= r[1] and r[0] + r[2] <= o[0] + o[2] and r[1] + r[3] <= o[1] + o[3] for o in kept):
            kept.append(r)
    return kept, [scene[y:y + h, x:x + w].copy() for x, y, w, h in kept]


class Describer:
    """The textbook's descriptor and distance, and the nearest of a set of references."""

    def __init__(self, reference_paths, labels):
        self.orb = cv2.ORB_create()
        self.clahe = cv2.createCLAHE()
        self.matcher = cv2.BFMatcher(cv2.NORM_HAMMING)
        self.references = [(self.describe(cv2.imread(path, cv2.IMREAD_COLOR)), label) for path, label in zip(reference_paths, labels)]

    def describe(self, image):
        histogram = cv2.calcHist([image], [0, 1, 2], None, [32, 32, 32], [0, 256, 0, 256, 0, 256]) / (image.shape[0] * image.shape[1])
        _, keypoints = self.orb.detectAndCompute(self.clahe.apply(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)), None)
        return histogram, keypoints

    def label(self, image):
        histogram, keypoints = self.describe(image)
        best = None
        for (other_histogram, other_keypoints), label in self.references:
            hamming = 0.0
            if keypoints is not None and other_keypoints is not None:
                hamming = sum(match.distance for match in self.matcher.match(keypoints, other_keypoints))
            distance = 0.98 * cv2.compareHist(histogram, other_histogram, cv2.HISTCMP_CHISQR_ALT) + 0.02 * hamming
            if best is None or distance < best[0]:
                best = (distance, label)
        return best[1]


def main():
    path, count, width, height, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    with open(sys.argv[6]) as file:
        training = json.load(file)
    describer = Describer(training["references"], training["labels"])
    frames = numpy.fromfile(path, dtype=numpy.uint8).reshape(count, height, width, 3)

    def count_objects(frame):
        boxes, blobs = detect_blobs(frame)
        return [[x, y, w, h, describer.label(blob)] for (x, y, w, h), blob in zip(boxes, blobs)]

    milliseconds, found = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        found = [count_objects(frame) for frame in frames]
        milliseconds.append((time.perf_counter() - start) * 1000 / count)
    print(json.dumps({"milliseconds": milliseconds, "objects": found}))


if __name__ == "__main__":
    main()
