#!/usr/bin/env python3
"""Pictures for the batch benchmarks and tests, made from the shared data's real photos.

    make_pictures.py FOLDER COUNT [WIDTH HEIGHT]

Writes COUNT different JPEG pictures (quality 90) of WIDTH x HEIGHT (default 1280 x 720) into FOLDER:
each a photo with faces (the astronaut, the cat, the coffee cup for none) scaled to a different size
and placed at a different spot on a scene background, so every file has its own bytes and the face
detector has real work, at sizes from a small face in a group shot to one filling the frame.
Deterministic: the same COUNT gives the same files.
"""

import os
import sys

import cv2
import numpy

DATA = os.environ.get("OCULAR_TEST_DATA") or os.path.join(os.path.dirname(__file__), "..", "..", "..", "shared", "data")


def main():
    folder, count = sys.argv[1], int(sys.argv[2])
    width, height = (int(sys.argv[3]), int(sys.argv[4])) if len(sys.argv) > 4 else (1280, 720)
    os.makedirs(folder, exist_ok=True)
    subjects = [cv2.imread(os.path.join(DATA, name)) for name in ("faces/astronaut.png", "faces/chelsea.png", "images/coffee.png")]
    background = cv2.resize(cv2.imread(os.path.join(DATA, "images/rocket.jpg")), (width, height), interpolation=cv2.INTER_AREA)
    random = numpy.random.default_rng(61)
    for index in range(count):
        picture = background.copy()
        subject = subjects[index % len(subjects)]
        side = int(min(width, height) * random.uniform(0.3, 0.95))
        scaled = cv2.resize(subject, (side, side * subject.shape[0] // subject.shape[1]), interpolation=cv2.INTER_AREA)
        scaled = scaled[: height, : width]
        x = int(random.integers(0, width - scaled.shape[1] + 1))
        y = int(random.integers(0, height - scaled.shape[0] + 1))
        picture[y:y + scaled.shape[0], x:x + scaled.shape[1]] = scaled
        # A colour cast each, so white balance changes every picture.
        cast = numpy.array(random.uniform(0.8, 1.2, 3), dtype=numpy.float32)
        picture = numpy.clip(picture.astype(numpy.float32) * cast, 0, 255).astype(numpy.uint8)
        cv2.imwrite(os.path.join(folder, f"picture-{index:05d}.jpg"), picture, [cv2.IMWRITE_JPEG_QUALITY, 90])


if __name__ == "__main__":
    main()
