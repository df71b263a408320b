"""Light Work's zoom slider: the camera's own zoom where track.getCapabilities() lists it, the rest the
server's zoom stage; without a camera zoom all of it is digital, and the frame that comes back is the
middle of the picture enlarged."""
from conftest import screenshot
from test_studio import open_studio, stats, wait_for_frames

ZOOM_TO = """(value) => {
  const slider = document.getElementById('zoom-level');
  slider.value = value;
  slider.dispatchEvent(new Event('input', { bubbles: true }));
}"""

# Keeps a copy of the output canvas as `window.zoomBefore`.
KEEP_FRAME = """() => {
  const canvas = document.getElementById('output');
  const copy = document.createElement('canvas');
  copy.width = canvas.width; copy.height = canvas.height;
  copy.getContext('2d').drawImage(canvas, 0, 0);
  window.zoomBefore = copy;
}"""

# Mean absolute difference (0–255) of the output against the kept frame's middle 1/factor enlarged to
# the whole frame, and against the kept frame as it was.
COMPARE = """(factor) => {
  const canvas = document.getElementById('output');
  const before = window.zoomBefore;
  const { width, height } = canvas;
  const expected = document.createElement('canvas');
  expected.width = width; expected.height = height;
  const context = expected.getContext('2d');
  context.imageSmoothingQuality = 'high';
  const [cropWidth, cropHeight] = [width / factor, height / factor];
  context.drawImage(before, (width - cropWidth) / 2, (height - cropHeight) / 2, cropWidth, cropHeight, 0, 0, width, height);
  const shown = canvas.getContext('2d').getImageData(0, 0, width, height).data;
  const zoomed = context.getImageData(0, 0, width, height).data;
  const original = before.getContext('2d').getImageData(0, 0, width, height).data;
  let toZoomed = 0, toOriginal = 0, n = 0;
  for (let i = 0; i < shown.length; i += 4) {
    for (let c = 0; c < 3; c += 1) {
      toZoomed += Math.abs(shown[i + c] - zoomed[i + c]);
      toOriginal += Math.abs(shown[i + c] - original[i + c]);
      n += 1;
    }
  }
  return { toZoomed: toZoomed / n, toOriginal: toOriginal / n, width, height };
}"""


def zoom_stage(page):
    return next((step for step in stats(page)["recipe"]["stages"] if step["stage"] == "zoom"), None)


def test_without_a_camera_zoom_is_digital_and_enlarges_the_middle(studio, cameraless_page):
    page = cameraless_page
    open_studio(page, studio, 3)
    assert stats(page)["source"] == "still"
    assert page.input_value("#zoom-level") == "1" and page.inner_text("#zoom-readout") == "1×"
    wait_for_frames(page, stats(page)["framesReceived"] + 2)
    page.evaluate(KEEP_FRAME)

    page.evaluate(ZOOM_TO, 2)
    page.wait_for_function("window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'zoom' && step.factor === 2)",
                           timeout=5000)
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    zoom = stats(page)["zoom"]
    assert (zoom["total"], zoom["camera"], zoom["digital"]) == (2, 1, 2), zoom
    assert stats(page)["recipe"]["stages"][0]["stage"] == "zoom"   # first, as a camera's zoom would be
    assert "no camera" in zoom["reason"], zoom
    assert page.inner_text("#zoom-readout") == "2×"
    # The zoom stage's own card shows the same factor.
    assert page.input_value("input[type=range][data-stage=zoom][data-parameter=factor]") == "2"
    compared = page.evaluate(COMPARE, 2)
    assert compared["toZoomed"] < 6 and compared["toOriginal"] > 3 * compared["toZoomed"], compared
    screenshot(page, "light-work-zoom.png")

    # The card changes it too: the toolbar follows.
    page.eval_on_selector("input[type=range][data-stage=zoom][data-parameter=factor]",
                          "(slider) => { slider.value = 3; slider.dispatchEvent(new Event('input', { bubbles: true })); }")
    page.wait_for_function("window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'zoom' && step.factor === 3)",
                           timeout=5000)
    page.wait_for_function("document.getElementById('zoom-readout').textContent === '3×'", timeout=5000)

    # Back to 1×: the stage leaves the recipe.
    page.evaluate(ZOOM_TO, 1)
    page.wait_for_function("!window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'zoom')", timeout=5000)


def test_a_camera_zooms_itself_where_it_can_and_the_stage_does_the_rest(studio, camera_page):
    page = camera_page
    open_studio(page, studio, 3)
    assert stats(page)["source"] == "camera"
    capabilities = page.evaluate("""() => {
        const video = document.getElementById('camera');
        const track = video.srcObject && video.srcObject.getVideoTracks()[0];
        const zoom = track && track.getCapabilities ? track.getCapabilities().zoom : undefined;
        return zoom ? { min: zoom.min, max: zoom.max, step: zoom.step } : null;
    }""")
    page.evaluate(ZOOM_TO, 6)
    page.wait_for_function("window.ocularStudio.stats().zoom.total === 6", timeout=5000)
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    zoom = stats(page)["zoom"]
    stage = zoom_stage(page)
    if capabilities is None:
        # Chromium's fake camera without a zoom: all digital, and nothing fails.
        assert zoom["camera"] == 1 and "no zoom" in zoom["reason"], zoom
        assert stage and stage["factor"] == 6, stage
    else:
        reach = capabilities["max"] / capabilities["min"]
        assert abs(zoom["camera"] - min(6, reach)) < 0.05, (zoom, capabilities)
        digital = round(6 / zoom["camera"], 2)
        if digital > 1.001:
            assert stage and abs(stage["factor"] - digital) < 0.011, (stage, zoom)
        else:
            assert stage is None, stage
        assert "camera" in page.inner_text("#zoom-readout")
    assert page.get_attribute("#notice", "data-kind") != "error" or not page.is_visible("#notice"), page.inner_text("#notice")


# A camera that lists an optical zoom of 1–4× (as phones do; Chromium's fake camera lists none): the
# track's capabilities, constraints and settings, patched before the page loads.
ZOOMING_CAMERA = """(() => {
  const original = MediaStreamTrack.prototype.getCapabilities;
  const zoomOf = new WeakMap();
  window.appliedZooms = [];
  MediaStreamTrack.prototype.getCapabilities = function () {
    const capabilities = original ? original.call(this) : {};
    return this.kind === 'video' ? { ...capabilities, zoom: { min: 1, max: 4, step: 0.1 } } : capabilities;
  };
  const apply = MediaStreamTrack.prototype.applyConstraints;
  MediaStreamTrack.prototype.applyConstraints = function (constraints) {
    const zoom = constraints && constraints.advanced && constraints.advanced.find((set) => 'zoom' in set);
    if (zoom) { zoomOf.set(this, zoom.zoom); window.appliedZooms.push(zoom.zoom); return Promise.resolve(); }
    return apply.call(this, constraints);
  };
  const settings = MediaStreamTrack.prototype.getSettings;
  MediaStreamTrack.prototype.getSettings = function () {
    const result = settings.call(this);
    return zoomOf.has(this) ? { ...result, zoom: zoomOf.get(this) } : result;
  };
})();"""


def test_a_camera_with_a_4x_zoom_takes_the_first_4x_and_the_stage_the_rest(studio, camera_page):
    page = camera_page
    page.add_init_script(ZOOMING_CAMERA)
    open_studio(page, studio, 3)
    page.evaluate(ZOOM_TO, 3)
    page.wait_for_function("window.ocularStudio.stats().zoom.total === 3", timeout=5000)
    zoom = stats(page)["zoom"]
    assert abs(zoom["camera"] - 3) < 1e-6 and zoom["digital"] == 1 and zoom["reason"] == "", zoom
    assert abs(page.evaluate("window.appliedZooms.at(-1)") - 3) < 1e-6
    assert zoom_stage(page) is None
    assert page.inner_text("#zoom-readout") == "3× (camera 3×)"

    # 6×: the camera's 4× and 1.5× digital.
    page.evaluate(ZOOM_TO, 6)
    page.wait_for_function("window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'zoom' && step.factor === 1.5)",
                           timeout=5000)
    zoom = stats(page)["zoom"]
    assert abs(zoom["camera"] - 4) < 1e-6 and zoom["digital"] == 1.5, zoom
    assert page.inner_text("#zoom-readout") == "6× (camera 4×, digital 1.5×)"
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    screenshot(page, "light-work-zoom-camera.png")

    # Switching to the still: no camera, so the whole 6× is digital.
    page.click("#switch-camera")
    page.wait_for_function("window.ocularStudio.stats().camera === 'static'", timeout=10000)
    page.wait_for_function("window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'zoom' && step.factor === 6)",
                           timeout=5000)
