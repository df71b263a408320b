"""Faces nobody tuned on, live: a fake camera made from a frame of the robustness sweep (Grace Hopper,
from matplotlib's sample data, her face half the frame high on a plain wall). Light Work's faces stage and
Many Masks find her; Many Masks merges her with the chelsea still's cat."""
import json
import subprocess

import pytest

from conftest import DATA, OCULAR, REPOSITORY, browser_page, screenshot
from test_many_masks import wait_until
from test_studio import open_studio, stats, switch_on, wait_for_frames

FIXTURES = REPOSITORY / "Tests" / "Fixtures" / "faces"


def iou(a, b):
    width = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    height = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    if width <= 0 or height <= 0:
        return 0
    overlap = width * height
    return overlap / (a[2] * a[3] + b[2] * b[3] - overlap)


@pytest.fixture(scope="module")
def unseen_camera(tmp_path_factory):
    """`ocular faces sweep` of Grace Hopper and a faceless picture; its frame with her face 0.5 of the
    frame's height, as a looping 640×480 camera, and that face's label."""
    folder = tmp_path_factory.mktemp("unseen")
    sources = folder / "sources.json"
    sources.write_text(json.dumps([
        {"file": str(FIXTURES / "grace_hopper.jpg"), "faces": [{"species": "human", "bounds": [154, 104, 225, 225]}]},
        {"file": str(DATA / "images" / "coffee.png"), "faces": []},
    ]))
    sweep = folder / "sweep"
    subprocess.run([str(OCULAR), "faces", "sweep", str(sources), str(sweep), "--only", "size-0.50-grace_hopper"], check=True, capture_output=True)
    labels = {entry["file"]: entry["faces"] for entry in json.loads((sweep / "faces.json").read_text())}
    name = "size-0.50-grace_hopper.png"
    camera = folder / "grace.y4m"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-loop", "1", "-i", str(sweep / name), "-pix_fmt", "yuv420p",
                    "-frames:v", "20", str(camera)], check=True)
    return camera, labels[name][0]["bounds"]


@pytest.fixture
def unseen_page(playwright_instance, unseen_camera):
    with browser_page(playwright_instance, unseen_camera[0]) as page:
        yield page


def test_light_work_and_many_masks_find_a_face_half_the_frame_high_and_merge_it(studio, unseen_page, unseen_camera):
    page = unseen_page
    label = unseen_camera[1]
    assert label[3] == 240, label

    # Light Work, the faces stage with its default profile.
    open_studio(page, studio, 5)
    switch_on(page, "faces")
    received = stats(page)["annotationsReceived"]
    page.wait_for_function(f"window.ocularStudio.stats().annotationsReceived > {received + 5}", timeout=20000)
    faces = stats(page)["faces"]
    assert [face["species"] for face in faces] == ["human"], faces
    assert iou(faces[0]["bounds"], label) >= 0.5, (faces, label)
    screenshot(page, "faces-unseen.png")

    # Many Masks: capture her, then the cat, and merge.
    page.goto(studio.url + "many-masks.html")
    wait_for_frames(page, 5)
    wait_until(page, "window.ocularStudio.stats().faces.some((face) => face.species === 'human')")
    assert page.inner_text("#seen").startswith("Human face in view")
    human = next(face for face in stats(page)["faces"] if face["species"] == "human")
    assert iou(human["bounds"], label) >= 0.5, (human, label)
    wait_until(page, "!document.getElementById('capture-1').disabled")
    page.click("#capture-1")
    wait_until(page, "window.ocularStudio.stats().picked[1] === 'human'", 10000)
    page.select_option("#source", "chelsea")
    wait_until(page, "window.ocularStudio.stats().faces.some((face) => face.species === 'cat')")
    wait_until(page, "!document.getElementById('capture-2').disabled")
    page.click("#capture-2")
    wait_until(page, "window.ocularStudio.stats().picked[2] === 'cat'", 10000)
    page.click("#merge")
    wait_until(page, "window.ocularStudio.stats().reviewing", 10000)
    wait_until(page, "document.getElementById('review-image').naturalWidth > 0", 5000)
    merged = stats(page)["merged"]
    assert merged["species"] == "hybrid", merged
    screenshot(page, "many-masks-unseen-review.png")


@pytest.fixture(scope="module")
def pair_camera(tmp_path_factory):
    """Two people in one 1280×480 camera frame: the sweep's Grace Hopper 0.6 of the frame high beside its
    astronaut 0.25 of it, as a looping camera (sizes far enough apart that the network's boxes, which
    frame each source's face a little differently from its label, keep them apart too)."""
    folder = tmp_path_factory.mktemp("pair")
    sources = folder / "sources.json"
    sources.write_text(json.dumps([
        {"file": str(FIXTURES / "grace_hopper.jpg"), "faces": [{"species": "human", "bounds": [154, 104, 225, 225]}]},
        {"file": str(DATA / "faces" / "astronaut.png"), "faces": [{"species": "human", "bounds": [177, 67, 95, 95]}]},
        {"file": str(DATA / "images" / "coffee.png"), "faces": []},
    ]))
    sweep = folder / "sweep"
    subprocess.run([str(OCULAR), "faces", "sweep", str(sources), str(sweep), "--only", "size-0.60-grace_hopper", "--only", "size-0.25-astronaut"],
                   check=True, capture_output=True)
    camera = folder / "pair.y4m"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-loop", "1", "-i", str(sweep / "size-0.60-grace_hopper.png"),
                    "-loop", "1", "-i", str(sweep / "size-0.25-astronaut.png"), "-filter_complex", "hstack=inputs=2",
                    "-pix_fmt", "yuv420p", "-frames:v", "20", str(camera)], check=True)
    return camera


@pytest.fixture
def pair_page(playwright_instance, pair_camera):
    with browser_page(playwright_instance, pair_camera) as page:
        yield page


def test_many_masks_picks_the_two_biggest_of_a_group_or_the_face_tapped(studio, pair_page):
    page = pair_page
    page.goto(studio.url + "many-masks.html")
    wait_for_frames(page, 5)
    wait_until(page, "window.ocularStudio.stats().faces.length === 2")
    assert page.inner_text("#seen").startswith("Human face in view (the biggest of 2)")

    # Both at once: the bigger as face 1.
    wait_until(page, "!document.getElementById('capture-biggest').disabled")
    page.click("#capture-biggest")
    wait_until(page, "window.ocularStudio.stats().picked[1] === 'human' && window.ocularStudio.stats().picked[2] === 'human'", 10000)
    faces = sorted(stats(page)["faces"], key=lambda face: face["bounds"][2] * face["bounds"][3])
    smaller, bigger = faces[0]["bounds"], faces[1]["bounds"]
    # Between frames a followed box may move by a pixel or two: the sizes are compared within a tenth.
    def picked_width(slot):
        return int(page.inner_text(f"#slot-{slot} figcaption").removeprefix("Human, ").split("×")[0])
    assert abs(picked_width(1) - bigger[2]) <= bigger[2] / 10, (page.inner_text("#slot-1 figcaption"), bigger)
    assert abs(picked_width(2) - smaller[2]) <= smaller[2] / 10, (page.inner_text("#slot-2 figcaption"), smaller)
    assert bigger[2] > 1.3 * smaller[2], (bigger, smaller)
    assert page.is_enabled("#merge")

    # A tap on the smaller face keeps it as face 1. Where it shows: the frame letterboxed in the canvas,
    # mirrored when the page shows the front camera as a selfie view (the server maps the tap itself).
    x, y = page.evaluate("""([box]) => {
        const canvas = document.getElementById('output');
        const view = canvas.getBoundingClientRect();
        const scale = Math.min(view.width / canvas.width, view.height / canvas.height);
        let x = box[0] + box[2] / 2;
        const y = box[1] + box[3] / 2;
        const mirrored = getComputedStyle(canvas).transform !== 'none';
        if (mirrored) x = canvas.width - x;
        return [view.left + (view.width - canvas.width * scale) / 2 + x * scale,
                view.top + (view.height - canvas.height * scale) / 2 + y * scale];
    }""", [smaller])
    page.mouse.click(x, y)
    wait_until(page, f"parseInt(document.querySelector('#slot-1 figcaption').textContent.slice(7)) < {(bigger[2] + smaller[2]) / 2}", 10000)
    assert abs(picked_width(1) - smaller[2]) <= smaller[2] / 10, (page.inner_text("#slot-1 figcaption"), smaller)
    screenshot(page, "many-masks-pair.png")
