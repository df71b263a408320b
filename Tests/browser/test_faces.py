"""The faces stage live: the fake camera's astronaut gets the overlay, and the page lists the faces the
server sends beside each frame."""
import json

from conftest import DATA, screenshot
from test_studio import open_studio, stats, switch_on, wait_for_frames

# Pixels of the overlay's yellow (the face box) in the shown frame; JPEG halves a thin line's chroma.
YELLOW_PIXELS = """() => {
  const canvas = document.getElementById('output');
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let yellow = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (data[i] > 180 && data[i + 1] > 180 && data[i + 2] < data[i] - 70) yellow += 1;
  }
  return yellow;
}"""


def test_the_faces_stage_draws_and_lists_the_astronaut(studio, camera_page):
    page = camera_page
    open_studio(page, studio, 5)
    assert page.is_hidden("#findings")
    switch_on(page, "faces")
    received = stats(page)["annotationsReceived"]
    page.wait_for_function(f"window.ocularStudio.stats().annotationsReceived > {received + 10}", timeout=20000)

    # The camera is the clip scaled from 480×360 to 640×480: the labelled 66-pixel face is 88 pixels,
    # its top at 47 × 4/3 = 63, its left edge moving from 59 to 435 as the clip pans.
    faces = stats(page)["faces"]
    assert len(faces) == 1, faces
    face = faces[0]
    x, y, width, height = face["bounds"]
    assert face["species"] == "human"
    # Within a third of the label's 88 pixels: the default's boxes (steps of 1.1) run a little larger.
    assert 66 <= width <= 118 and 66 <= height <= 118, face
    assert abs(y - 63) <= 15 and 40 <= x <= 460, face
    assert x < face["leftEye"][0] < face["rightEye"][0] < x + width, face
    assert page.evaluate(YELLOW_PIXELS) > 150, "the yellow face box shows in the frame"
    assert page.is_visible("#findings")
    row = page.inner_text("#faces-list li")
    assert row.startswith("Human") and "×" in row, row
    screenshot(page, "faces-live.png")

    # The textbook profile's smallest face is a quarter of the short side (120 pixels here): it finds none.
    page.select_option("select[data-stage=faces][data-parameter=profile]", "textbook")
    page.wait_for_function(
        "window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'faces' && step.profile === 'textbook')",
        timeout=5000)
    wait_for_frames(page, stats(page)["framesReceived"] + 5)
    assert stats(page)["faces"] == []
    assert page.inner_text("#faces-list") == "No face in this frame."

    # Switched off, the list goes away.
    page.uncheck("input[data-stage-toggle=faces]")
    page.wait_for_function("!window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'faces')", timeout=5000)
    assert page.is_hidden("#findings")
