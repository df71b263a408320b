#!/usr/bin/env python3
"""The Python column of ocular-bench's filters rows: the five-filter colour chain (colour controls,
exposure, gamma, hue, vibrance) one step at a time as a Python program would write it with Pillow's
ImageEnhance and NumPy, on the BGR frame ocular-bench wrote.

    bench_filters.py FOLDER WIDTH HEIGHT SECONDS ROUNDS

prints {"pillow": "…", "numpy": "…", "results": {"chain": median_ns}}.
"""
import json
import math
import sys
import time

import numpy as np
import PIL
from PIL import Image, ImageEnhance

folder, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
seconds, rounds = float(sys.argv[4]), int(sys.argv[5])
frame = np.fromfile(f"{folder}/filter-frame.bgr", dtype=np.uint8).reshape(height, width, 3)


def srgb_decode(v):
    return np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)


def srgb_encode(v):
    return np.where(v <= 0.0031308, v * 12.92, 1.055 * np.power(np.maximum(v, 0), 1 / 2.4) - 0.055)


LEVELS = np.arange(256) / 255.0
CONTRAST = list(np.clip(np.rint(((LEVELS - 0.5) * 1.1 + 0.5 + 0.05) * 255), 0, 255).astype(int)) * 3
EXPOSURE = list(np.clip(np.rint(srgb_encode(srgb_decode(LEVELS) * 2 ** 0.5) * 255), 0, 255).astype(int)) * 3
GAMMA = list(np.clip(np.rint(LEVELS ** 0.8 * 255), 0, 255).astype(int)) * 3
angle = math.radians(20)
c, s = math.cos(angle), math.sin(angle)
third, axis = (1 - c) / 3, s / math.sqrt(3)
HUE = np.array([[c + third, third - axis, third + axis], [third + axis, c + third, third - axis], [third - axis, third + axis, c + third]],
               dtype=np.float32)


def chain(bgr):
    image = Image.fromarray(bgr[:, :, ::-1])
    image = ImageEnhance.Color(image).enhance(1.2)   # saturation
    image = image.point(CONTRAST)                     # contrast about 0.5, brightness
    image = image.point(EXPOSURE)
    image = image.point(GAMMA)
    rgb = np.asarray(image, dtype=np.float32)
    rgb = np.clip(np.rint(rgb @ HUE.T), 0, 255)      # hue: a turn about the gray axis
    largest = rgb.max(axis=2, keepdims=True)
    weight = (largest - rgb.mean(axis=2, keepdims=True)) * (-3 * 0.4 / 255)
    rgb = np.clip(np.rint(rgb + (largest - rgb) * weight), 0, 255).astype(np.uint8)
    return rgb[:, :, ::-1]


def median_ns(work):
    work()
    medians = []
    for _ in range(rounds):
        times = []
        deadline = time.perf_counter() + seconds / rounds
        while time.perf_counter() < deadline or len(times) < 3:
            start = time.perf_counter_ns()
            work()
            times.append(time.perf_counter_ns() - start)
        times.sort()
        medians.append(times[len(times) // 2])
    medians.sort()
    return medians[len(medians) // 2]


print(json.dumps({"pillow": PIL.__version__, "numpy": np.__version__, "results": {"chain": median_ns(lambda: chain(frame))}}))
