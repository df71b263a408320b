"""Fixtures for driving Ocular Studio in Debian's headless Chromium with a fake camera."""
import os
import re
import shutil
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import pytest
from playwright.sync_api import sync_playwright

from engines import ENGINES, WebDriverEngines, missing_feature

REPOSITORY = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("OCULAR_TEST_DATA", REPOSITORY.parent / "shared" / "data"))
ARTIFACTS = Path(os.environ.get("OCULAR_ARTIFACTS", REPOSITORY / "artifacts"))
OCULAR = Path(os.environ.get("OCULAR_BIN", REPOSITORY / ".build" / "debug" / "ocular"))
# The studio with a stage only the tests register (Tests/StudioFixture): the page must show it unchanged.
STUDIO_FIXTURE = Path(os.environ.get("OCULAR_STUDIO_FIXTURE", REPOSITORY / ".build" / "debug" / "ocular-studio-fixture"))
# Debian's chromium-headless-shell: Chromium's own build for automation (the old headless mode, what Playwright
# runs headless by default), the same Blink and V8 without the full browser's layers. The tests' pages take about
# 30 % less CPU in it than in the full browser in headless mode (make test's parallel part, 96 s against 137 s);
# the full browser where the shell is not installed.
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium-headless-shell") or shutil.which("chromium") or "/usr/bin/chromium")


def pytest_configure(config):
    # make test runs `-m "not evaluation"`, make eval `-m evaluation`.
    config.addinivalue_line("markers", "evaluation: a long measurement, run by make eval: figures for the record, or a wait of up to half a "
                                       "minute whose behaviour a Swift test checks in make test")
    # make test runs the other tests two at a time (pytest-xdist), then these one at a time.
    config.addinivalue_line("markers", "alone: measures a time or a rate, so runs with no other test beside it")
    config.addinivalue_line("markers", "needs(*features): runs only in the engines that have them (engines.LACKS says why not)")
    config.addinivalue_line("markers", "engines: runs once in each engine (takes `engine`); scripts/browser-tests.sh runs these "
                                       "apart from Chromium's own tests, one engine a worker")
    config.addinivalue_line("markers", "beyond_main_flow: an engine test of what lies past a page's main flow (each way a camera "
                                       "fails): make test runs it in Chromium, make eval in the other engines")


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(items):
    # WebKitGTK here composites in software (Mesa's llvmpipe): a page that streams keeps a core busy, and Chromium
    # tests beside it were starved past their waits. So each engine's tests go to one worker (pytest-xdist's
    # loadgroup), in a run of their own.
    for item in items:
        engine = getattr(item, "callspec", None) and item.callspec.params.get("engine")
        if engine:
            item.add_marker(pytest.mark.engines)
            item.add_marker(pytest.mark.xdist_group(engine))
            # make test holds every page's main flow in each engine; the rest, in Firefox and WebKit, is make eval's.
            if engine != "chromium" and item.get_closest_marker("beyond_main_flow"):
                item.add_marker(pytest.mark.evaluation)


def pytest_generate_tests(metafunc):
    # A test that takes `engine` (or `engine_page`) runs once in each engine.
    if "engine" in metafunc.fixturenames:
        metafunc.parametrize("engine", ENGINES)


def make_camera_file(folder, name, frame_rate_filter, frames):
    """The astronaut pan clip as a 640×480 .y4m file, which Chromium's fake camera loops forever."""
    path = folder / name
    subprocess.run(
        ["ffmpeg", "-v", "error", "-y", "-i", str(DATA / "video" / "astronaut_pan.avi"),
         "-vf", f"scale=640:480{frame_rate_filter}", "-pix_fmt", "yuv420p", "-frames:v", str(frames), str(path)],
        check=True)
    return path


@pytest.fixture(scope="session")
def camera_file(tmp_path_factory):
    """The clip at its own 10 frames/s."""
    return make_camera_file(tmp_path_factory.mktemp("camera"), "astronaut_pan.y4m", "", 30)


@pytest.fixture(scope="session")
def still_camera_file(tmp_path_factory):
    """coffee.png as a still 640×480 camera, and its first frame as the browser decodes it (after the
    4:2:0 round trip), as PNG: what the server receives before the page's JPEG encoding."""
    folder = tmp_path_factory.mktemp("still")
    camera = folder / "coffee.y4m"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-loop", "1", "-i", str(DATA / "images" / "coffee.png"),
                    "-vf", "scale=640:480", "-pix_fmt", "yuv420p", "-frames:v", "20", str(camera)], check=True)
    frame = folder / "coffee-frame.png"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(camera), "-frames:v", "1", str(frame)], check=True)
    return camera, frame


@pytest.fixture(scope="session")
def beans_camera_file(tmp_path_factory):
    """The coins-and-beans scene as the fake camera's 640×480: the 16:9 scene on more of its paper above and
    below, slightly shifted each frame as a hand-held phone would be."""
    path = tmp_path_factory.mktemp("beans") / "beans.y4m"
    scene = REPOSITORY / "Sources" / "OcularStudio" / "Public" / "demo" / "beans.jpg"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-loop", "1", "-i", str(scene),
                    "-vf", "crop=1264:712:8+4*sin(n/3):4+3*cos(n/4),scale=640:360,pad=640:480:0:60:0xD0CBC4", "-pix_fmt", "yuv420p",
                    "-frames:v", "30", str(path)], check=True)
    return path


@pytest.fixture
def still_camera_page(playwright_instance, still_camera_file):
    with browser_page(playwright_instance, still_camera_file[0]) as page:
        yield page


@pytest.fixture(scope="session")
def camera_file_30fps(tmp_path_factory):
    """The same clip at 30 frames/s (each frame repeated), as a phone's camera delivers."""
    return make_camera_file(tmp_path_factory.mktemp("camera30"), "astronaut_pan_30fps.y4m", ",fps=30", 90)


class Studio:
    """An `ocular studio` process on a free port. `url` is the address it prints for this machine
    (with its token off loopback), `printed` everything it printed when it started listening."""

    def __init__(self, gallery, executable=None, arguments=(), environment=None, namespace=None):
        command = [str(executable)] if executable else [str(OCULAR), "studio"]
        assert Path(command[0]).exists(), f"build it first: {command[0]} is missing"
        if namespace:
            command = ["ip", "netns", "exec", namespace] + command
        self.gallery = gallery
        self.process = subprocess.Popen(command + ["--port", "0", "--gallery", str(gallery), *arguments],
                                        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                                        env={**os.environ, **(environment or {})})
        deadline = time.time() + 30
        line = ""
        self.printed = ""
        self.url = None
        while time.time() < deadline:
            line = self.process.stdout.readline()
            self.printed += line
            match = re.search(r"running at ((https?)://[^\s/]+:(\d+)/(\?token=[0-9a-zA-Z_.~-]+)?)", line)
            if match:
                self.url, self.scheme, self.port, self.token = match.group(1), match.group(2), int(match.group(3)), (match.group(4) or "")[7:]
            # The address is the announcement's last line.
            if self.url:
                return
            if self.process.poll() is not None:
                break
        self.stop()
        raise RuntimeError(f"ocular studio did not start: {self.printed!r}")

    def stop(self):
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()


@pytest.fixture
def studio(tmp_path):
    """A studio saving into a gallery of its own."""
    server = Studio(tmp_path / "gallery")
    yield server
    server.stop()


@pytest.fixture
def studio_with_test_stages(tmp_path):
    """A studio of the tests' own build (ocular-studio-fixture): Ocular's stages and the tests' (sleep, gate)."""
    server = Studio(tmp_path / "gallery", executable=STUDIO_FIXTURE)
    yield server
    server.stop()


@pytest.fixture(scope="session")
def playwright_instance():
    with sync_playwright() as playwright:
        yield playwright
        close_browsers()


# One Chromium per fake camera and microphone for the whole run, a fresh context (its own cookies, storage,
# cache and permissions) per page: a launch costs ~0.5 s, a context ~0.2 s.
BROWSERS = {}


def shared_browser(playwright, camera=None, microphone=None):
    key = (str(camera) if camera else None, str(microphone) if microphone else None)
    browser = BROWSERS.get(key)
    if browser is None or not browser.is_connected():
        browser = BROWSERS[key] = launch(playwright, camera, microphone)
    return browser


def close_browsers():
    """Closes every shared Chromium: before this machine's network interfaces change (test_link.py's veth
    pair), since a running Chromium drops a navigation with ERR_NETWORK_CHANGED when they do."""
    for browser in BROWSERS.values():
        if browser.is_connected():
            browser.close()
    BROWSERS.clear()


def launch(playwright, camera=None, microphone=None):
    """Chromium that grants the camera and microphone without asking; with `camera`, a fake camera fed
    from that file; with `microphone`, a fake microphone playing that WAV file over and over."""
    arguments = ["--use-fake-ui-for-media-stream", "--disable-dev-shm-usage"]
    if camera:
        arguments += ["--use-fake-device-for-media-stream", f"--use-file-for-fake-video-capture={camera}"]
    if microphone:
        arguments += [f"--use-file-for-fake-audio-capture={microphone}"]
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=arguments)


TONE_HERTZ = 440


@pytest.fixture(scope="session")
def tone_file(tmp_path_factory):
    """A 440 Hz tone, 48 kHz mono 16-bit, 2 s (sox's `synth 2 sine 440`, written by Python's wave module):
    Chromium's fake microphone loops it."""
    import math
    import struct
    import wave
    path = tmp_path_factory.mktemp("microphone") / "tone-440.wav"
    rate = 48000
    with wave.open(str(path), "wb") as output:
        output.setnchannels(1)
        output.setsampwidth(2)
        output.setframerate(rate)
        output.writeframes(b"".join(struct.pack("<h", round(12000 * math.sin(2 * math.pi * TONE_HERTZ * index / rate)))
                                    for index in range(2 * rate)))
    return path


@contextmanager
def browser_page(playwright, camera=None, bypass_csp=True, ignore_https_errors=False, microphone=None, **context):
    """A page in a fresh browser context, with a fake camera fed from `camera` and a fake microphone from
    `microphone` when given; closed afterwards.

    Playwright's wait_for_function evaluates its predicate with eval, which the studio's
    Content-Security-Policy forbids; test_security.py drives the pages with the policy in force."""
    options = {"viewport": {"width": 1000, "height": 760}, **context}
    browser_context = shared_browser(playwright, camera, microphone).new_context(
        bypass_csp=bypass_csp, ignore_https_errors=ignore_https_errors, **options)
    try:
        yield browser_context.new_page()
    finally:
        browser_context.close()


@pytest.fixture(scope="session")
def webdriver_engines():
    engines = WebDriverEngines()
    yield engines
    engines.close()


@pytest.fixture
def engine_page(request, engine, playwright_instance, webdriver_engines, camera_file_30fps):
    """A page in `engine`, its camera at 30 frames/s: in Chromium the astronaut clip, in Firefox and WebKit
    the engine's own fake camera. Skipped where the test needs what the engine lacks (engines.LACKS)."""
    marker = request.node.get_closest_marker("needs")
    why = missing_feature(engine, marker.args if marker else ())
    if why:
        pytest.skip(f"{engine}: {why}")
    if engine == "chromium":
        with browser_page(playwright_instance, camera_file_30fps) as page:
            yield page
        return
    page = webdriver_engines.page(engine)
    try:
        yield page
    finally:
        try:
            page.reset()
        except Exception:
            webdriver_engines.discard(engine)


@pytest.fixture
def camera_page(playwright_instance, camera_file):
    with browser_page(playwright_instance, camera_file) as page:
        yield page


@pytest.fixture
def camera_page_30fps(playwright_instance, camera_file_30fps):
    with browser_page(playwright_instance, camera_file_30fps) as page:
        yield page


@pytest.fixture
def cameraless_page(playwright_instance):
    with browser_page(playwright_instance) as page:
        yield page


def screenshot(page, name):
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path))
    return path
