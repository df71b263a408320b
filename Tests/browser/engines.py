"""The three browser engines the studio's users carry, driven alike: Chromium (Debian's, through Playwright),
Firefox (Debian's firefox-esr, through Marionette) and WebKit (WebKitGTK's MiniBrowser, Safari's engine, through
WebKitWebDriver under Xvfb).

A test that takes `engine_page` runs once in each engine (conftest.py parametrizes it). It gets a page with
the part of Playwright's Page that the tests use: in Chromium Playwright's own; in Firefox and WebKit
`WebDriverPage`, which does the same through WebDriver's script and element calls. Each engine gives its own
camera: Chromium the clip the test names, Firefox its fake camera (a moving pattern, 640×480 at 30 frames/s),
WebKit its mock camera (1280×720 at 30 frames/s, facing the user).

What an engine here cannot do is said once, in LACKS; a test that needs it is marked
`@pytest.mark.needs("feature")` and is skipped in that engine with the reason.
"""
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

ENGINES = ("chromium", "firefox", "webkit")
# The page's size in every engine, as conftest.browser_page gives Chromium's.
VIEWPORT = (1000, 760)

FIREFOX = os.environ.get("FIREFOX", shutil.which("firefox-esr") or shutil.which("firefox") or "/usr/bin/firefox-esr")
WEBKIT_DRIVER = os.environ.get("WEBKIT_DRIVER", shutil.which("WebKitWebDriver") or "/usr/bin/WebKitWebDriver")
MINIBROWSER = os.environ.get("MINIBROWSER", "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser")

# feature → {engine: why it cannot here}. The page must still say so itself (a test checks what it says).
LACKS = {
    # WebKitGTK's MediaRecorder needs GStreamer encoders; Debian's build here offers none of WebM or MP4.
    "recording": {"webkit": "WebKitGTK here records in no type (MediaRecorder.isTypeSupported is false for WebM and MP4)"},
    # Where the page reads the camera's track itself, no <video> holds the stream for a test to reach.
    "camera in a video": {"chromium": "Chromium's page reads the camera's track (MediaStreamTrackProcessor), with no <video>"},
    "track events from a script": {"firefox": "an event that Marionette's script dispatches on the track does not reach the page's listeners"},
    # The browser's own permission said no (WebDriverPage.refuse_camera), not a script's stand-in.
    "refusing the camera": {"chromium": "Chromium here is launched with the camera granted for the whole run (a launch flag)",
                            "webkit": "WebKitWebDriver's automation grants the mock camera, with nothing to deny it"},
}

# WebKitGTK's MiniBrowser keeps its window as wide as its toolbar at GTK's sizes (447 CSS pixels here) and
# Firefox its main window 500 wide (its own stylesheet's min-width), where a phone is 390: each driver shrinks
# its browser's own frame, never the page, so that every engine takes a phone's exact viewport.
# MiniBrowser reads this as the user's GTK stylesheet ($XDG_CONFIG_HOME/gtk-3.0/gtk.css); web content is not GTK's.
MINIBROWSER_GTK_CSS = "* { min-width: 0; padding: 0; margin: 0; font-size: 1px; }\n"


def missing_feature(engine, features):
    """Why `engine` cannot run a test needing `features`, or None."""
    for feature in features:
        why = LACKS.get(feature, {}).get(engine)
        if why:
            return why
    return None


class NotTrueInTime(AssertionError):
    """A condition the test waited for did not hold in time (Playwright raises its own TimeoutError)."""


class WebDriverPage:
    """The Playwright Page calls the tests use, over a WebDriver-like `driver` (SeleniumDriver or
    MarionetteDriver below). Scripts run in the page's own world, so they see its globals."""

    def __init__(self, driver, engine):
        self.driver = driver
        self.engine = engine

    # Navigation and scripts.
    def goto(self, url):
        self.driver.navigate(url)

    def evaluate(self, expression, argument=None):
        # As Playwright's evaluate: a function is called with the argument, anything else is a value; either is
        # awaited. Run as an async script so that a promise resolves; errors come back as text, not as a hang.
        script = ("const done = arguments[arguments.length - 1]; const argument = arguments[0];"
                  "(async () => { const value = (" + expression + "\n);"
                  " return typeof value === 'function' ? await value(argument) : await value; })().then((value) => done({ value: value === undefined ? null : value }),"
                  " (error) => done({ error: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }));")
        result = self.driver.execute_async(script, [argument])
        if result is None:
            raise AssertionError(f"the script returned nothing: {expression[:200]}")
        if "error" in result:
            raise AssertionError(f"the page's script failed: {result['error']}\n{expression[:300]}")
        return result["value"]

    def wait_for_function(self, expression, arg=None, timeout=30000):
        deadline = time.monotonic() + timeout / 1000
        last = None
        while True:
            last = self.evaluate(expression, arg)
            if last:
                return last
            if time.monotonic() > deadline:
                raise NotTrueInTime(f"{self.engine}: not true within {timeout} ms: {expression[:300]}")
            time.sleep(0.05)

    def wait_for_timeout(self, milliseconds):
        time.sleep(milliseconds / 1000)

    def wait_for_selector(self, selector, state="visible", timeout=30000):
        condition = {"visible": "element && element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden'",
                     "attached": "element !== null", "hidden": "!element || element.getClientRects().length === 0",
                     "detached": "element === null"}[state]
        self.wait_for_function(f"(selector) => {{ const element = document.querySelector(selector); return Boolean({condition}); }}",
                               selector, timeout=timeout)

    # Elements.
    def _element(self, selector, timeout=10000):
        self.wait_for_selector(selector, "attached", timeout=timeout)

    def eval_on_selector(self, selector, expression, argument=None):
        self._element(selector)
        return self.evaluate(f"([selector, argument]) => ({expression})(document.querySelector(selector), argument)", [selector, argument])

    def inner_text(self, selector):
        return self.eval_on_selector(selector, "(element) => element.innerText")

    def get_attribute(self, selector, name):
        return self.eval_on_selector(selector, "(element, name) => element.getAttribute(name)", name)

    def is_visible(self, selector):
        return self.evaluate("(selector) => { const element = document.querySelector(selector);"
                             " return Boolean(element && element.getClientRects().length > 0 && getComputedStyle(element).visibility !== 'hidden'); }",
                             selector)

    def is_hidden(self, selector):
        return not self.is_visible(selector)

    def click(self, selector, timeout=10000):
        """A real click (WebDriver's element click: scrolled into view, pointer events), once the element is
        visible and enabled, as Playwright's click waits."""
        self.wait_for_function("(selector) => { const element = document.querySelector(selector);"
                               " return Boolean(element && element.getClientRects().length > 0 && !element.disabled); }",
                               selector, timeout=timeout)
        # Scrolled to the middle of its scroll container first, as a person would: WebKitWebDriver does not
        # scroll a container inside the page, and calls a button under the toolbar not interactable.
        self.eval_on_selector(selector, "(element) => element.scrollIntoView({ block: 'center', inline: 'center' })")
        self.driver.click(selector)

    def check(self, selector):
        if not self.eval_on_selector(selector, "(element) => element.checked"):
            self.click(selector)
        self.wait_for_function("(selector) => document.querySelector(selector).checked", selector, timeout=5000)

    def select_option(self, selector, value):
        self._element(selector)
        self.evaluate("""([selector, value]) => {
            const select = document.querySelector(selector);
            if (![...select.options].some((option) => option.value === value && !option.disabled)) throw new Error(`no option ${value} in ${selector}`);
            select.value = value;
            select.dispatchEvent(new Event('input', { bubbles: true }));
            select.dispatchEvent(new Event('change', { bubbles: true }));
        }""", [selector, value])

    def refuse_camera(self, refused):
        """As a person who said no to the camera (True), or gave it again (False): the browser's own permission."""
        self.driver.refuse_camera(refused)

    # The window.
    def set_viewport_size(self, size):
        self.driver.set_viewport(size["width"], size["height"])
        self._wait_for_viewport(size["width"], size["height"])

    def _wait_for_viewport(self, width, height):
        """The page learns its window's new size after the window has it: read at once, WebKit's page still said
        1000 × 760 after a resize to 844 × 390 (a failed phone-layout test), and the next resize then measured the
        window's frame against the old size. Waits for the page's own resize event, or none when already so."""
        self.evaluate("""([width, height]) => new Promise((resolve) => {
            const check = () => {
                if (innerWidth === width && innerHeight === height) { removeEventListener('resize', check); resolve(true); }
            };
            addEventListener('resize', check);
            check();
        })""", [width, height])

    @property
    def viewport_size(self):
        return self.evaluate("({ width: innerWidth, height: innerHeight })")

    def screenshot(self, path=None):
        data = self.driver.screenshot_png()
        if path:
            Path(path).write_bytes(data)
        return data

    def reset(self):
        """Leaves the page blank and forgets what the last test stored, as a fresh Playwright context would."""
        try:
            self.evaluate("() => { try { localStorage.clear(); sessionStorage.clear(); } catch {} }")
        except AssertionError:
            pass
        self.driver.navigate("about:blank")
        if self.viewport_size != {"width": VIEWPORT[0], "height": VIEWPORT[1]}:
            self.driver.set_viewport(*VIEWPORT)
            self._wait_for_viewport(*VIEWPORT)


class SeleniumDriver:
    """WebKitGTK's MiniBrowser through WebKitWebDriver, with its mock camera and the camera granted."""

    def __init__(self, display):
        from selenium import webdriver
        from selenium.webdriver.webkitgtk.options import Options
        from selenium.webdriver.webkitgtk.service import Service
        options = Options()
        options.binary_location = MINIBROWSER
        for argument in ("--automation", "--enable-media-stream=true", "--enable-mock-capture-devices=true"):
            options.add_argument(argument)
        self.config = tempfile.TemporaryDirectory(prefix="minibrowser-")
        (Path(self.config.name) / "gtk-3.0").mkdir()
        (Path(self.config.name) / "gtk-3.0" / "gtk.css").write_text(MINIBROWSER_GTK_CSS)
        service = Service(WEBKIT_DRIVER, env={**os.environ, "DISPLAY": display, "XDG_CONFIG_HOME": self.config.name})
        self.driver = webdriver.WebKitGTK(options=options, service=service)
        self.driver.set_script_timeout(60)
        self.set_viewport(*VIEWPORT)

    @property
    def pid(self):
        """The process under which the browser's run (WebKitWebDriver, MiniBrowser, its web and network processes)."""
        return self.driver.service.process.pid

    def navigate(self, url):
        self.driver.get(url)

    def execute_async(self, script, arguments):
        return self.driver.execute_async_script(script, *arguments)

    def click(self, selector):
        from selenium.webdriver.common.by import By
        self.driver.find_element(By.CSS_SELECTOR, selector).click()

    def set_viewport(self, width, height):
        # The window's size is its viewport's plus its frame: measure the frame, then size the window.
        inner = self.driver.execute_script("return [innerWidth, innerHeight]")
        outer = self.driver.get_window_size()
        self.driver.set_window_size(width + outer["width"] - inner[0], height + outer["height"] - inner[1])

    def screenshot_png(self):
        return self.driver.get_screenshot_as_png()

    def quit(self):
        try:
            self.driver.quit()
        finally:
            self.config.cleanup()


class MarionetteDriver:
    """Debian's Firefox ESR, headless, through Marionette, with its fake camera and the camera granted."""

    PREFERENCES = {
        "media.navigator.streams.fake": True,
        "media.navigator.permission.disabled": True,
        # As a person's Firefox: autoplay of sound blocked (the page's own videos must be muted to play).
        "media.autoplay.default": 1,
        "browser.shell.checkDefaultBrowser": False,
    }

    @staticmethod
    def port():
        """Marionette's port: 2828, its default, and the next ones for pytest-xdist's other workers (gw1, gw2, …),
        whose Firefoxes would otherwise each wait for a port the first one holds. Below the ephemeral range, so no
        studio's or browser's own port takes it."""
        worker = os.environ.get("PYTEST_XDIST_WORKER", "gw0")
        return 2828 + int(worker[2:] or 0)

    def __init__(self):
        from marionette_driver.marionette import Marionette
        self.log = tempfile.NamedTemporaryFile(prefix="gecko-", suffix=".log", delete=False).name
        self.client = Marionette(bin=FIREFOX, headless=True, prefs=self.PREFERENCES, gecko_log=self.log,
                                 port=self.port(), startup_timeout=60)
        self.client.start_session()
        self.client.timeout.script = 60
        with self.client.using_context("chrome"):
            self.client.execute_script("document.documentElement.style.setProperty('min-width', '0px', 'important')")
        self.set_viewport(*VIEWPORT)

    @property
    def pid(self):
        """Firefox's main process, under which its content and GPU processes run."""
        return self.client.instance.runner.process_handler.pid

    def navigate(self, url):
        self.client.navigate(url)

    def execute_async(self, script, arguments):
        # sandbox=None: the page's own world, as WebDriver's scripts run (no wrappedJSObject needed).
        return self.client.execute_async_script(script, script_args=arguments, sandbox=None)

    def click(self, selector):
        self.client.find_element("css selector", selector).click()

    def refuse_camera(self, refused):
        # The camera's permission denied in Firefox's own store, with its prompting back on (the fake camera's
        # preference grants every request unasked): getUserMedia is refused as when a person says no.
        with self.client.using_context("chrome"):
            self.client.execute_script("""const [refused] = arguments;
                Services.prefs.setBoolPref('media.navigator.permission.disabled', !refused);
                if (refused) Services.prefs.setIntPref('permissions.default.camera', 2);
                else Services.prefs.clearUserPref('permissions.default.camera');""", script_args=[refused])

    def set_viewport(self, width, height):
        inner = self.client.execute_script("return [innerWidth, innerHeight]", sandbox=None)
        outer = self.client.window_rect
        self.client.set_window_rect(width=width + outer["width"] - inner[0], height=height + outer["height"] - inner[1])

    def screenshot_png(self):
        return self.client.screenshot(format="binary")

    def quit(self):
        try:
            self.client.quit(in_app=False)
        finally:
            self.client.cleanup()
            Path(self.log).unlink(missing_ok=True)


class VirtualDisplay:
    """An Xvfb display for WebKitGTK, which needs one even when nobody looks."""

    def __init__(self):
        read, write = os.pipe()
        self.process = subprocess.Popen(["Xvfb", "-displayfd", str(write), "-screen", "0", "1600x1000x24", "-nolisten", "tcp"],
                                        pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(write)
        with os.fdopen(read) as announced:
            number = announced.readline().strip()
        if not number:
            self.process.kill()
            raise RuntimeError("Xvfb did not start")
        self.name = f":{number}"

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=10)


class WebDriverEngines:
    """One browser per engine for the whole run (a launch costs 2–5 s), a page reset between tests."""

    def __init__(self):
        self.display = None
        self.drivers = {}

    def page(self, engine):
        driver = self.drivers.get(engine)
        if driver is None:
            if engine == "webkit":
                if self.display is None:
                    self.display = VirtualDisplay()
                driver = SeleniumDriver(self.display.name)
            elif engine == "firefox":
                driver = MarionetteDriver()
            else:
                raise ValueError(engine)
            self.drivers[engine] = driver
        return WebDriverPage(driver, engine)

    def discard(self, engine):
        """Quits an engine's browser (after a test left it unusable); the next test starts another."""
        driver = self.drivers.pop(engine, None)
        if driver:
            try:
                driver.quit()
            except Exception:
                pass

    def close(self):
        for engine in list(self.drivers):
            self.discard(engine)
        if self.display:
            self.display.stop()
            self.display = None
