"""Bean Counter end to end: the fake camera shows coins and beans on paper (the demo scene made from the
shared training photos); the page waits for the classifier, boxes the objects, shows the mask, classifies
the biggest, saves it captioned with its label, and shares it."""

import pytest

from conftest import browser_page, screenshot
from test_gallery import gallery_api
from test_studio import stats, wait_for_frames

# The mean of the output canvas's red channel over a strip of paper near the top.
PAPER_BRIGHTNESS = """(() => {
  const canvas = document.getElementById('output');
  const pixels = canvas.getContext('2d').getImageData(0, Math.round(canvas.height * 0.2), canvas.width, 4).data;
  let sum = 0;
  for (let index = 0; index < pixels.length; index += 4) sum += pixels[index];
  return sum / (pixels.length / 4);
})()"""

NAVIGATION = "(links) => links.map((link) => [link.textContent, link.getAttribute('aria-current')])"


def wait_until(page, condition, timeout=20000):
    page.wait_for_function(condition, timeout=timeout)


@pytest.fixture
def beans_page(playwright_instance, beans_camera_file):
    with browser_page(playwright_instance, beans_camera_file) as page:
        yield page


def test_count_classify_review_save_and_share_the_biggest_coin(studio, beans_page):
    page = beans_page
    page.goto(studio.url + "bean-counter.html")
    assert page.eval_on_selector_all(".nav a", NAVIGATION) == [
        ["Light Work", None], ["Many Masks", None], ["Bean Counter", "page"], ["Samples", None], ["Filters", None], ["Gallery", None]]
    # The classifier says it is training until it is ready (a fresh studio trains or loads its model).
    assert page.inner_text("#classifier-text").startswith(("Training classifier", "Classifier ready"))
    wait_until(page, "window.ocularStudio.stats().classifier === 'ready'")
    assert page.inner_text("#classifier-text") == "Classifier ready: 7 pictures of 8 kinds"
    wait_for_frames(page, 5)

    # Seven objects in the camera, each boxed.
    wait_until(page, "window.ocularStudio.stats().blobs.length === 7")
    assert page.inner_text("#seen").startswith("7 objects in view")
    wait_until(page, "!document.getElementById('classify').disabled")
    # Once the classifier is ready the recipe names the studio's list: every object is named and
    # counted, the tally steadied over frames, the money added up from the list's values.
    wait_until(page, "window.ocularStudio.stats().recipe.stages[0].training === 'default'")
    wait_until(page, "(window.ocularStudio.stats().tally || {}).count === 7", 10000)
    tally = stats(page)["tally"]
    assert {line["label"]: line["count"] for line in tally["lines"]} == {label: 1 for label in range(2, 9)}
    assert tally["totals"] == {"CAD": 3.4}
    assert tally["text"] == ("1 Canadian nickel, 1 Canadian dime, 1 Canadian quarter, 1 loonie, 1 toonie, "
                             "1 pinto bean, 1 romano bean: $3.40")
    assert page.inner_text("#tally-text") == tally["text"]
    assert sorted(blob["label"] for blob in stats(page)["blobs"]) == list(range(2, 9))
    assert all(blob["description"] and blob["distance"] < 0.33 for blob in stats(page)["blobs"])
    screenshot(page, "bean-counter.png")

    # The mask: black objects on white, and back to the picture.
    page.click("#mask-mode")
    wait_until(page, "window.ocularStudio.stats().recipe.stages[0].mask === true")
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    # The paper is white in the mask (about 205 in the picture), the toonie black.
    assert page.evaluate(PAPER_BRIGHTNESS) > 245
    screenshot(page, "bean-counter-mask.png")
    assert page.get_attribute("#mask-mode", "aria-pressed") == "true"
    page.click("#image-mode")
    wait_until(page, "window.ocularStudio.stats().recipe.stages[0].mask === false")
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    assert page.evaluate(PAPER_BRIGHTNESS) < 235

    # Classify: the biggest object is the toonie.
    page.click("#classify")
    wait_until(page, "window.ocularStudio.stats().reviewing", 10000)
    wait_until(page, "document.getElementById('review-image').naturalWidth > 0", 5000)
    blob = stats(page)["classified"]
    assert blob["label"] == 6 and blob["description"] == "toonie, Canadian two-dollar"
    assert 0 < blob["distance"] < 0.33
    assert page.inner_text("#review-title") == "Toonie, Canadian two-dollar"
    assert page.inner_text("#review-meta").startswith("Label 6, distance 0.")
    screenshot(page, "bean-counter-review.png")

    # Save: captioned with the label, then Share downloads the saved file (no Web Share here).
    page.click("#review-save")
    wait_until(page, "window.ocularStudio.stats().saves.length === 1", 10000)
    assert stats(page)["saves"] == [{"id": 1, "caption": "toonie, Canadian two-dollar"}]
    assert page.is_disabled("#review-save")
    with page.expect_download() as download:
        page.click("#review-share")
    assert download.value.suggested_filename.endswith(".png")
    page.click("#review-discard")
    items = gallery_api(studio)["items"]
    assert [(item["caption"], item["source"]) for item in items] == [("toonie, Canadian two-dollar", "bean counter")]


def test_bean_counter_without_a_camera_shows_the_coins_still(studio, cameraless_page):
    page = cameraless_page
    page.goto(studio.url + "bean-counter.html")
    wait_for_frames(page, 3)
    assert "No camera found" in page.inner_text("#notice")
    assert stats(page)["source"] == "still" and page.input_value("#source") == "beans"
    wait_until(page, "window.ocularStudio.stats().blobs.length === 7")
    wait_until(page, "!document.getElementById('classify').disabled")
    # The coffee still has no plain background: its patches of light and shadow are boxed instead.
    page.select_option("#source", "coffee")
    wait_until(page, "window.ocularStudio.stats().blobs.length > 7")
    # Asking the server to save before anything was classified is refused by name.
    page.evaluate("""window.ocularStudio.sendText('{"type":"saveBlob"}')""")
    wait_until(page, "document.getElementById('notice').textContent.includes('nothing to save: classify a blob first')", 5000)


def test_on_a_phone_the_bean_counter_panel_is_unclipped(studio, cameraless_page):
    page = cameraless_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(studio.url + "bean-counter.html")
    wait_for_frames(page, 3)
    wait_until(page, "!document.getElementById('classify').disabled")
    panel = page.locator(".side-panel").bounding_box()
    for selector in ["#classifier", "#seen", "#mask-mode", "#classify"]:
        box = page.locator(selector).bounding_box()
        assert panel["y"] <= box["y"] and box["y"] + box["height"] <= panel["y"] + panel["height"] + 0.5, (selector, box, panel)
    nav = page.locator(".nav").bounding_box()
    assert nav["x"] + nav["width"] <= 390, nav
    screenshot(page, "bean-counter-phone.png")
