"""The Samples page end to end: the OpenCV tutorial's samples listed from the registry, one at a time or
chained, on the fake camera (the astronaut pan), with the before/after divider, the findings line, and
Save into the gallery."""
import json
import subprocess

from conftest import OCULAR, screenshot
from test_gallery import gallery_api
from test_studio import stats, wait_for_frames

# Statistics of a vertical strip of the shown frame (fractions of its width): how colourful, how bright.
STRIP = """([left, right]) => {
  const canvas = document.getElementById('output');
  const x = Math.round(canvas.width * left), width = Math.max(1, Math.round(canvas.width * (right - left)));
  // Above the labels at the bottom.
  const { data } = canvas.getContext('2d').getImageData(x, 0, width, Math.round(canvas.height * 0.85));
  let gap = 0, sum = 0, n = 0;
  for (let i = 0; i < data.length; i += 4) {
    gap = Math.max(gap, Math.abs(data[i] - data[i + 1]), Math.abs(data[i + 1] - data[i + 2]));
    sum += data[i + 1];
    n += 1;
  }
  return { gap, mean: sum / n };
}"""


def recipe(page):
    return [step["stage"] for step in stats(page)["recipe"]["stages"]]


def wait_for_recipe(page, names):
    expected = json.dumps(names, separators=(",", ":"))
    try:
        page.wait_for_function(f"JSON.stringify(window.ocularStudio.stats().recipe.stages.map((s) => s.stage)) === '{expected}'",
                               timeout=10000)
    except Exception:
        raise AssertionError(f"recipe {recipe(page)} instead of {names}; notice: {page.inner_text('#notice')}")
    wait_for_frames(page, stats(page)["framesReceived"] + 3)


def move_divider(page, percent):
    page.eval_on_selector("#split", "(slider, value) => { slider.value = value; slider.dispatchEvent(new Event('input', { bubbles: true })); }",
                          percent)


def test_samples_one_at_a_time_or_chained_with_before_and_after_and_save(studio, camera_page):
    page = camera_page
    page.goto(studio.url + "samples.html")
    wait_for_frames(page, 3)
    assert page.get_attribute(".nav a[aria-current=page]", "href") == "samples.html"

    # The cards are the registry's samples, in its order, each with its declared controls.
    listed = json.loads(subprocess.run([str(OCULAR), "stages", "--json"], check=True, capture_output=True, text=True).stdout)
    samples = [stage for stage in listed["stages"] if stage["category"] == "sample"]
    assert page.eval_on_selector_all("li.stage-card", "(cards) => cards.map((card) => card.dataset.stage)") == [s["name"] for s in samples]
    assert len(samples) == 11
    for stage in samples:
        numbers = [p["name"] for p in stage["parameters"] if p["kind"] == "number"]
        sliders = page.eval_on_selector_all(f"input[type=range][data-stage={stage['name']}]", "(inputs) => inputs.map((i) => i.dataset.parameter)")
        assert sliders == numbers, stage["name"]

    # A first visit shows edges, with the frame as sent left of the divider and the edges right of it.
    wait_for_recipe(page, ["edges"])
    assert stats(page)["mode"] == "one" and stats(page)["split"] == 0.5
    before, after = page.evaluate(STRIP, [0.05, 0.48]), page.evaluate(STRIP, [0.6, 0.95])
    assert before["gap"] > 40, before  # the astronaut's orange suit or the flag, in every frame of the pan
    assert after["gap"] <= 2 and after["mean"] < 60, after  # white edges on black
    screenshot(page, "samples-edges-split.png")

    # The divider moves at once, without waiting for a frame: all the way left shows the processed frame alone.
    move_divider(page, 0)
    assert page.evaluate(STRIP, [0.05, 0.4])["gap"] <= 2
    # All the way right shows the frame as sent across the width. (Its strips' colour depends on where the looping
    # pan is: its right part is nearly gray in the first 7 of its 30 frames, its left part in the last two, so
    # each strip alone failed whenever the camera was there; the whole width has the flag or the suit in every one.)
    move_divider(page, 100)
    assert page.evaluate(STRIP, [0.05, 0.95])["gap"] > 40
    move_divider(page, 50)
    # Before/after off: the divider goes, the whole frame is processed.
    page.uncheck("#split-view")
    assert page.is_hidden("#split")
    wait_for_frames(page, stats(page)["framesReceived"] + 2)
    assert page.evaluate(STRIP, [0.05, 0.4])["gap"] <= 2 and stats(page)["split"] is None
    page.check("#split-view")

    # One at a time: switching sepia on switches edges off.
    page.click("li[data-stage=sepia] .stage-head label")
    wait_for_recipe(page, ["sepia"])
    assert page.eval_on_selector_all("input[data-stage-toggle]:checked", "(boxes) => boxes.map((b) => b.dataset.stageToggle)") == ["sepia"]

    # Chained: contours after sepia; the findings line counts the contours and gives their areas.
    page.click("#chain-mode")
    page.click("li[data-stage=contours] .stage-head label")
    wait_for_recipe(page, ["sepia", "contours"])
    page.wait_for_function("(window.ocularStudio.stats().found.contours || []).length > 0", timeout=10000)
    found = page.inner_text("#found")
    assert " contours: " in found and "px² in all" in found, found
    # A parameter from its control: the contours' minimum area.
    page.eval_on_selector("input[type=range][data-stage=contours][data-parameter=minimumArea]",
                          "(s) => { s.value = 500; s.dispatchEvent(new Event('input', { bubbles: true })); }")
    page.wait_for_function("window.ocularStudio.stats().recipe.stages.some((s) => s.stage === 'contours' && s.minimumArea === 500)", timeout=5000)
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    page.wait_for_function("(window.ocularStudio.stats().found.contours || [{area: 0}]).every((c) => c.area >= 500)", timeout=5000)
    screenshot(page, "samples-chain.png")

    # Save keeps the processed frame, with the chain's recipe.
    page.click("#save")
    page.wait_for_function("window.ocularStudio.stats().saves.length === 1", timeout=15000)
    saved = gallery_api(studio)["items"][0]
    assert [step["stage"] for step in saved["recipe"]["stages"]] == ["sepia", "contours"]
    assert page.is_visible("#share")

    # Back to one: the first of the chain stays.
    page.click("#one-mode")
    wait_for_recipe(page, ["sepia"])


def test_every_sample_runs_on_a_still(studio, cameraless_page):
    """Each sample, chosen alone on the built-in still, comes back processed with no error."""
    page = cameraless_page
    page.goto(studio.url + "samples.html")
    wait_for_frames(page, 2)
    # The square still is letterboxed in the wide view: the divider's slider spans the picture, not the view.
    picture = page.evaluate("""() => {
      const canvas = document.getElementById('output'), shown = canvas.getBoundingClientRect();
      const scale = Math.min(shown.width / canvas.width, shown.height / canvas.height);
      return { left: shown.left + (shown.width - canvas.width * scale) / 2, width: canvas.width * scale };
    }""")
    slider = page.locator("#split").bounding_box()
    assert abs(slider["x"] - picture["left"]) < 1 and abs(slider["width"] - picture["width"]) < 1, (slider, picture)
    assert picture["width"] < page.locator(".stage").bounding_box()["width"] - 50
    names = stats(page)["samples"]
    for name in names:
        page.check(f"input[data-stage-toggle={name}]")
        wait_for_recipe(page, [name])
        assert page.is_hidden("#notice") or "Server:" not in page.inner_text("#notice"), (name, page.inner_text("#notice"))
    screenshot(page, "samples-still.png")
