"""Every page's main flow in each browser engine the studio's users carry: Chromium, Firefox and WebKit (every
iPhone's). Each test runs once an engine (`engine_page`, conftest.py); the camera is each engine's own at 30
frames/s. The deeper checks of each page stay in its own file, in Chromium. make test runs every test here in
every engine but those marked `beyond_main_flow` (each way a camera fails), which it runs in Chromium and make
eval in Firefox and WebKit."""
import json
import subprocess
import urllib.request

import pytest

from conftest import DATA, OCULAR, screenshot
from engines import LACKS, missing_feature
from test_gallery import gallery_api
from test_studio import CANVAS_STATS, stats, switch_on, wait_for_frames
from test_zoom import ZOOM_TO


# What the page says of its stream when a wait fails: enough to tell a camera that gave nothing from frames that
# went and came back slowly.
PAGE_STATE = """() => {
  const figures = window.ocularStudio ? window.ocularStudio.stats() : {};
  const keys = ['source', 'camera', 'framesSent', 'framesEncoded', 'framesNotEncoded', 'framesReceived', 'framesPerSecond',
                'medianLatencyMs', 'processingMs', 'link'];
  return { ...Object.fromEntries(keys.filter((key) => key in figures).map((key) => [key, figures[key]])),
           connection: document.getElementById('connection')?.textContent, notice: document.getElementById('notice')?.textContent };
}"""


# Records each download the page starts (an <a download> clicked) instead of starting it.
RECORD_DOWNLOADS = """() => {
  window.downloadsStarted = [];
  const click = HTMLAnchorElement.prototype.click;
  HTMLAnchorElement.prototype.click = function () {
    if (this.download) window.downloadsStarted.push(this.download);
    else click.call(this);
  };
}"""


def wait_until(page, condition, timeout=20000):
    try:
        page.wait_for_function(condition, timeout=timeout)
    except Exception as failure:
        try:
            state = page.evaluate(PAGE_STATE)
        except Exception as why:
            state = f"(unreadable: {why})"
        raise AssertionError(f"{failure}\nthe page then: {state}") from failure


def wait_for_stages(page, names, timeout=5000):
    """Waits until the page's recipe is exactly the stages `names`, in that order."""
    expected = json.dumps(json.dumps(names, separators=(",", ":")))  # as JSON.stringify writes it, as a JS string
    wait_until(page, f"JSON.stringify(window.ocularStudio.stats().recipe.stages.map((step) => step.stage)) === {expected}", timeout=timeout)


def open_page(page, studio, path="", ready="true", frames=5):
    """Opens a page and waits until `ready` holds and the camera's frames come back processed."""
    page.goto(studio.url + path)
    wait_until(page, f"window.ocularStudio && ({ready})", timeout=60000)
    wait_until(page, "window.ocularStudio && window.ocularStudio.stats().source === 'camera'"
                     f" && window.ocularStudio.stats().framesReceived >= {frames}")
    assert page.is_hidden("#notice") or page.inner_text("#notice") == "", page.inner_text("#notice")


def test_light_work_streams_the_camera_switches_saves_and_goes_to_the_still(studio, engine_page, engine):
    page = engine_page
    open_page(page, studio)
    assert page.inner_text("#connection") == "Live"
    shown = page.evaluate(CANVAS_STATS)
    assert shown["width"] >= 640 and shown["greenStd"] > 3, shown

    switch_on(page, "gray")
    gray = page.evaluate(CANVAS_STATS)
    assert gray["maxChannelGap"] <= 1, f"a gray frame has equal channels: {gray}"
    page.click("#save")
    wait_until(page, "window.ocularStudio.stats().saves.length === 1", timeout=15000)
    assert stats(page)["saves"] == [{"id": 1}], stats(page)["saves"]
    assert page.inner_text("#save-status").startswith("Saved")
    saved = gallery_api(studio)
    assert saved["total"] == 1 and saved["items"][0]["recipe"]["stages"] == [{"stage": "gray"}], saved
    screenshot(page, f"engine-{engine}-light-work.png")

    # Share: the Web Share API where the engine can share files, else a download of the saved file (recorded
    # here as the page starts it: an engine's download folder is not the test's).
    can_share = page.evaluate("Boolean(navigator.canShare && navigator.canShare({ files: [new File(['x'], 'x.png', { type: 'image/png' })] }))")
    if not can_share:
        page.evaluate(RECORD_DOWNLOADS)
        page.click("#share")
        wait_until(page, "window.downloadsStarted.length === 1", timeout=10000)
        assert page.evaluate("window.downloadsStarted") == [saved["items"][0]["fileName"]]

    # Tap to focus: the middle of the picture (mirrored or not), marked; where the camera takes no point of
    # interest the mark says so and why.
    taps = stats(page)["taps"]
    page.click("#output")
    wait_until(page, f"window.ocularStudio.stats().taps > {taps}", timeout=5000)
    focus = stats(page)["focus"]
    assert abs(focus["x"] - 0.5) < 0.05 and abs(focus["y"] - 0.5) < 0.05, focus
    assert page.is_visible("#focus-mark")
    if not focus["applied"]:
        assert "marked" in page.inner_text("#focus-mark") and focus["reason"] in page.get_attribute("#focus-mark", "title"), focus

    # Zoom 2×: the camera's own zoom first where it has one, the zoom stage the rest; the slider says why not.
    page.evaluate(ZOOM_TO, 2)
    wait_until(page, "(() => { const zoom = window.ocularStudio.stats().zoom; return zoom.total === 2 && Math.abs(zoom.camera * zoom.digital - 2) < 0.05; })()",
               timeout=10000)
    zoom = stats(page)["zoom"]
    if zoom["camera"] == 1:
        assert zoom["reason"] and page.get_attribute("#zoom-level", "title") == f"Digital zoom: {zoom['reason']}", zoom
        wait_until(page, "window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'zoom' && step.factor === 2)", timeout=5000)
    assert page.inner_text("#zoom-readout").startswith("2×"), page.inner_text("#zoom-readout")
    page.evaluate(ZOOM_TO, 1)
    wait_until(page, "!window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'zoom')", timeout=5000)

    # Switch camera: through the engine's cameras (WebKit's mock has a front and a back one), to the built-in still.
    cameras = stats(page)["cameras"]
    for camera in cameras[1:]:
        page.click("#switch-camera")
        wait_until(page, f"window.ocularStudio.stats().camera === '{camera}' && window.ocularStudio.stats().source === 'camera'", timeout=10000)
    page.click("#switch-camera")
    wait_until(page, "window.ocularStudio.stats().source === 'still'", timeout=10000)
    frames = stats(page)["framesReceived"]
    wait_for_frames(page, frames + 3)


# Makes the next camera start fail as `how` says: getUserMedia rejecting with the engine's own DOMException of
# that name, or (play) the camera given and its video's play() refused, as an autoplay policy refuses it.
FAIL_NEXT_CAMERA = """(how) => {
  if (how === 'play') {
    const play = HTMLMediaElement.prototype.play;
    HTMLMediaElement.prototype.play = function () {
      HTMLMediaElement.prototype.play = play;
      return Promise.reject(new DOMException('play() can only be initiated by a user gesture.', 'NotAllowedError'));
    };
  } else {
    const getUserMedia = MediaDevices.prototype.getUserMedia;
    MediaDevices.prototype.getUserMedia = function () {
      MediaDevices.prototype.getUserMedia = getUserMedia;
      return Promise.reject(new DOMException('as the engine says it', how));
    };
  }
  document.querySelector('#source option[value=camera]').disabled = false;
}"""


# Each way a camera fails, what the page says (camera.js's cameraProblem), and what the way needs of the engine.
CAMERA_FAILURES = [
    ("NotAllowedError", "Camera permission was refused", ()),
    ("NotReadableError", "The camera is in use by another program", ()),
    ("NotFoundError", "No camera found", ()),
    ("play", "The camera started but its video would not play (NotAllowedError", ("camera in a video",)),
]


@pytest.mark.beyond_main_flow
def test_a_camera_that_cannot_start_is_said_by_its_cause(studio, engine_page, engine):
    """Each way a camera fails, as each engine reports it, gets its own words, and the still instead."""
    page = engine_page
    page.goto(studio.url + "?source=astronaut")  # on the still: each failure below is the camera's first start
    wait_until(page, "window.ocularStudio && window.ocularStudio.stats().source === 'still'", timeout=60000)
    for failure, said, needs in CAMERA_FAILURES:
        if missing_feature(engine, needs):
            continue
        page.evaluate(FAIL_NEXT_CAMERA, failure)
        page.select_option("#source", "camera")
        wait_until(page, f"document.getElementById('notice').textContent.startsWith({said!r})", timeout=10000)
        assert page.evaluate("document.querySelector('#source option[value=camera]').disabled"), failure
        wait_until(page, "window.ocularStudio.stats().source === 'still'", timeout=10000)
        wait_for_frames(page, stats(page)["framesReceived"] + 2)


@pytest.mark.needs("refusing the camera")
def test_a_camera_the_browser_refuses_is_said_refused(studio, engine_page, engine):
    """A real refusal, by the browser's own permission (the rest of the failures above are a script's stand-ins):
    the page says it was refused and shows the still."""
    page = engine_page
    page.refuse_camera(True)
    try:
        page.goto(studio.url)
        wait_until(page, "document.getElementById('notice').textContent.startsWith('Camera permission was refused')", timeout=20000)
        wait_until(page, "window.ocularStudio && window.ocularStudio.stats().source === 'still'", timeout=10000)
        wait_for_frames(page, 2)
    finally:
        page.refuse_camera(False)


@pytest.mark.beyond_main_flow
@pytest.mark.needs("camera in a video", "track events from a script")
def test_a_camera_that_stops_is_said_and_the_still_shown(studio, engine_page, engine):
    page = engine_page
    open_page(page, studio)
    # As the system ends a track (the camera unplugged or taken): its `ended` event.
    page.evaluate("document.getElementById('camera').srcObject.getVideoTracks()[0].dispatchEvent(new Event('ended'))")
    wait_until(page, "window.ocularStudio.stats().source === 'still'", timeout=10000)
    assert page.inner_text("#notice").startswith("The camera stopped"), page.inner_text("#notice")
    wait_for_frames(page, stats(page)["framesReceived"] + 3)


def test_many_masks_picks_a_face_from_the_still(studio, engine_page, engine):
    page = engine_page
    open_page(page, studio, "many-masks.html")
    page.select_option("#source", "astronaut")
    wait_until(page, "window.ocularStudio.stats().source === 'still' && (window.ocularStudio.stats().faces || []).length > 0")
    page.click("#capture-1")
    wait_until(page, "window.ocularStudio.stats().picked[1] === 'human'")
    screenshot(page, f"engine-{engine}-many-masks.png")


def test_bean_counter_counts_and_classifies_the_table(studio, engine_page, engine):
    page = engine_page
    # Opened on the demo's table by its address: no camera asked for. (Opened on the camera, the table waited
    # behind a camera frame under way: each engine's own camera pattern is a scene of ~100 blobs, 13 s a frame in a
    # debug build beside another engine's tests, and a switch cannot stop a frame the server has begun.)
    page.goto(studio.url + "bean-counter.html?source=beans")
    # The classifier says it is training until it is ready (a fresh studio trains or loads its model).
    wait_until(page, "window.ocularStudio && window.ocularStudio.stats().classifier === 'ready'", timeout=60000)
    wait_until(page, "window.ocularStudio.stats().source === 'still' && window.ocularStudio.stats().blobs.length === 7")
    assert page.evaluate("document.getElementById('source').value") == "beans"
    assert page.is_hidden("#notice") or page.inner_text("#notice") == "", page.inner_text("#notice")
    assert page.inner_text("#seen").startswith("7 objects in view")
    wait_until(page, "!document.getElementById('classify').disabled")
    page.click("#classify")
    wait_until(page, "window.ocularStudio.stats().classified !== null")
    screenshot(page, f"engine-{engine}-bean-counter.png")
    page.click("#review-discard")
    # Then the camera, picked from the menu: a frame of it comes back named.
    received = stats(page)["framesReceived"]
    page.select_option("#source", "camera")
    wait_until(page, f"window.ocularStudio.stats().source === 'camera' && window.ocularStudio.stats().framesReceived > {received + 1}", timeout=60000)


def test_samples_runs_a_sample_on_the_camera(studio, engine_page, engine):
    page = engine_page
    open_page(page, studio, "samples.html")
    # A first visit shows edges; one at a time, sepia replaces them.
    wait_for_stages(page, ["edges"])
    page.click("li[data-stage=sepia] .stage-head label")
    wait_for_stages(page, ["sepia"])
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    screenshot(page, f"engine-{engine}-samples.png")


def test_filters_chains_a_filter_on_the_camera(studio, engine_page, engine):
    page = engine_page
    open_page(page, studio, "filters.html")
    # A first visit shows sepia; a click adds a blur after it.
    wait_until(page, "window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'sepiaTone')", timeout=5000)
    page.click("[data-add=gaussianBlur]")
    wait_for_stages(page, ["sepiaTone", "gaussianBlur"])
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    screenshot(page, f"engine-{engine}-filters.png")


def test_the_gallery_opens_a_photo_and_plays_a_video(studio, engine_page, engine):
    for path in [DATA / "images" / "rocket.jpg", DATA / "video" / "cockatoo.mp4"]:
        subprocess.run([str(OCULAR), "gallery", "add", str(path), "--caption", path.stem, "--gallery", str(studio.gallery)],
                       check=True, capture_output=True)
    page = engine_page
    page.goto(studio.url + "gallery.html")
    wait_until(page, "document.body?.dataset.items === '2'")
    page.click("#grid li#item-1 .thumb")
    wait_until(page, "document.getElementById('viewer-content')?.naturalWidth > 0")
    page.click("#viewer-close")
    # H.264 in MP4, as Safari and every phone record: the player's own Play, and the clock runs.
    page.click("#grid li#item-2 .thumb")
    page.wait_for_selector("#viewer[open] .player video")
    wait_until(page, "document.querySelector('#viewer .player video').readyState >= 2", timeout=15000)
    page.click(".player-play")
    wait_until(page, "document.querySelector('#viewer .player video').currentTime > 0.5", timeout=15000)
    assert page.get_attribute("#viewer .player", "data-state") == "playing"
    screenshot(page, f"engine-{engine}-gallery-player.png")


# What MediaRecorder is asked for (recorder.js's TYPES): WebM where the engine writes it, else MP4 (Safari's).
RECORDABLE = ("['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm', 'video/mp4;codecs=avc1,mp4a.40.2', 'video/mp4']"
              ".filter((type) => window.MediaRecorder && MediaRecorder.isTypeSupported(type))")


def test_record_lands_in_the_gallery_or_the_page_says_why_not(studio, engine_page, engine):
    page = engine_page
    open_page(page, studio)
    types = page.evaluate(RECORDABLE)
    if engine in LACKS["recording"]:
        # Record says why, instead of failing.
        assert types == [], types
        page.click("#record")
        wait_until(page, "document.getElementById('notice').textContent.includes('records neither WebM nor MP4')", timeout=5000)
        assert page.evaluate("window.ocularRecorder.phase") == "idle"
        screenshot(page, f"engine-{engine}-record-refused.png")
        return
    assert types, f"{engine} records in some type"
    page.click("#record")
    wait_until(page, "window.ocularRecorder.phase === 'recording'", timeout=10000)
    wait_until(page, "window.ocularRecorder.chunks >= 2", timeout=10000)  # two seconds, as the recorder counts them
    page.click("#record")
    wait_until(page, "window.ocularRecorder.uploads.length === 1", timeout=30000)
    upload = page.evaluate("window.ocularRecorder.uploads[0]")
    assert "item" in upload, upload
    listed = gallery_api(studio)["items"][0]
    assert listed["kind"] == "video" and listed["fileName"].endswith(".webm" if "webm" in types[0] else ".mp4"), listed
    assert 1.0 <= listed["duration"] <= 3.5, listed["duration"]
    assert listed["hasAudio"] is True, "the engine's fake microphone is recorded"


PAGES = ["", "many-masks.html", "bean-counter.html", "samples.html", "filters.html", "gallery.html"]

# Each <video> in the page: whether it plays inline (its playsinline attribute: an iPhone otherwise takes it full
# screen; Firefox has no playsInline property) and whether it is muted (an iPhone plays a video unasked only then).
VIDEOS = "() => [...document.querySelectorAll('video')].map((video) => [video.id, video.hasAttribute('playsinline'), video.muted])"


def test_every_page_has_what_an_iphone_needs(studio, engine_page, engine):
    page = engine_page
    for path in PAGES:
        page.goto(studio.url + path)
        wait_until(page, "document.querySelector('.nav a') !== null", timeout=10000)
        viewport = page.get_attribute("meta[name=viewport]", "content")
        assert "viewport-fit=cover" in viewport and "width=device-width" in viewport, (path, viewport)
        assert page.get_attribute("meta[name=apple-mobile-web-app-capable]", "content") == "yes", path
        assert page.get_attribute("link[rel=manifest]", "href") == "manifest.webmanifest", path
        if path != "gallery.html":
            # The camera's <video>: inline and muted, by its properties (what the engine goes by), not only its attributes.
            wait_until(page, "window.ocularStudio && window.ocularStudio.stats().source === 'camera'", timeout=20000)
            assert ["camera", True, True] in page.evaluate(VIDEOS), (path, page.evaluate(VIDEOS))
    # The manifest opens the studio full screen from the Home Screen, with icons that load at their sizes.
    with urllib.request.urlopen(studio.url + "manifest.webmanifest") as response:
        assert response.headers["Content-Type"].startswith("application/manifest+json"), response.headers["Content-Type"]
    manifest = page.evaluate("fetch('manifest.webmanifest').then((response) => response.json())")
    assert manifest["display"] == "standalone" and manifest["start_url"] == "./", manifest
    sizes = page.evaluate("""async (icons) => Promise.all(icons.map(async (source) => {
        const bitmap = await createImageBitmap(await (await fetch(source)).blob());
        return [source, bitmap.width, bitmap.height];
    }))""", [icon["src"] for icon in manifest["icons"] if icon["type"] == "image/png"] + ["apple-touch-icon.png"])
    assert sizes == [["icon-192.png", 192, 192], ["icon-512.png", 512, 512], ["apple-touch-icon.png", 180, 180]], sizes
    # The gallery's player: inline (its preview video muted, as it plays unasked while scrubbing).
    subprocess.run([str(OCULAR), "gallery", "add", str(DATA / "video" / "cockatoo.mp4"), "--gallery", str(studio.gallery)],
                   check=True, capture_output=True)
    page.goto(studio.url + "gallery.html")
    wait_until(page, "document.body?.dataset.items === '1'")
    page.click("#grid li#item-1 .thumb")
    page.wait_for_selector("#viewer[open] .player video")
    videos = page.evaluate(VIDEOS)
    assert videos and all(inline for _, inline, _ in videos), videos


@pytest.mark.parametrize("orientation, size", [("portrait", (390, 844)), ("landscape", (844, 390))])
def test_the_phone_layouts(studio, engine_page, engine, orientation, size):
    """The phone layout in each engine at an iPhone's size: the bar within the width, the preview across it with the
    sheet under it (beside it on its side). On the pages' stills: the layout is the same whatever the source, and
    WebKit here composites a camera's frames in software, a core's worth of work that would prove nothing more."""
    page = engine_page
    page.set_viewport_size({"width": size[0], "height": size[1]})
    width, height = page.evaluate("[innerWidth, innerHeight]")
    assert (width, height) == size, (width, height)
    for name, path in [("light-work", "?source=astronaut"), ("bean-counter", "bean-counter.html?source=beans"), ("gallery", "gallery.html")]:
        page.goto(studio.url + path)
        wait_until(page, "document.querySelector('.nav') !== null", timeout=10000)
        nav = page.evaluate("(() => { const box = document.querySelector('.nav').getBoundingClientRect(); return [box.x, box.width]; })()")
        assert nav[0] + nav[1] <= width + 0.5, (name, nav)
        if name == "gallery":
            wait_until(page, "document.body?.dataset.items !== undefined", timeout=10000)
            screenshot(page, f"engine-{engine}-phone-{orientation}-{name}.png")
            continue
        wait_until(page, "window.ocularStudio && window.ocularStudio.stats().framesReceived >= 1", timeout=60000)
        wait_until(page, "document.querySelector('main > aside')?.dataset.sheet !== undefined")
        if page.evaluate("document.querySelector('main > aside').dataset.sheet") == "closed":
            page.click(".sheet-handle")
        wait_until(page, "document.querySelector('main > aside').dataset.sheet === 'open'")
        stage, sheet = page.evaluate("""[document.querySelector('.stage'), document.querySelector('main > aside')]
            .map((element) => { const box = element.getBoundingClientRect(); return { x: box.x, y: box.y, width: box.width, height: box.height }; })""")
        # Record (and Save) stay in view at the toolbar's end, however far its row scrolls sideways.
        end = page.evaluate("(() => { const box = document.querySelector('.toolbar-end').getBoundingClientRect(); return [box.x, box.width]; })()")
        assert end[0] >= 0 and end[0] + end[1] <= width + 0.5, (name, end)
        if orientation == "portrait":
            assert stage["x"] == 0 and abs(stage["width"] - width) < 0.5, (name, stage)  # the preview fills the width
            assert stage["y"] + stage["height"] <= sheet["y"] + 0.5 and stage["height"] >= 200, (name, stage, sheet)
        else:
            assert stage["x"] + stage["width"] <= sheet["x"] + 0.5, (name, stage, sheet)
        screenshot(page, f"engine-{engine}-phone-{orientation}-{name}.png")
