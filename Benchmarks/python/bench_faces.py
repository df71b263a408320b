#!/usr/bin/env python3
"""The Python cv2 column of ocular-bench's faces rows: the textbook's face pipeline per frame.

    bench_faces.py FRAMES.raw COUNT WIDTH HEIGHT ROUNDS HUMAN CAT VIEWERS_LEFT_EYE VIEWERS_RIGHT_EYE

FRAMES.raw holds COUNT tightly packed BGR frames. Each round runs the pipeline over every frame in
order: gray, resize 0.5 (INTER_LINEAR), equalizeHist; human faces (1.4, 4 neighbours, min 0.25 of the
short side), cat faces (1.4, 6, 0.2) dropped where they touch a human; both eye cascades in each
human face's halves (1.2, 2, 0.1 of the face). Prints {"milliseconds": [mean per frame of each
round], "faces": [[[x, y, w, h, species], ...] per frame of the last round]}.
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


def touches(a, b):
    return a[0] < b[0] + b[2] and b[0] < a[0] + a[2] and a[1] < b[1] + b[3] and b[1] < a[1] + a[3]


def faces_in(frame, human, cat, left_eye, right_eye):
    gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    small = cv2.resize(gray, None, fx=0.5, fy=0.5, interpolation=cv2.INTER_LINEAR)
    equalized = cv2.equalizeHist(small)
    short_side = min(equalized.shape)
    humans = human.detectMultiScale(equalized, 1.4, 4, 0, (short_side // 4, short_side // 4))
    cat_size = int(0.2 * short_side)
    cats = cat.detectMultiScale(equalized, 1.4, 6, 0, (cat_size, cat_size))
    kept = []
    for (x, y, w, h) in humans:
        region = equalized[y:y + h, x:x + w]
        half, eye_size = w // 2, int(0.1 * w)
        left_eye.detectMultiScale(region[:, :half], 1.2, 2, 0, (eye_size, eye_size))
        right_eye.detectMultiScale(region[:, half:], 1.2, 2, 0, (eye_size, eye_size))
        kept.append([int(x) * 2, int(y) * 2, int(w) * 2, int(h) * 2, 1])
    for face in cats:
        if not any(touches(face, person) for person in humans):
            kept.append([int(v) * 2 for v in face] + [2])
    return kept


def main():
    path, count, width, height, rounds = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
    human, cat, left_eye, right_eye = (cv2.CascadeClassifier(file) for file in sys.argv[6:10])
    frames = numpy.fromfile(path, dtype=numpy.uint8).reshape(count, height, width, 3)
    milliseconds, found = [], []
    for _ in range(rounds):
        start = time.perf_counter()
        found = [faces_in(frame, human, cat, left_eye, right_eye) for frame in frames]
        milliseconds.append((time.perf_counter() - start) * 1000 / count)
    print(json.dumps({"milliseconds": milliseconds, "faces": found}))


if __name__ == "__main__":
    main()
