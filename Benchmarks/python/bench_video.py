#!/usr/bin/env python3
"""The Python cv2 column of ocular-bench's whole-video row: read, Screen-blend, write, frame by frame.

    bench_video.py VIDEO PICTURE OUTPUT.avi RUNS

The picture is prepared once as Ocular prepares a blend source (cropped to the frame's aspect
around the centre, resized with Lanczos); each frame is then screened with it the cv2 way
(255 − (255 − frame)(255 − picture)/255 with bitwise_not and multiply) and written as Motion-JPEG.
Prints {"frames": N, "seconds": [run, ...]} on stdout; {"error": ...} with status 3 without cv2.
"""

import json
import sys
import time

try:
    import cv2
except Exception as exception:
    print(json.dumps({"error": f"cannot import cv2: {exception}"}))
    sys.exit(3)


def prepared_picture(path, width, height):
    picture = cv2.imread(path, cv2.IMREAD_COLOR)
    rows, columns = picture.shape[:2]
    if columns * height > rows * width:
        cropped = max(1, (rows * width + height // 2) // height)
        x = (columns - cropped) // 2
        picture = picture[:, x:x + cropped]
    else:
        cropped = max(1, (columns * height + width // 2) // width)
        y = (rows - cropped) // 2
        picture = picture[y:y + cropped, :]
    return cv2.resize(picture, (width, height), interpolation=cv2.INTER_LANCZOS4)


def run_once(video, picture_path, output):
    capture = cv2.VideoCapture(video, cv2.CAP_FFMPEG)
    if not capture.isOpened():
        raise RuntimeError(f"cannot open {video}")
    width = int(capture.get(cv2.CAP_PROP_FRAME_WIDTH))
    height = int(capture.get(cv2.CAP_PROP_FRAME_HEIGHT))
    fps = capture.get(cv2.CAP_PROP_FPS)
    inverted_picture = cv2.bitwise_not(prepared_picture(picture_path, width, height))
    writer = cv2.VideoWriter(output, cv2.VideoWriter_fourcc(*"MJPG"), fps, (width, height))
    frames = 0
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        screened = cv2.bitwise_not(cv2.multiply(cv2.bitwise_not(frame), inverted_picture, scale=1 / 255))
        writer.write(screened)
        frames += 1
    writer.release()
    capture.release()
    return frames


def main():
    video, picture, output, runs = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
    seconds, frames = [], 0
    for _ in range(runs):
        start = time.perf_counter()
        frames = run_once(video, picture, output)
        seconds.append(time.perf_counter() - start)
    print(json.dumps({"frames": frames, "seconds": seconds, "opencv": cv2.__version__}))


if __name__ == "__main__":
    main()
