#!/usr/bin/env python3
"""Pictures made from the bean counter's training photos (../shared/data/beancounter), for tests,
the studio's demo still and the held-apart evaluation of the classifiers.

    bean-pictures.py scene OUT.jpg            the 1280x720 demo scene: the seven objects on plain paper
    bean-pictures.py crops OUT_DIR [--seed N] [--per-label K]
                                              K crops per label, each object cut out of its photo,
                                              rotated, scaled 0.25-0.7, relit +-15 % and put on a new
                                              plain background, with OUT_DIR/labels.json
    bean-pictures.py training OUT_DIR         the training set shrunk to 256 px (the studio's default)

Needs Python with cv2 and numpy (make bench creates .venv-bench with them).
"""
import argparse, json, os
import cv2
import numpy as np

DATA = os.environ.get("OCULAR_TEST_DATA", os.path.join(os.path.dirname(__file__), "..", "..", "shared", "data"))
FOLDER = os.path.join(DATA, "beancounter")


def training():
    listing = json.load(open(os.path.join(FOLDER, "labels.json")))
    return listing, [(b["imageFilename"], cv2.imread(os.path.join(FOLDER, b["imageFilename"])), b["label"]) for b in listing["blobs"]]


def cutout(image):
    """The object's silhouette: pixels far from the paper's colour (judged on the border), the biggest part, holes filled."""
    border = np.concatenate([image[0], image[-1], image[:, 0], image[:, -1]]).astype(np.float32)
    mean, spread = border.mean(0), border.std(0) + 4
    far = ((np.abs(image.astype(np.float32) - mean) / spread).max(2) > 2.5).astype(np.uint8) * 255
    far = cv2.morphologyEx(far, cv2.MORPH_CLOSE, np.ones((15, 15), np.uint8))
    far = cv2.morphologyEx(far, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(far)
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    contours, _ = cv2.findContours((labels == biggest).astype(np.uint8) * 255, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    silhouette = np.zeros(far.shape, np.uint8)
    cv2.drawContours(silhouette, contours, -1, 255, -1)
    return silhouette


def place(canvas, image, centre, size, angle):
    """Draws the object's cut-out `size` pixels across its long side at `centre`, turned by `angle` degrees."""
    scale = size / max(image.shape[:2])
    small = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA).astype(np.float32)
    alpha = cv2.resize(cutout(image), (small.shape[1], small.shape[0])).astype(np.float32) / 255
    turn = cv2.getRotationMatrix2D((small.shape[1] / 2, small.shape[0] / 2), angle, 1.0)
    turn[0, 2] += centre[0] - small.shape[1] / 2
    turn[1, 2] += centre[1] - small.shape[0] / 2
    height, width = canvas.shape[:2]
    drawn = cv2.warpAffine(small, turn, (width, height))
    alpha = cv2.GaussianBlur(cv2.warpAffine(alpha, turn, (width, height)), (0, 0), 1.2)[..., None]
    return drawn * alpha + canvas * (1 - alpha)


def scene(path):
    rng = np.random.default_rng(3)
    _, objects = training()
    width, height = 1280, 720
    canvas = np.ones((height, width, 3), np.float32) * np.array([196, 203, 208], np.float32)
    y, x = np.mgrid[0:height, 0:width]
    canvas *= (1.0 - 0.06 * ((x / width - 0.4) ** 2 + (y / height - 0.3) ** 2))[..., None]  # paper under a lamp
    spots = [(170, 190), (470, 170), (800, 200), (1110, 210), (230, 520), (560, 520), (900, 520)]
    sizes = [150, 130, 170, 190, 210, 160, 170]
    for (_, image, _), centre, size in zip(objects, spots, sizes):
        canvas = place(canvas, image, centre, size, rng.uniform(-40, 40))
    canvas = np.clip(canvas + rng.normal(0, 2, canvas.shape), 0, 255).astype(np.uint8)
    cv2.imwrite(path, canvas, [cv2.IMWRITE_JPEG_QUALITY, 88])
    # Where each object is, for the tests.
    print(json.dumps([{"label": label, "centre": centre} for (_, _, label), centre in zip(objects, spots)]))


def crops(folder, seed, per_label):
    rng = np.random.default_rng(seed)
    listing, objects = training()
    os.makedirs(folder, exist_ok=True)
    blobs = []
    for name, image, label in objects:
        for index in range(per_label):
            size = int(max(image.shape[:2]) * rng.uniform(0.25, 0.7))
            side = int(size * 1.8)
            paper = rng.uniform(150, 235) * np.array([rng.uniform(0.92, 1), rng.uniform(0.96, 1.02), 1])
            canvas = np.ones((side, side, 3), np.float32) * paper
            canvas = place(canvas, image, (side / 2, side / 2), size, rng.uniform(0, 360))
            canvas = np.clip(canvas * rng.uniform(0.85, 1.15) + rng.normal(0, 3, canvas.shape), 0, 255).astype(np.uint8)
            file = f"{os.path.splitext(name)[0]}_{index:02d}.png"
            cv2.imwrite(os.path.join(folder, file), canvas)
            blobs.append({"imageFilename": file, "label": label})
    json.dump({"labelDescriptions": listing["labelDescriptions"], "blobs": blobs}, open(os.path.join(folder, "labels.json"), "w"), indent=1)


def shrunk_training(folder):
    listing, objects = training()
    os.makedirs(folder, exist_ok=True)
    for name, image, _ in objects:
        scale = 256 / max(image.shape[:2])
        cv2.imwrite(os.path.join(folder, os.path.splitext(name)[0] + ".jpg"),
                    cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA), [cv2.IMWRITE_JPEG_QUALITY, 92])
    blobs = [{"imageFilename": os.path.splitext(name)[0] + ".jpg", "label": label} for name, _, label in objects]
    json.dump({"labelDescriptions": listing["labelDescriptions"], "blobs": blobs}, open(os.path.join(folder, "labels.json"), "w"), indent=1)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("what", choices=["scene", "crops", "training"])
    parser.add_argument("out")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--per-label", type=int, default=20)
    arguments = parser.parse_args()
    if arguments.what == "scene":
        scene(arguments.out)
    elif arguments.what == "crops":
        crops(arguments.out, arguments.seed, arguments.per_label)
    else:
        shrunk_training(arguments.out)
