"""Light Work end to end: switch camera, colour and gray, tap to focus, blend with Screen from an upload and
from the gallery, save, and the letterboxed preview at two window sizes."""
from conftest import DATA, browser_page, screenshot
from test_gallery import gallery_api
from test_studio import CANVAS_STATS, open_studio, stats, wait_for_frames


def preview_box(page):
    """The output canvas on the page and the frame it shows."""
    return page.evaluate("""() => {
        const canvas = document.getElementById('output');
        const box = canvas.getBoundingClientRect();
        return { left: box.left, top: box.top, width: box.width, height: box.height,
                 frameWidth: canvas.width, frameHeight: canvas.height };
    }""")


def letterboxed(box):
    """Where the frame shows inside the canvas box (object-fit: contain), computed here independently."""
    scale = min(box["width"] / box["frameWidth"], box["height"] / box["frameHeight"])
    width, height = box["frameWidth"] * scale, box["frameHeight"] * scale
    return (box["width"] - width) / 2, (box["height"] - height) / 2, width, height


def tap(page, x, y):
    """Clicks at view coordinates of the canvas and waits for the server's answer to the tap."""
    box = preview_box(page)
    taps = stats(page)["taps"]
    page.mouse.click(box["left"] + x, box["top"] + y)
    page.wait_for_function(f"window.ocularStudio.stats().taps > {taps}", timeout=5000)
    return stats(page)["focus"]


def tap_frame(page, fx, fy):
    """Taps the point at fractions (fx, fy) of the shown frame."""
    left, top, width, height = letterboxed(preview_box(page))
    return tap(page, left + fx * width, top + fy * height)


def test_switch_camera_tap_to_focus_gray_blend_save_and_blend_from_the_gallery(studio, camera_page):
    page = camera_page
    open_studio(page, studio, 5)
    assert (stats(page)["source"], stats(page)["camera"], stats(page)["cameras"]) == ("camera", "front", ["front"])

    # The fake camera is the only one: front → (no back) → static → front.
    page.click("#switch-camera")
    page.wait_for_function("window.ocularStudio.stats().camera === 'static'", timeout=10000)
    assert stats(page)["source"] == "still"
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    still = page.evaluate(CANVAS_STATS)
    assert (still["width"], still["height"]) == (512, 512), still
    page.click("#switch-camera")
    page.wait_for_function("window.ocularStudio.stats().camera === 'front' && window.ocularStudio.stats().source === 'camera'",
                           timeout=10000)
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    assert page.get_attribute("body", "data-camera") == "front"
    # The front camera's picture is shown mirrored.
    assert page.evaluate("getComputedStyle(document.getElementById('output')).transform") == "matrix(-1, 0, 0, 1, 0, 0)"

    # A tap a quarter across and a tenth down the shown (mirrored) frame is (0.75, 0.1) in the camera's frame.
    focus = tap_frame(page, 0.25, 0.1)
    assert abs(focus["x"] - 0.75) < 0.01 and abs(focus["y"] - 0.1) < 0.01, focus
    assert page.is_visible("#focus-mark")
    mark = page.inner_text("#focus-mark")
    assert "(0.75, 0.10)" in mark, mark
    if not focus["applied"]:
        assert "marked" in mark and focus["reason"] in page.get_attribute("#focus-mark", "title"), focus
    screenshot(page, "light-work-focus.png")
    # The server's preview rectangle is the letterbox this test computes from the page.
    left, top, width, height = letterboxed(preview_box(page))
    preview = focus["preview"]
    assert abs(preview["x"] - left) < 0.5 and abs(preview["y"] - top) < 0.5 and abs(preview["width"] - width) < 0.5, (preview, left, top, width)
    # On the black bar beside the picture there is nothing to focus.
    box = preview_box(page)
    bar = tap(page, box["width"] / 2, 1) if top > 2 else tap(page, 1, box["height"] / 2)
    assert bar["x"] is None, bar

    # Gray, then colour again, from the toolbar.
    page.click("#gray-mode")
    page.wait_for_function("window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'gray')", timeout=5000)
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    assert page.evaluate(CANVAS_STATS)["maxChannelGap"] <= 1
    assert page.get_attribute("#gray-mode", "aria-pressed") == "true"
    page.click("#color-mode")
    page.wait_for_function("!window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'gray')", timeout=5000)
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    assert page.evaluate(CANVAS_STATS)["colourfulShare"] > 0.05

    # Blend an uploaded picture with Screen at 0.8.
    page.set_input_files("#blend-file", str(DATA / "images" / "rocket.jpg"))
    page.wait_for_function("window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'blend' && step.source)",
                           timeout=10000)
    page.select_option("select[data-toolbar=blend][data-parameter=mode]", "screen")
    page.eval_on_selector("input[type=range][data-toolbar=blend][data-parameter=opacity]",
                          "(slider) => { slider.value = 0.8; slider.dispatchEvent(new Event('input', { bubbles: true })); }")
    page.wait_for_function(
        "window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'blend' && step.mode === 'screen' && step.opacity == 0.8)",
        timeout=5000)
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    assert page.is_visible("#blend-preview")

    page.click("#save")
    page.wait_for_function("window.ocularStudio.stats().saves.length === 1", timeout=15000)
    saved = gallery_api(studio)["items"][0]
    blend = [step for step in saved["recipe"]["stages"] if step["stage"] == "blend"][0]
    assert (blend["mode"], blend["opacity"]) == ("screen", 0.8), blend

    # The saved photo is now offered as a blend picture, named by its gallery id.
    page.wait_for_function(f"[...document.querySelectorAll('#blend-source option')].some((o) => o.value === 'gallery:{saved['id']}')",
                           timeout=5000)
    page.select_option("#blend-source", f"gallery:{saved['id']}")
    page.wait_for_function(f"window.ocularStudio.stats().recipe.stages.some((step) => step.source === 'gallery:{saved['id']}')",
                           timeout=5000)
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    assert page.get_attribute("#notice", "data-kind") != "error" or not page.is_visible("#notice"), page.inner_text("#notice")
    screenshot(page, "light-work.png")

    page.select_option("#blend-source", "")
    page.wait_for_function("!window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'blend')", timeout=5000)

    # The saved frame is on the Gallery page.
    page.goto(studio.url + "gallery.html")
    page.wait_for_function("document.body?.dataset.items === '1'")
    assert page.is_visible(f"#grid li#item-{saved['id']} .thumb")


def test_the_preview_stays_letterboxed_at_two_window_sizes(studio, playwright_instance, camera_file):
    for name, size in [("wide", {"width": 1280, "height": 700}), ("narrow", {"width": 420, "height": 900})]:
        with browser_page(playwright_instance, camera_file) as page:
            page.set_viewport_size(size)
            open_studio(page, studio, 3)
            box = preview_box(page)
            assert (box["frameWidth"], box["frameHeight"]) == (640, 480)
            focus = tap_frame(page, 0.5, 0.5)
            preview = focus["preview"]
            # The frame keeps its 4:3 shape, fits inside the view, and the bars are on the expected sides.
            assert abs(preview["width"] / preview["height"] - 4 / 3) < 0.01, preview
            assert preview["width"] <= box["width"] + 0.5 and preview["height"] <= box["height"] + 0.5, (preview, box)
            # A wide window letterboxes left and right, an upright phone-sized one above and below.
            if name == "wide":
                assert box["width"] / box["height"] > 4 / 3 and preview["x"] > 1 and abs(preview["y"]) < 0.5, (name, preview, box)
            else:
                assert box["width"] / box["height"] < 4 / 3 and preview["y"] > 1 and abs(preview["x"]) < 0.5, (name, preview, box)
            assert abs(focus["x"] - 0.5) < 0.01 and abs(focus["y"] - 0.5) < 0.01, focus
            screenshot(page, f"light-work-{name}.png")
