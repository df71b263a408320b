#!/usr/bin/env python3
"""Makes the Samples and Filters articles' before/after picture of every sample stage and every Core Image–style
filter with the ocular CLI: `ocular apply` on a still (the tracking sample: `ocular process` on
the astronaut pan video), then the input and the output side by side, labelled, into the DocC catalog's
Resources/samples/NAME.jpg and Resources/filters/NAME.jpg (the Samples and Filters articles show them).

    .venv/bin/python scripts/stage-pictures.py [--ocular PATH] [--only samples|filters]

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
DOCS = REPOSITORY / "Sources/Ocular/Ocular.docc/Resources"
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

# The Core Image-style filters, as SAMPLES: name → (input, settings, caption). BADGE is a half-transparent
# picture made here for source-over compositing.
BADGE = "badge"
FILTERS = {
    "sepiaTone": (DEMO / "astronaut.jpg", {"intensity": 0.8}, "intensity 0.8"),
    "colorControls": (DEMO / "coffee.jpg", {"saturation": 1.6, "contrast": 1.2, "brightness": -0.05}, "saturation 1.6, contrast 1.2"),
    "colorMatrix": (DEMO / "astronaut.jpg", {"rVectorR": 0, "rVectorB": 1, "bVectorR": 1, "bVectorB": 0}, "red and blue swapped"),
    "exposureAdjust": (DEMO / "coffee.jpg", {"ev": 1}, "+1 EV"),
    "gammaAdjust": (DEMO / "coffee.jpg", {"power": 0.6}, "power 0.6"),
    "hueAdjust": (DEMO / "astronaut.jpg", {"angle": 120}, "120 degrees: red to green"),
    "highlightShadowAdjust": (DATA / "images" / "rocket.jpg", {"shadowAmount": 1, "highlightAmount": 0.5}, "shadows +1, highlights 0.5"),
    "temperatureAndTint": (DEMO / "coffee.jpg", {"neutralTemperature": 3500}, "taken in 3500 K light, shown as daylight"),
    "toneCurve": (DEMO / "chelsea.jpg", {"point1": [0.25, 0.15], "point3": [0.75, 0.85]}, "S-curve"),
    "vibrance": (DEMO / "chelsea.jpg", {"amount": 1}, "amount 1"),
    "whitePointAdjust": (DEMO / "astronaut.jpg", {"color": "#ffd8a0"}, "white becomes #ffd8a0"),
    "straighten": (DATA / "images" / "rocket.jpg", {"angle": 8}, "8 degrees, no empty corners"),
    "affineTransform": (DEMO / "chelsea.jpg", {"c": 0.3, "d": 0.8}, "sheared, squashed: x' = x + 0.3y, y' = 0.8y"),
    "crop": (DEMO / "astronaut.jpg", {"x": 0.3, "y": 0.05, "width": 0.4, "height": 0.5}, "x 0.3, y 0.05, 0.4 x 0.5"),
    "sourceOverCompositing": (DEMO / "coffee.jpg", {"image": BADGE}, "a half-transparent badge over the frame"),
    "constantColorGenerator": (DEMO / "coffee.jpg", {"color": "#3366cc"}, "#3366cc"),
    "gaussianBlur": (DEMO / "chelsea.jpg", {"radius": 6}, "radius 6"),
}


def badge(folder):
    """A picture with alpha: a yellow disc with a ring, opaque, on a half-transparent dark square."""
    image = np.zeros((400, 600, 4), np.uint8)
    image[:, :] = (40, 20, 0, 110)
    cv2.circle(image, (300, 200), 150, (0, 200, 255, 255), -1, cv2.LINE_AA)
    cv2.circle(image, (300, 200), 110, (30, 30, 30, 255), 12, cv2.LINE_AA)
    path = folder / "badge.png"
    cv2.imwrite(str(path), image)
    return path


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
    parser.add_argument("--only", choices=["samples", "filters"])
    arguments = parser.parse_args()
    executable = Path(arguments.ocular)
    sets = [(name, table) for name, table in [("samples", SAMPLES), ("filters", FILTERS)] if arguments.only in (None, name)]
    with tempfile.TemporaryDirectory() as folder:
        for set_name, table in sets:
            (DOCS / set_name).mkdir(parents=True, exist_ok=True)
            for name, (source, settings, caption) in table.items():
                picture(executable, Path(folder), set_name, name, source, settings, caption)


def picture(executable, folder, set_name, name, source, settings, caption):
    """One before/after pair into Resources/SET/NAME.jpg."""
    step = {"stage": name, **settings}
    if settings.get("image") == BADGE:
        step["image"] = str(badge(folder))
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
    pair = np.hstack([labelled(before, "before"), labelled(after, f"{name if set_name == 'filters' else step['stage']}: {caption}")])
    cv2.imwrite(str(DOCS / set_name / f"{name}.jpg"), pair, [cv2.IMWRITE_JPEG_QUALITY, 82])
    shown = json.dumps({"stages": [{**step, "image": "badge.png"} if "image" in step else step]})
    print(f"{set_name}/{name}.jpg  ocular {'process' if name == 'tracking' else 'apply'} … --recipe '{shown}'")


if __name__ == "__main__":
    main()
