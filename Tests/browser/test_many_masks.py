"""Many Masks end to end: pick the fake camera's astronaut as face 1 and the chelsea still's cat as face
2, merge them into a hybrid, review it, save it, and find it in the gallery."""
from conftest import screenshot
from test_gallery import gallery_api
from test_studio import stats, wait_for_frames

NAVIGATION = "(links) => links.map((link) => [link.textContent, link.getAttribute('aria-current')])"


def wait_until(page, condition, timeout=20000):
    page.wait_for_function(condition, timeout=timeout)


def picked(page, slot):
    return stats(page)["picked"][str(slot)]


def test_pick_two_faces_merge_review_save_and_find_the_hybrid_in_the_gallery(studio, camera_page):
    page = camera_page
    page.goto(studio.url + "many-masks.html")
    wait_for_frames(page, 5)
    assert page.eval_on_selector_all(".nav a", NAVIGATION) == [
        ["Light Work", None], ["Many Masks", "page"], ["Bean Counter", None], ["Samples", None], ["Filters", None], ["Gallery", None]]
    assert page.is_disabled("#merge")

    # The astronaut in the camera: the capture buttons work while she is in view.
    wait_until(page, "window.ocularStudio.stats().faces.some((face) => face.species === 'human')")
    wait_until(page, "!document.getElementById('capture-1').disabled")
    assert page.inner_text("#seen").startswith("Human face in view")
    page.click("#capture-1")
    wait_until(page, "window.ocularStudio.stats().picked[1] === 'human'", 10000)
    wait_until(page, "document.querySelector('#slot-1 img').naturalWidth > 0", 5000)
    assert page.inner_text("#slot-1 figcaption").startswith("Human, ")
    assert page.is_disabled("#merge"), "one face is not enough to merge"

    # A still without a face: nothing to pick.
    page.select_option("#source", "coffee")
    wait_until(page, "window.ocularStudio.stats().source === 'still' && window.ocularStudio.stats().faces.length === 0")
    wait_until(page, "document.getElementById('capture-1').disabled && document.getElementById('capture-2').disabled")
    assert page.inner_text("#seen").startswith("No face in view")

    # The cat still: the stream finds the close-up cat within a few searches.
    page.select_option("#source", "chelsea")
    wait_until(page, "window.ocularStudio.stats().faces.some((face) => face.species === 'cat')")
    wait_until(page, "!document.getElementById('capture-2').disabled")
    page.click("#capture-2")
    wait_until(page, "window.ocularStudio.stats().picked[2] === 'cat'", 10000)
    wait_until(page, "document.querySelector('#slot-2 img').naturalWidth > 0", 5000)
    assert page.is_enabled("#merge")
    screenshot(page, "many-masks.png")

    # Merge: the review shows the hybrid at the cat face's size.
    cat = next(face for face in stats(page)["faces"] if face["species"] == "cat")
    page.click("#merge")
    wait_until(page, "window.ocularStudio.stats().reviewing", 10000)
    wait_until(page, "document.getElementById('review-image').naturalWidth > 0", 5000)
    merged = stats(page)["merged"]
    assert merged["species"] == "hybrid"
    assert page.inner_text("#review-title") == "Hybrid face"
    width = page.evaluate("document.getElementById('review-image').naturalWidth")
    assert width == merged["bounds"][2] and abs(width - cat["bounds"][2]) <= 4, (width, merged, cat)
    screenshot(page, "many-masks-review.png")

    # Save: busy, then saved in the gallery with the species as caption; Share offers the file.
    page.click("#review-save")
    wait_until(page, "window.ocularStudio.stats().saves.length === 1", 15000)
    saves = stats(page)["saves"]
    assert saves == [{"id": 1, "caption": "hybrid"}], saves
    assert page.inner_text("#review-status").startswith("Saved")
    assert page.is_disabled("#review-save")
    listed = gallery_api(studio)
    assert listed["total"] == 1
    item = listed["items"][0]
    assert item["caption"] == "hybrid" and item["kind"] == "photo", item
    assert item["width"] == width
    with page.expect_download() as download:
        page.click("#review-share")
    assert download.value.suggested_filename == item["fileName"]

    # A second merge discarded is not saved.
    page.click("#review-discard")
    assert not stats(page)["reviewing"]
    page.click("#merge")
    wait_until(page, "window.ocularStudio.stats().reviewing", 10000)
    assert page.is_enabled("#review-save") and page.inner_text("#review-status") == ""
    page.click("#review-discard")
    assert gallery_api(studio)["total"] == 1

    # The hybrid in the gallery, reached by the shared navigation.
    page.click(".nav a[href='gallery.html']")
    page.wait_for_function("document.body?.dataset.items === '1'")
    assert page.eval_on_selector_all(".nav a", NAVIGATION) == [
        ["Light Work", None], ["Many Masks", None], ["Bean Counter", None], ["Samples", None], ["Filters", None], ["Gallery", "page"]]
    assert "hybrid" in page.inner_text("#grid li.tile")
    page.click("#grid .thumb")
    page.wait_for_selector("#viewer[open] #viewer-content")
    page.wait_for_function(f"document.getElementById('viewer-content').naturalWidth === {width}")
    screenshot(page, "many-masks-gallery.png")


def test_many_masks_without_a_camera_starts_on_the_still_and_says_what_is_missing(studio, cameraless_page):
    page = cameraless_page
    page.goto(studio.url + "many-masks.html")
    wait_for_frames(page, 3)
    assert "No camera found" in page.inner_text("#notice")
    # The built-in astronaut still has a face to pick; merging needs a second.
    wait_until(page, "!document.getElementById('capture-1').disabled")
    page.click("#capture-1")
    wait_until(page, "window.ocularStudio.stats().picked[1] === 'human'", 10000)
    # Asking the server to merge anyway is refused by name (the button stays disabled meanwhile).
    assert page.is_disabled("#merge")
    page.evaluate("""window.ocularStudio.sendText('{"type":"merge"}')""")
    wait_until(page, "document.getElementById('notice').textContent.includes('capture Face 2 first')", 5000)


def test_on_a_phone_the_panel_shows_what_is_in_view_the_faces_and_merge_unclipped(studio, cameraless_page):
    page = cameraless_page
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(studio.url + "many-masks.html")
    wait_for_frames(page, 3)
    wait_until(page, "!document.getElementById('capture-1').disabled")
    panel = page.locator(".side-panel").bounding_box()
    for selector in ["#seen", "#slot-1 .slot-picture", "#capture-2", "#merge"]:
        box = page.locator(selector).bounding_box()
        assert panel["y"] <= box["y"] and box["y"] + box["height"] <= panel["y"] + panel["height"] + 0.5, (selector, box, panel)
    # The preview keeps at least 240 pixels above the panel.
    assert page.locator(".stage").bounding_box()["height"] >= 240
    screenshot(page, "many-masks-phone.png")
