"""Ocular Studio in the three browser engines its users carry, side by side: Chromium, Firefox and WebKit
(Safari's engine, every iPhone's), each driven as the tests drive it (Tests/browser/engines.py).

Each engine's camera is 1280×720 at 30 frames/s, the size the page asks for: Chromium's fake camera plays the
astronaut pan clip at that size, Firefox's and WebKit's show their own moving patterns. For each page (Light
Work with no stages on the camera; Many Masks and Bean Counter on their page's still, the same in every engine)
the row gives the frames shown a second, the camera-to-screen delay (median), and the page's CPU a frame shown:
every process of that browser (its page, GPU and network processes), user + system. Then the goals: Light Work
≥ 25 frames/s in each engine, its delay within 1.5× Chromium's, Many Masks and Bean Counter within 20 % of
Chromium's rate.

Usage: bench_engines.py --ocular .build/release/ocular [--seconds 8] [--only chromium,webkit] [--figures F]
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPOSITORY / "Tests" / "browser"))
from engines import ENGINES, VIEWPORT, WebDriverEngines  # noqa: E402

from bench_browser import start_studio  # noqa: E402

DATA = Path(os.environ.get("OCULAR_TEST_DATA", REPOSITORY.parent / "shared" / "data"))
# The full browser as a person runs it (make bench installs it), else the tests' headless shell.
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or shutil.which("chromium-headless-shell") or "/usr/bin/chromium")
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
# The pages measured: (row name, path, what must hold before measuring, the page's still to show or None). Light
# Work shows each engine's camera; Many Masks and Bean Counter the same still in every engine (the astronaut, the
# demo's table), as each engine's camera shows another scene (a pattern of a hundred blobs in WebKit's, a few in
# Firefox's, the astronaut in Chromium's), which the detections take from 5 ms to seconds a frame.
PAGES = [
    ("lightWork", "", "true", None),
    ("manyMasks", "many-masks.html", "true", "astronaut"),
    ("beanCounter", "bean-counter.html", "window.ocularStudio.stats().classifier === 'ready'", "beans"),
]
GOAL_FPS = 25
GOAL_DELAY_RATIO = 1.5
GOAL_RATE_SHARE = 0.8


def process_tree_cpu(root):
    """CPU seconds (user + system) so far of process `root` and every process under it."""
    parents, times = {}, {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents[int(entry.name)] = int(fields[1])
        times[int(entry.name)] = (int(fields[11]) + int(fields[12])) / CLOCK_TICKS
    total, frontier = 0.0, [root]
    while frontier:
        pid = frontier.pop()
        total += times.get(pid, 0.0)
        frontier += [child for child, parent in parents.items() if parent == pid]
    return total


def chromium_root(marker):
    """The pid of the Chromium whose command line holds `marker` and whose parent is not a Chromium."""
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if marker in command and "--type=" not in command:
                return int(entry.name)
    raise RuntimeError("Chromium's process was not found")


class Browsers:
    """Each engine's page and the pid under which all its processes run."""

    def __init__(self, camera):
        self.camera = camera
        self.webdriver = WebDriverEngines()
        self.playwright = None
        self.chromium = None

    def open(self, engine):
        if engine == "chromium":
            from playwright.sync_api import sync_playwright
            self.playwright = self.playwright or sync_playwright().start()
            self.chromium = self.playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
                "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
                f"--use-file-for-fake-video-capture={self.camera}", "--disable-dev-shm-usage"])
            page = self.chromium.new_page(viewport={"width": VIEWPORT[0], "height": VIEWPORT[1]}, bypass_csp=True)
            return page, chromium_root(str(self.camera))
        page = self.webdriver.page(engine)
        return page, page.driver.pid

    def close(self, engine):
        if engine == "chromium":
            self.chromium.close()
        else:
            self.webdriver.discard(engine)

    def stop(self):
        self.webdriver.close()
        if self.playwright:
            self.playwright.stop()


def measure(page, pid, url, ready, still, seconds):
    page.goto(url)
    page.wait_for_function(f"window.ocularStudio && ({ready}) && window.ocularStudio.stats().source === 'camera'"
                           " && window.ocularStudio.stats().framesReceived > 10", timeout=90000)
    if still:
        page.select_option("#source", still)
        page.wait_for_function("window.ocularStudio.stats().source === 'still'", timeout=30000)
        page.wait_for_function(f"window.ocularStudio.stats().framesReceived > {page.evaluate('window.ocularStudio.stats().framesReceived') + 5}",
                               timeout=90000)
    page.wait_for_timeout(1500)
    page.evaluate("window.ocularStudio.takeDelays()")
    start = page.evaluate("window.ocularStudio.stats()")
    cpu_start, began = process_tree_cpu(pid), time.monotonic()
    page.wait_for_timeout(seconds * 1000)
    end = page.evaluate("window.ocularStudio.stats()")
    cpu_end, elapsed = process_tree_cpu(pid), time.monotonic() - began
    delays = sorted(entry["delay"] for entry in page.evaluate("window.ocularStudio.takeDelays()"))
    shown = end["framesReceived"] - start["framesReceived"]
    return {"shown": shown / elapsed, "camera": (end["cameraFrames"] - start["cameraFrames"]) / elapsed,
            "delay": statistics.median(delays) if delays else float("nan"),
            "cpu": 1000 * (cpu_end - cpu_start) / max(1, shown),
            "offThread": end["framesEncodedOffThread"] - start["framesEncodedOffThread"]}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--ocular", required=True)
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--only", help="comma-separated engines (chromium, firefox, webkit); default: all three")
    parser.add_argument("--figures", help="write the run's figures as JSON to this file, for scripts/bench-compare.py")
    arguments = parser.parse_args()
    engines = arguments.only.split(",") if arguments.only else list(ENGINES)

    folder = Path(tempfile.mkdtemp(prefix="bench-engines-"))
    camera = folder / "astronaut-720p-30fps.y4m"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(DATA / "video" / "astronaut_pan.avi"),
                    "-vf", "scale=1280:720,fps=30", "-pix_fmt", "yuv420p", "-frames:v", "90", str(camera)], check=True)
    studio, url = start_studio(arguments.ocular, ["--gallery", str(folder / "gallery")])
    browsers = Browsers(camera)
    rows = {}
    try:
        for engine in engines:
            page, pid = browsers.open(engine)
            try:
                for name, path, ready, still in PAGES:
                    rows[(engine, name)] = measure(page, pid, url + path, ready, still, arguments.seconds)
                    row = rows[(engine, name)]
                    print(f"  {engine:9} {name:12} shown {row['shown']:5.1f} f/s (camera {row['camera']:4.1f})  delay {row['delay']:6.1f} ms"
                          f"  page CPU {row['cpu']:6.1f} ms a frame  ({row['offThread']} encoded off the main thread)", flush=True)
            finally:
                browsers.close(engine)
    finally:
        browsers.stop()
        studio.terminate()

    print(f"\n{'page':12} " + " ".join(f"{engine + ' f/s · delay · CPU':>30}" for engine in engines))
    for name, *_ in PAGES:
        cells = [rows.get((engine, name)) for engine in engines]
        print(f"{name:12} " + " ".join(f"{cell['shown']:>12.1f} · {cell['delay']:6.1f} · {cell['cpu']:6.1f}" if cell else f"{'–':>30}"
                                        for cell in cells))
    reference = {name: rows.get(("chromium", name)) for name, *_ in PAGES}
    for engine in engines:
        light = rows[(engine, "lightWork")]
        verdicts = [f"Light Work {light['shown']:.1f} f/s (≥ {GOAL_FPS}: {'met' if light['shown'] >= GOAL_FPS else 'NOT met'})"]
        if engine != "chromium" and reference["lightWork"]:
            ratio = light["delay"] / reference["lightWork"]["delay"]
            verdicts.append(f"delay {ratio:.2f}× Chromium's (≤ {GOAL_DELAY_RATIO}: {'met' if ratio <= GOAL_DELAY_RATIO else 'NOT met'})")
            for name in ("manyMasks", "beanCounter"):
                share = rows[(engine, name)]["shown"] / max(0.01, reference[name]["shown"])
                verdicts.append(f"{name} {share:.2f} of Chromium's rate (≥ {GOAL_RATE_SHARE}: {'met' if share >= GOAL_RATE_SHARE else 'NOT met'})")
        print(f"{engine}: " + "; ".join(verdicts))

    if arguments.figures:
        figures = []
        for (engine, name), row in rows.items():
            figures += [{"name": f"engine {engine} {name} frames shown/s", "value": row["shown"], "better": "higher", "kind": "absolute"},
                        {"name": f"engine {engine} {name} delay ms", "value": row["delay"], "better": "lower", "kind": "absolute"},
                        {"name": f"engine {engine} {name} page CPU ms a frame", "value": row["cpu"], "better": "lower", "kind": "absolute"}]
        with open(arguments.figures, "w") as file:
            json.dump({"source": "bench_engines.py", "figures": figures}, file, indent=2, sort_keys=True)


if __name__ == "__main__":
    main()
