#!/usr/bin/env python3
"""The Python cv2 column of ocular-bench's samples rows: the tutorial's samples written as a
Python program would, on the same BGR frames ocular-bench wrote.

    bench_samples.py FOLDER WIDTH HEIGHT SECONDS ROUNDS

prints {"opencv": "4.x", "results": {"edges": median_ns, ...}}.
"""
import json
import math
import sys
import time

import cv2
import numpy as np

folder, width, height = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
seconds, rounds = float(sys.argv[4]), int(sys.argv[5])
frame = np.fromfile(f"{folder}/sample-frame.bgr", dtype=np.uint8).reshape(height, width, 3)
moved = np.fromfile(f"{folder}/sample-moved.bgr", dtype=np.uint8).reshape(height, width, 3)
SEPIA = np.array([[0.131, 0.534, 0.272], [0.168, 0.686, 0.349], [0.189, 0.769, 0.393]], dtype=np.float32)


def gray(image):
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)


def edges(image):
    return cv2.Canny(gray(image), 50, 150, apertureSize=3)


def corners(image):
    response = cv2.cornerHarris(gray(image), 3, 3, 0.04)
    strongest = response.max()
    dilated = cv2.dilate(response, cv2.getStructuringElement(cv2.MORPH_RECT, (7, 7)))
    ys, xs = np.nonzero((response >= 0.01 * strongest) & (response >= dilated))
    order = np.argsort(-response[ys, xs], kind="stable")
    kept = []
    for index in order:
        x, y = int(xs[index]), int(ys[index])
        if len(kept) == 300:
            break
        if all(abs(x - kx) > 3 or abs(y - ky) > 3 for kx, ky in kept):
            kept.append((x, y))
    out = image.copy()
    radius = max(4, min(image.shape[:2]) // 120)
    for x, y in kept:
        cv2.circle(out, (x * 4, y * 4), radius << 2, (0, 0, 255), 2, cv2.LINE_8, 2)
    return out


def contours(image):
    _, binary = cv2.threshold(gray(image), 128, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    border = cv2.countNonZero(binary[0]) + cv2.countNonZero(binary[-1]) + cv2.countNonZero(binary[:, 0]) + cv2.countNonZero(binary[:, -1])
    if border > binary.shape[0] + binary.shape[1]:
        binary = cv2.bitwise_not(binary)
    found, _ = cv2.findContours(binary, cv2.RETR_TREE, cv2.CHAIN_APPROX_SIMPLE)
    kept = [contour for contour in found if cv2.contourArea(contour) >= 16]
    out = image.copy()
    cv2.drawContours(out, kept, -1, (0, 255, 0), 2, cv2.LINE_8)
    return out


def cartoon(image):
    flat = cv2.pyrMeanShiftFiltering(image, 10, 30, maxLevel=1)
    lines = cv2.dilate(cv2.Canny(gray(flat), 40, 80), cv2.getStructuringElement(cv2.MORPH_RECT, (2, 2)))
    flat[lines > 0] = 0
    return flat


ORB = dict(nfeatures=500, scaleFactor=1.2, nlevels=8, edgeThreshold=31, firstLevel=0, WTA_K=2, scoreType=cv2.ORB_HARRIS_SCORE,
           patchSize=31, fastThreshold=20)


def features(image):
    found = cv2.ORB_create(**ORB).detect(gray(image))
    found = sorted(cv2.KeyPointsFilter_retainBest(list(found), 500) if hasattr(cv2, "KeyPointsFilter_retainBest") else found,
                   key=lambda k: (-k.response, k.pt[1], k.pt[0]))[:500]
    out = image.copy()
    for point in found:
        radius = max(point.size / 2, 1)
        centre = (round(point.pt[0] * 16), round(point.pt[1] * 16))
        cv2.circle(out, centre, round(radius * 16), (0, 220, 255), 1, cv2.LINE_AA, 4)
        if point.angle >= 0:
            radians = math.radians(point.angle)
            tip = (round((point.pt[0] + radius * math.cos(radians)) * 16), round((point.pt[1] + radius * math.sin(radians)) * 16))
            cv2.line(out, centre, tip, (0, 220, 255), 1, cv2.LINE_AA, 4)
    return out


class Tracking:
    def __init__(self):
        self.previous, self.paths, self.calls = None, [], 0

    def __call__(self, _):
        image = moved if self.calls % 2 else frame
        self.calls += 1
        now = gray(image)
        followed = []
        if self.previous is not None and self.paths:
            start = np.array([path[-1] for path in self.paths], dtype=np.float32).reshape(-1, 1, 2)
            forward, found, _ = cv2.calcOpticalFlowPyrLK(self.previous, now, start, None, winSize=(21, 21), maxLevel=3)
            backward, back, _ = cv2.calcOpticalFlowPyrLK(now, self.previous, forward, None, winSize=(21, 21), maxLevel=3)
            trip = np.hypot(*(backward - start).reshape(-1, 2).T)
            for path, at, ok in zip(self.paths, forward.reshape(-1, 2), (found.ravel() == 1) & (back.ravel() == 1) & (trip <= 0.2)):
                if ok and 0 <= at[0] < now.shape[1] and 0 <= at[1] < now.shape[0]:
                    followed.append((path + [tuple(at)])[-20:])
        if len(followed) < 100:
            corners = cv2.goodFeaturesToTrack(now, 200, 0.01, 8)
            existing = [path[-1] for path in followed]
            for corner in (corners.reshape(-1, 2) if corners is not None else []):
                if len(followed) == 200:
                    break
                if all(abs(x - corner[0]) >= 8 or abs(y - corner[1]) >= 8 for x, y in existing):
                    followed.append([tuple(corner)])
        self.previous, self.paths = now, followed
        out = image.copy()
        lines = [np.round(np.array(path)).astype(np.int32) for path in followed if len(path) > 1]
        cv2.polylines(out, lines, False, (0, 255, 0), 1)
        for path in followed:
            cv2.circle(out, (round(path[-1][0]), round(path[-1][1])), 3, (0, 255, 0), -1)
        return out


def total_variation(image):
    planes = []
    for plane in cv2.split(image):
        denoised = np.empty_like(plane)
        cv2.denoise_TVL1([plane], denoised, 1.0, 30)  # fills `denoised`; returns None
        planes.append(denoised)
    return cv2.merge(planes)


def drawing_canvas(image):
    smooth = cv2.bilateralFilter(gray(image), 9, 50, 50)
    return cv2.adaptiveThreshold(smooth, 255, cv2.ADAPTIVE_THRESH_MEAN_C, cv2.THRESH_BINARY, 9, 5)


SAMPLES = {
    "edges": edges,
    "corners": corners,
    "sepia": lambda image: cv2.transform(image, SEPIA),
    "negative": cv2.bitwise_not,
    "contrastBrightness": lambda image: cv2.convertScaleAbs(image, alpha=1.5, beta=-30),
    "contours": contours,
    "cartoon": cartoon,
    "features": features,
    "tracking": Tracking(),
    "totalVariation": total_variation,
    "drawingCanvas": drawing_canvas,
}


def median_ns(body):
    body(frame)
    body(frame)
    start = time.perf_counter()
    body(frame)
    one = max(time.perf_counter() - start, 1e-7)
    per_round = max(3, int(seconds / rounds / one))
    samples = []
    for _ in range(rounds):
        for _ in range(per_round):
            begin = time.perf_counter_ns()
            body(frame)
            samples.append(time.perf_counter_ns() - begin)
    samples.sort()
    return samples[len(samples) // 2]


print(json.dumps({"opencv": cv2.__version__, "results": {name: median_ns(body) for name, body in SAMPLES.items()}}))
