#!/usr/bin/env python3
"""Makes the README's before/after picture of every sample stage (SPEC §6) with the ocular CLI: `ocular apply`
on a still (the tracking sample: `ocular process` on the astronaut pan video), then the input and the
output side by side, labelled, into docs/samples/NAME.jpg.

    .venv/bin/python scripts/sample-pictures.py [--ocular PATH]

Needs OpenCV for Python (the test .venv has it) to lay out the pictures; the pictures themselves are the CLI's.
"""
import argparse
import json
import os
import subprocess
import tempfile
from pathlib import Path

import cv2
import numpy as np

REPOSITORY = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("OCULAR_TEST_DATA", REPOSITORY.parent / "shared" / "data"))
DEMO = REPOSITORY / "Sources" / "OcularStudio" / "Public" / "demo"
OUT = REPOSITORY / "docs" / "samples"
SIDE = 360  # each half's height, pixels

# name → (input, recipe settings beyond the stage's name, what the caption says)
SAMPLES = {
    "edges": (DEMO / "astronaut.jpg", {}, "Canny, edges only"),
    "edges-sobel": (DEMO / "astronaut.jpg", {"stage": "edges", "method": "sobel", "edgesOnly": False, "colour": "#00ff00"},
                    "Sobel magnitude over the frame"),
    "corners": (DATA / "images" / "rocket.jpg", {"threshold": 0.02}, "Harris corners"),
    "sepia": (DEMO / "astronaut.jpg", {}, "sepia matrix"),
    "negative": (DEMO / "astronaut.jpg", {}, "255 - v"),
    "contrastBrightness": (DATA / "images" / "coffee.png", {"contrast": 1.6, "brightness": -60}, "contrast 1.6, brightness -60"),
    "contours": (DEMO / "beans.jpg", {"mode": "outer", "minimumArea": 400, "thickness": 4}, "Otsu, outer contours"),
    "cartoon": (DEMO / "chelsea.jpg", {}, "mean shift + edges"),
    "features": (DEMO / "coffee.jpg", {"detector": "orb", "maximum": 300}, "ORB keypoints"),
    "tracking": (DATA / "video" / "astronaut_pan.avi", {"trail": 8}, "frame 25 of ocular process, 8-frame trails"),
    "totalVariation": (None, {}, "TV-L1 on added noise (sigma 20)"),
    "drawingCanvas": (DEMO / "astronaut.jpg", {}, "bilateral + adaptive threshold"),
}


def ocular(executable, *arguments):
    subprocess.run([str(executable), *map(str, arguments)], check=True, stdout=subprocess.DEVNULL)


def labelled(image, text):
    """The image `SIDE` pixels tall with `text` (ASCII: Hershey's fonts have no more) in its corner."""
    scale = SIDE / image.shape[0]
    image = cv2.resize(image, (round(image.shape[1] * scale), SIDE), interpolation=cv2.INTER_AREA)
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    (width, height), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, 0.55, 1)
    cv2.rectangle(image, (0, SIDE - height - 14), (width + 12, SIDE), (0, 0, 0), -1)
    cv2.putText(image, text, (6, SIDE - 8), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (255, 255, 255), 1, cv2.LINE_AA)
    return image


def video_frame(path, index):
    capture = cv2.VideoCapture(str(path))
    capture.set(cv2.CAP_PROP_POS_FRAMES, index)
    ok, frame = capture.read()
    if not ok:
        raise SystemExit(f"cannot read frame {index} of {path}")
    return frame


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ocular", default=REPOSITORY / ".build" / "debug" / "ocular")
    executable = Path(parser.parse_args().ocular)
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder:
        folder = Path(folder)
        for name, (source, settings, caption) in SAMPLES.items():
            step = {"stage": name, **settings}
            recipe = json.dumps({"stages": [step]})
            if name == "tracking":
                ocular(executable, "process", source, "-o", folder / "tracking.avi", "--recipe", recipe)
                before, after = video_frame(source, 25), video_frame(folder / "tracking.avi", 25)
            else:
                if source is None:  # a noisy astronaut, made here: the denoiser needs noise to show
                    clean = cv2.imread(str(DEMO / "astronaut.jpg"))
                    noise = np.random.default_rng(1).normal(0, 20, clean.shape)
                    source = folder / "noisy.png"
                    cv2.imwrite(str(source), np.clip(clean + noise, 0, 255).astype(np.uint8))
                ocular(executable, "apply", source, "-o", folder / f"{name}.png", "--recipe", recipe)
                before, after = cv2.imread(str(source)), cv2.imread(str(folder / f"{name}.png"), cv2.IMREAD_UNCHANGED)
            pair = np.hstack([labelled(before, "before"), labelled(after, f"{step['stage']}: {caption}")])
            cv2.imwrite(str(OUT / f"{name}.jpg"), pair, [cv2.IMWRITE_JPEG_QUALITY, 82])
            print(f"docs/samples/{name}.jpg  ocular {'process' if name == 'tracking' else 'apply'} … --recipe '{recipe}'")


if __name__ == "__main__":
    main()
