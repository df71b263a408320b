"""Faces nobody tuned on, live: a fake camera made from a frame of the robustness sweep (Grace Hopper,
from matplotlib's sample data, her face half the frame high on a plain wall). Light Work's faces stage and
Many Masks find her; Many Masks merges her with the chelsea still's cat."""
import json
import subprocess

import pytest

from conftest import DATA, OCULAR, REPOSITORY, browser_page, screenshot
from test_masks import wait_until
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
    subprocess.run([str(OCULAR), "faces", "sweep", str(sources), str(sweep)], check=True, capture_output=True)
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
    page.goto(studio.url + "masks.html")
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
    screenshot(page, "masks-unseen-review.png")
