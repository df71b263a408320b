#!/usr/bin/env python3
"""The docs site's stage gallery, like scikit-image's example gallery: every stage the `ocular` command
lists (`ocular stages --json`, the registry itself) run by the CLI on a picture with its defaults and with
one or two telling variations, laid out as before/after pictures with the recipe under each, on a page that
opens from disk.

    .venv/bin/python scripts/stage-gallery.py [--ocular PATH] [--output docs/site/stages] [--height 360]

A stage without an entry in VARIATIONS still appears, with its defaults on the coffee picture: a new stage
is never left out, and Tests/browser/test_stage_gallery.py checks that every registered stage is on the page.
Needs OpenCV for Python (the test .venv has it) to scale the input pictures and make the badge.
"""
import argparse
import concurrent.futures
import html
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import cv2
import numpy as np

REPOSITORY = Path(__file__).resolve().parent.parent
DATA = Path(os.environ.get("OCULAR_TEST_DATA", REPOSITORY.parent / "shared" / "data"))
DEMO = REPOSITORY / "Sources" / "OcularStudio" / "Public" / "demo"

# Pictures by name: the studio's embedded demo pictures (in the repository), and two made here.
PICTURES = {
    "astronaut": DEMO / "astronaut.jpg",
    "beans": DEMO / "beans.jpg",
    "chelsea": DEMO / "chelsea.jpg",
    "coffee": DEMO / "coffee.jpg",
}
NOISY = "noisy astronaut"  # the astronaut with Gaussian noise (sigma 20): the denoiser needs noise to show
BADGE = "badge"  # a half-transparent picture to composite or blend over the frame
CLIP = DATA / "video" / "astronaut_pan.avi"  # the tracking stage follows points between frames: a clip
CLIP_FRAME = 25


def clip_source(folder):
    """The shared astronaut pan; without the shared data, a pan across the demo astronaut made here."""
    if CLIP.exists():
        return CLIP
    picture = cv2.imread(str(PICTURES["astronaut"]))
    height, width = picture.shape[:2]
    side = min(height, width) * 3 // 4
    path = folder / "astronaut-pan.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 25, (side, side))
    for index in range(CLIP_FRAME + 10):
        x = (width - side) * index // (CLIP_FRAME + 9)
        y = (height - side) * index // (CLIP_FRAME + 9)
        writer.write(np.ascontiguousarray(picture[y:y + side, x:x + side]))
    writer.release()
    return path

# stage → (picture, [(settings beyond the stage's name, caption)]): the defaults come first on every page,
# then these. An image parameter set to BADGE gets the badge's file.
VARIATIONS = {
    "gray": ("coffee", []),
    "whiteBalance": ("coffee", [({"saturationThreshold": 0.6}, "only pixels below 60 % saturation count")]),
    "tint": ("chelsea", [({"seed": 7}, "seed 7: another tint"), ({"seed": 7, "interval": 0.5}, "seed 7, a new tint every 0.5 s")]),
    "blend": ("chelsea", [({"source": BADGE, "mode": "multiply"}, "multiply"), ({"source": BADGE, "mode": "difference", "opacity": 0.7},
                                                                                "difference at 70 %")]),
    "faces": ("astronaut", [({"drawEyes": False, "drawNose": False, "drawMouth": False}, "faces only")]),
    "blobs": ("beans", [({"mask": True}, "the mask the blobs were cut from")]),
    "posterize": ("chelsea", [({"levels": 2}, "2 levels"), ({"levels": 8}, "8 levels")]),
    "zoom": ("chelsea", [({"factor": 2}, "2x about the middle"), ({"factor": 4, "centre": [0.3, 0.35], "interpolation": "nearest"},
                                                                  "4x on the eyes, nearest pixel")]),
    "edges": ("astronaut", [({"method": "sobel", "edgesOnly": False}, "Sobel magnitude over the frame")]),
    "corners": ("coffee", [({"threshold": 0.05, "maximum": 50}, "the 50 strongest above 5 %")]),
    "sepia": ("astronaut", []),
    "negative": ("astronaut", []),
    "contrastBrightness": ("coffee", [({"contrast": 1.6, "brightness": -60}, "contrast 1.6, brightness -60")]),
    "contours": ("beans", [({"mode": "outer", "minimumArea": 400, "thickness": 4}, "outer contours over 400 px")]),
    "cartoon": ("chelsea", [({"levels": 2, "edgeThickness": 3}, "2 levels, thicker edges")]),
    "features": ("coffee", [({"detector": "akaze"}, "AKAZE"), ({"detector": "fast", "maximum": 300}, "FAST, 300 strongest")]),
    "tracking": (CLIP, [({"trail": 8}, "8-frame trails")]),
    "totalVariation": (NOISY, [({"lambda": 0.5, "iterations": 60}, "lambda 0.5, 60 iterations: smoother")]),
    "drawingCanvas": ("astronaut", [({"blockSize": 15, "offset": 9}, "block 15, offset 9")]),
    "colorControls": ("coffee", [({"saturation": 1.6, "contrast": 1.2}, "saturation 1.6, contrast 1.2"), ({"saturation": 0}, "saturation 0")]),
    "exposureAdjust": ("coffee", [({"ev": 1}, "+1 EV"), ({"ev": -1}, "-1 EV")]),
    "gammaAdjust": ("coffee", [({"power": 0.6}, "power 0.6"), ({"power": 1.8}, "power 1.8")]),
    "hueAdjust": ("astronaut", [({"angle": 120}, "120 degrees: red to green")]),
    "vibrance": ("chelsea", [({"amount": 1}, "amount 1"), ({"amount": -1}, "amount -1")]),
    "highlightShadowAdjust": ("astronaut", [({"shadowAmount": 1, "highlightAmount": 0.5}, "shadows +1, highlights 0.5")]),
    "temperatureAndTint": ("coffee", [({"neutralTemperature": 3500}, "taken in 3500 K light, shown as daylight")]),
    "whitePointAdjust": ("astronaut", [({"color": "#ffd8a0"}, "white becomes #ffd8a0")]),
    "toneCurve": ("chelsea", [({"point1": [0.25, 0.15], "point3": [0.75, 0.85]}, "an S-curve")]),
    "colorMatrix": ("astronaut", [({"rVectorR": 0, "rVectorB": 1, "bVectorR": 1, "bVectorB": 0}, "red and blue swapped")]),
    "sepiaTone": ("astronaut", [({"intensity": 0.5}, "intensity 0.5")]),
    "gaussianBlur": ("chelsea", [({"radius": 3}, "radius 3")]),
    "straighten": ("coffee", [({"angle": 8}, "8 degrees, no empty corners")]),
    "affineTransform": ("chelsea", [({"c": 0.3, "d": 0.8}, "sheared and squashed: x' = x + 0.3y, y' = 0.8y")]),
    "crop": ("astronaut", [({"x": 0.3, "y": 0.05, "width": 0.4, "height": 0.5}, "x 0.3, y 0.05, 0.4 by 0.5")]),
    "sourceOverCompositing": ("coffee", [({"image": BADGE}, "a half-transparent badge over the frame")]),
    "constantColorGenerator": ("coffee", [({"color": "#3366cc"}, "#3366cc")]),
}

# Stages whose defaults do nothing without a picture to add: the default render sets it, and says so.
NEEDS_IMAGE = {"blend": "source", "sourceOverCompositing": "image"}

CATEGORY_TITLES = {
    "colourAdjustment": "Colour adjustment", "colourEffect": "Colour effects", "blur": "Blur", "sharpen": "Sharpen",
    "stylize": "Stylize", "geometry": "Geometry", "composite": "Compositing", "generator": "Generators",
    "detection": "Detection", "sample": "The OpenCV tutorial's samples",
}


def run(arguments):
    result = subprocess.run([str(a) for a in arguments], capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(map(str, arguments))} failed: {result.stderr.strip()}")


def prepare_pictures(folder, height):
    """Every input picture, scaled to `height` pixels tall, as PNG in `folder`: name → path."""
    prepared = {}

    def scaled(image):
        scale = height / image.shape[0]
        return cv2.resize(image, (round(image.shape[1] * scale), height), interpolation=cv2.INTER_AREA)

    for name, path in PICTURES.items():
        image = cv2.imread(str(path))
        if image is None:
            raise SystemExit(f"cannot read {path}")
        prepared[name] = folder / f"{name.replace(' ', '-')}.png"
        cv2.imwrite(str(prepared[name]), scaled(image))
    astronaut = cv2.imread(str(prepared["astronaut"])).astype(np.float64)
    noise = np.random.default_rng(1).normal(0, 20, astronaut.shape)
    prepared[NOISY] = folder / "noisy-astronaut.png"
    cv2.imwrite(str(prepared[NOISY]), np.clip(astronaut + noise, 0, 255).astype(np.uint8))
    side = height
    badge = np.zeros((side, side * 3 // 2, 4), np.uint8)
    badge[:, :] = (40, 20, 0, 110)
    centre = (badge.shape[1] // 2, side // 2)
    cv2.circle(badge, centre, side * 3 // 8, (0, 200, 255, 255), -1, cv2.LINE_AA)
    cv2.circle(badge, centre, side * 11 // 40, (30, 30, 30, 255), max(2, side // 33), cv2.LINE_AA)
    prepared[BADGE] = folder / "badge.png"
    cv2.imwrite(str(prepared[BADGE]), badge)
    return prepared


def clip_frame(path, index, height):
    capture = cv2.VideoCapture(str(path))
    capture.set(cv2.CAP_PROP_POS_FRAMES, index)
    ok, frame = capture.read()
    if not ok:
        raise RuntimeError(f"cannot read frame {index} of {path}")
    scale = height / frame.shape[0]
    return cv2.resize(frame, (round(frame.shape[1] * scale), height), interpolation=cv2.INTER_AREA)


def render(job):
    """Runs one recipe through the CLI; writes the result as JPEG in the output folder."""
    executable, work, output, height, stage, index, picture, step, clip = job
    recipe = json.dumps({"stages": [step]})
    result = output / f"{stage}-{index}.jpg"
    if picture == CLIP:
        processed = work / f"{stage}-{index}.avi"
        run([executable, "process", clip, "-o", processed, "--recipe", recipe])
        cv2.imwrite(str(result), clip_frame(processed, CLIP_FRAME, height), [cv2.IMWRITE_JPEG_QUALITY, 85])
    else:
        png = work / f"{stage}-{index}.png"
        run([executable, "apply", picture, "-o", png, "--recipe", recipe])
        image = cv2.imread(str(png), cv2.IMREAD_UNCHANGED)
        if image.ndim == 3 and image.shape[2] == 4:  # alpha over a checkerboard, as image editors show it
            tiles = (np.indices(image.shape[:2]).sum(axis=0) // 8 % 2 * 60 + 160).astype(np.float64)[..., None]
            alpha = image[..., 3:4] / 255.0
            image = (image[..., :3] * alpha + tiles * (1 - alpha)).astype(np.uint8)
        cv2.imwrite(str(result), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
    return result


def shown_recipe(step):
    """The recipe as a reader would write it: file names, not this run's temporary paths."""
    shown = {}
    for key, value in step.items():
        shown[key] = "badge.png" if isinstance(value, str) and value.endswith("badge.png") else value
    return json.dumps({"stages": [shown]})


def describe_parameter(parameter):
    default = parameter.get("default")
    text = json.dumps(default) if default is not None else "none"
    if "minimum" in parameter and "maximum" in parameter:
        text += f" ({parameter['minimum']} to {parameter['maximum']})"
    elif "options" in parameter:
        text += " (" + ", ".join(str(option["value"]) for option in parameter["options"]) + ")"
    return text


def page(stages, entries, before_names):
    """The gallery page: a section per stage, grouped by category, with relative links only."""
    categories = []
    for stage in stages:
        if stage["category"] not in categories:
            categories.append(stage["category"])
    parts = ["""<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ocular: every stage, before and after</title>
<style>
body { font: 15px/1.45 system-ui, sans-serif; margin: 0 auto; max-width: 1180px; padding: 0 16px 48px; color: #1d1d1f; }
header { padding: 24px 0 8px; }
nav a { margin-right: 14px; }
h2 { margin-top: 40px; border-bottom: 1px solid #ddd; padding-bottom: 4px; }
section.stage { margin: 28px 0; }
section.stage h3 { margin-bottom: 2px; }
section.stage h3 code { font-size: 0.8em; color: #666; margin-left: 8px; }
.summary { margin: 2px 0 8px; }
.parameters { font-size: 13px; color: #444; margin: 0 0 10px; }
.pictures { display: flex; flex-wrap: wrap; gap: 14px; }
figure { margin: 0; width: 270px; }
figure img { width: 270px; height: auto; border-radius: 4px; background: #eee; display: block; }
figcaption { font-size: 13px; margin-top: 4px; }
figcaption pre { white-space: pre-wrap; overflow-wrap: anywhere; background: #f4f4f6; padding: 6px; border-radius: 4px;
                 font-size: 12px; margin: 4px 0 0; }
</style>
</head>
<body>
<header>
<h1>Every stage, before and after</h1>
<p>Each of Ocular's """ + str(len(stages)) + """ registered stages, run by the <code>ocular</code> command line on a picture:
first with its default parameters, then with one or two telling variations. The recipe under each picture
is what <code>ocular apply PICTURE --recipe '…' -o OUT.jpg</code> was given; paste it into the studio's
recipe box or a file to do the same. <a href="../index.html">Back to the documentation.</a></p>
<nav>""" + "".join(f'<a href="#{c}">{html.escape(CATEGORY_TITLES.get(c, c))}</a>' for c in categories) + """</nav>
</header>
"""]
    for category in categories:
        parts.append(f'<h2 id="{category}">{html.escape(CATEGORY_TITLES.get(category, category))}</h2>\n')
        for stage in (s for s in stages if s["category"] == category):
            name = stage["name"]
            parameters = "; ".join(f"<code>{html.escape(p['name'])}</code> {html.escape(describe_parameter(p))}"
                                   for p in stage["parameters"]) or "no parameters"
            parts.append(f'<section class="stage" id="stage-{name}" data-stage="{name}">\n'
                         f'<h3>{html.escape(stage["title"])}<code>{name}</code></h3>\n'
                         f'<p class="summary">{html.escape(stage["summary"])}</p>\n'
                         f'<p class="parameters">Parameters: {parameters}</p>\n<div class="pictures">\n'
                         f'<figure class="before"><img src="{before_names[name]}" alt="{name}: before" loading="lazy">'
                         f'<figcaption>before</figcaption></figure>\n')
            for image, caption, recipe in entries[name]:
                parts.append(f'<figure class="after"><img src="{image}" alt="{name}: {html.escape(caption)}" loading="lazy">'
                             f'<figcaption>{html.escape(caption)}<pre class="recipe">{html.escape(recipe)}</pre></figcaption></figure>\n')
            parts.append("</div>\n</section>\n")
    parts.append("</body>\n</html>\n")
    return "".join(parts)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--ocular", default=REPOSITORY / ".build" / "debug" / "ocular", type=Path)
    parser.add_argument("--output", default=REPOSITORY / "docs" / "site" / "stages", type=Path)
    parser.add_argument("--height", default=360, type=int, help="the pictures' height in pixels")
    arguments = parser.parse_args()
    listed = subprocess.run([str(arguments.ocular), "stages", "--json"], capture_output=True, text=True, check=True)
    stages = json.loads(listed.stdout)["stages"]
    output = arguments.output
    if output.exists():
        shutil.rmtree(output)
    output.mkdir(parents=True)

    with tempfile.TemporaryDirectory() as folder:
        work = Path(folder)
        pictures = prepare_pictures(work, arguments.height)
        clip = clip_source(work)
        jobs, plans, before_names, written_befores = [], {}, {}, {}
        for stage in stages:
            name = stage["name"]
            picture_name, variations = VARIATIONS.get(name, ("coffee", []))
            picture = CLIP if picture_name == CLIP else pictures[picture_name]
            default_step, default_caption = {"stage": name}, "defaults"
            if name in NEEDS_IMAGE:
                default_step[NEEDS_IMAGE[name]] = str(pictures[BADGE])
                default_caption = f"defaults, with the badge as {NEEDS_IMAGE[name]}"
            steps = [(default_step, default_caption)]
            for settings, caption in variations:
                settings = {key: str(pictures[BADGE]) if value == BADGE else value for key, value in settings.items()}
                steps.append(({"stage": name, **settings}, caption))
            plans[name] = [(f"{name}-{index}.jpg", caption, shown_recipe(step)) for index, (step, caption) in enumerate(steps)]
            jobs += [(arguments.ocular, work, output, arguments.height, name, index, picture, step, clip)
                     for index, (step, _) in enumerate(steps)]
            before = "clip" if picture == CLIP else picture_name
            if before not in written_befores:
                path = output / f"before-{before.replace(' ', '-')}.jpg"
                image = clip_frame(clip, CLIP_FRAME, arguments.height) if picture == CLIP else cv2.imread(str(picture))
                cv2.imwrite(str(path), image, [cv2.IMWRITE_JPEG_QUALITY, 85])
                written_befores[before] = path.name
            before_names[name] = written_befores[before]

        failures = []
        done = 0
        with concurrent.futures.ThreadPoolExecutor(max_workers=os.cpu_count() or 2) as pool:
            futures = {pool.submit(render, job): job for job in jobs}
            for future in concurrent.futures.as_completed(futures):
                done += 1
                try:
                    future.result()
                except RuntimeError as error:
                    failures.append(str(error))
                print(f"\rstage gallery: {done}/{len(jobs)} pictures", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        if failures:
            raise SystemExit("stage gallery: " + "\n".join(failures))

    (output / "index.html").write_text(page(stages, plans, before_names), encoding="utf-8")
    print(f"stage gallery: {len(stages)} stages, {len(jobs)} pictures in {output}/index.html")


if __name__ == "__main__":
    main()
