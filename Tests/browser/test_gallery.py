"""End to end: save a live frame from the fake camera, find it in the Gallery page, open it, share it, delete it."""
import json
import urllib.request

from conftest import screenshot
from test_studio import open_studio, stats, switch_on


def gallery_api(studio, path="api/gallery"):
    with urllib.request.urlopen(studio.url + path) as response:
        return json.load(response)


# Records what the page looked like while a save was waiting (it may last only a few milliseconds).
WATCH_SAVING = """() => {
  window.savingSeen = { save: false, source: false, stages: false, spinner: false };
  const look = () => {
    if (document.body.dataset.saving !== 'true') return;
    const seen = window.savingSeen;
    seen.save ||= document.getElementById('save').disabled;
    seen.source ||= document.getElementById('source').disabled;
    seen.stages ||= document.querySelector('.stages-panel').inert;
    seen.spinner ||= !document.getElementById('busy').hidden && document.getElementById('save').getAttribute('aria-busy') === 'true';
  };
  new MutationObserver(look).observe(document.body, { attributes: true, subtree: true, childList: true });
}"""


def test_save_a_frame_then_open_share_and_delete_it_in_the_gallery(studio, camera_page):
    page = camera_page
    open_studio(page, studio, 5)
    switch_on(page, "gray")

    page.evaluate(WATCH_SAVING)
    page.click("#save")
    page.wait_for_function("window.ocularStudio.stats().saves.length === 1", timeout=15000)
    # Until the server answered, the spinner showed and the controls that would change what is saved were disabled.
    assert page.evaluate("window.savingSeen") == {"save": True, "source": True, "stages": True, "spinner": True}
    assert stats(page)["saves"] == [{"id": 1}], stats(page)["saves"]
    assert page.inner_text("#save-status").startswith("Saved")
    assert page.is_enabled("#save") and page.is_enabled("#source") and page.is_visible("#share")
    saved = gallery_api(studio)
    assert saved["total"] == 1
    item = saved["items"][0]
    assert (item["kind"], item["width"], item["height"], item["source"]) == ("photo", 640, 480, "studio")
    assert [step["stage"] for step in item["recipe"]["stages"]] == ["gray"]
    assert item["fileName"].endswith(".png")
    # Lossless and gray: the PNG's three channels are equal everywhere (checked in the browser's decoder).
    assert page.evaluate("""async (url) => {
        const bitmap = await createImageBitmap(await (await fetch(url)).blob());
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const context = canvas.getContext('2d');
        context.drawImage(bitmap, 0, 0);
        const { data } = context.getImageData(0, 0, bitmap.width, bitmap.height);
        for (let i = 0; i < data.length; i += 4) if (data[i] !== data[i + 1] || data[i + 1] !== data[i + 2]) return false;
        return true;
    }""", item["url"])
    screenshot(page, "studio-saved.png")

    # Share falls back to a download in a browser that cannot share files.
    with page.expect_download() as download:
        page.click("#share")
    assert download.value.suggested_filename == item["fileName"]

    # The "in the gallery" link opens the gallery with the item in the viewer.
    page.click("#save-status a")
    page.wait_for_selector("#viewer[open] #viewer-content")
    page.wait_for_function("document.getElementById('viewer-content').naturalWidth === 640")
    assert page.inner_text("#viewer-title") == item["fileName"]
    screenshot(page, "gallery-viewer.png")
    page.click("#viewer-close")
    assert page.eval_on_selector_all("#grid li.tile", "(tiles) => tiles.map((tile) => tile.dataset.id)") == [str(item["id"])]
    page.wait_for_function("document.querySelector('#grid img').naturalWidth === 256")
    assert page.inner_text("#count") == "1 item"
    screenshot(page, "gallery.png")

    # Delete asks first: Cancel keeps it, Delete removes it and shows the empty state.
    page.click("#grid .thumb")
    page.click("#viewer-delete")
    page.click("#confirm button[value=cancel]")
    assert gallery_api(studio)["total"] == 1
    page.click("#viewer-delete")
    page.click("#confirm-delete")
    page.wait_for_selector("#empty:not([hidden])")
    assert page.inner_text("#count") == "0 items"
    assert "Deleted" in page.inner_text("#notice")
    assert gallery_api(studio)["total"] == 0
    screenshot(page, "gallery-empty.png")


def test_the_gallery_shows_photos_and_videos_added_from_the_command_line(studio, cameraless_page):
    import subprocess
    from conftest import DATA, OCULAR
    for path in [DATA / "video" / "cockatoo.mp4", DATA / "images" / "rocket.jpg", DATA / "video" / "astronaut_pan.avi"]:
        subprocess.run([str(OCULAR), "gallery", "add", str(path), "--caption", path.stem, "--gallery", str(studio.gallery)],
                       check=True, capture_output=True)
    page = cameraless_page
    page.goto(studio.url + "gallery.html")
    page.wait_for_function("document.body?.dataset.items === '3'")
    assert page.eval_on_selector_all("#grid li.tile", "(tiles) => tiles.map((tile) => tile.dataset.kind)") == ["video", "photo", "video"]
    # H.264 in MP4 plays: the browser decodes its frames and the clock runs.
    page.click("#grid li#item-1 .thumb")
    page.wait_for_selector("#viewer[open] video#viewer-content")
    page.wait_for_function("document.getElementById('viewer-content').videoWidth === 1280", timeout=10000)
    page.evaluate("document.getElementById('viewer-content').muted = true; document.getElementById('viewer-content').play()")
    page.wait_for_function("document.getElementById('viewer-content').currentTime > 0.5", timeout=10000)
    screenshot(page, "gallery-video.png")
    page.click("#viewer-close")
    page.click("#grid li#item-3 .thumb")
    page.wait_for_selector("#viewer[open] video#viewer-content")
    assert page.get_attribute("#viewer-content", "src") == "/api/gallery/3"
    # Motion JPEG in AVI does not play in Chromium: the player says so and offers the file to download,
    # rather than showing a dead player.
    page.wait_for_function("document.querySelector('#viewer .player').dataset.state === 'unplayable'")
    assert "This browser cannot play this AVI video." in page.inner_text("#viewer .player-message")
    assert page.get_attribute("#viewer .player-message a[download]", "href") == "/api/gallery/3"
    page.click("#viewer-close")
    screenshot(page, "gallery-photo-and-video.png")


def test_a_failed_save_says_why_and_gives_the_controls_back(studio, cameraless_page):
    page = cameraless_page
    open_studio(page, studio)
    # The photos folder replaced by a file: the server cannot write there.
    photos = studio.gallery / "photos"
    photos.rmdir()
    photos.write_text("not a folder")
    page.click("#save")
    page.wait_for_function("window.ocularStudio.stats().saves.length === 1", timeout=15000)
    failure = stats(page)["saves"][0]["error"]
    assert failure.startswith("the frame could not be saved: cannot write 'photos/photo-") and failure.endswith("Not a directory"), failure
    assert str(studio.gallery) not in failure, "the server's folders are its own"
    assert page.inner_text("#save-status").startswith("Not saved: the frame could not be saved")
    assert page.is_enabled("#save") and page.is_enabled("#source") and not page.is_visible("#share")
    assert not page.evaluate("document.querySelector('.stages-panel').inert")
    assert gallery_api(studio)["total"] == 0
    screenshot(page, "studio-save-failed.png")
