"""Ocular Studio in a real browser: displayed frames per second and camera-to-screen delay.

Debian's headless Chromium with a fake 30 frames/s 640×480 camera (the astronaut pan clip) streams
to an `ocular studio` process; the page's own counters say how many processed frames it drew and how
long each took from the camera frame's arrival to the screen, and each round trip. Prints one row per
recipe (every stage at its defaults on the studio's main page, then the Bean Counter page naming and
counting the demo's coins and beans from a camera over them) and the targets: ≥ 28 frames/s
displayed, median round trip ≤ 42 ms (the page's figure before the pacing fix, measured the same way).

Beside them, the page a Python user would build instead (streamlit-webrtc's way): the same camera sent
over WebRTC, VP8-encoded and decoded by the browser, and shown in a <video> as large as the studio
shows its frames. Its own CPU a frame is what the page's could be compared with: both peers of that
connection live in the one page here, as the encoder and decoder both live in the user's browser there.

Usage: bench_browser.py --ocular .build/release/ocular [--seconds 10]
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from playwright.sync_api import sync_playwright

REPOSITORY = Path(__file__).resolve().parents[2]
DATA = Path(os.environ.get("OCULAR_TEST_DATA", REPOSITORY.parent / "shared" / "data"))
CHROMIUM = os.environ.get("CHROMIUM", shutil.which("chromium") or "/usr/bin/chromium")
TARGET_FPS = 28
TARGET_DELAY_MS = 42
# The page's own CPU a frame shown with no stages before the hot paths' work (13 ms, JPEG both ways, the
# camera played in a <video>), which that work asked to halve.
PAGE_CPU_BEFORE_MS = 13.0


def start_studio(ocular, arguments=()):
    """An `ocular studio` on a free port (with `arguments` besides): the process and its address."""
    process = subprocess.Popen([ocular, "studio", "--port", "0", *arguments], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 30
    while time.time() < deadline:
        line = process.stdout.readline()
        match = re.search(r"(http://127\.0\.0\.1:\d+/)", line)
        if match:
            return process, match.group(1)
        if process.poll() is not None:
            break
    process.kill()
    sys.exit(f"ocular studio did not start: {line!r}")


CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def chromium_cpu(marker):
    """CPU seconds (user + system) so far of the Chromium launched with `marker` in its command line and of
    its child processes, by their --type: "renderer" (the page's JavaScript, canvases, JPEG encoding and
    decoding), "gpu-process" (compositing; in software here), "browser" (the main process), "utility";
    and, beside them, what the renderers' main threads spent of it (where a page's scripts, layout and
    painting wait for each other, and where a tap waits)."""
    parents, commands, seconds = {}, {}, {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            fields = stat_fields(f"/proc/{entry}/stat")
            with open(f"/proc/{entry}/cmdline", "rb") as file:
                command = file.read().split(b"\0")
        except OSError:
            continue  # gone meanwhile
        pid = int(entry)
        parents[pid] = int(fields[1])
        commands[pid] = command
        seconds[pid] = cpu_seconds(fields)
    # A child process rewrites its command line as one string ("chromium --type=renderer ..."), so the
    # type is looked for in the whole of it.
    kinds = {pid: (re.search(rb"--type=([\w-]+)", b" ".join(command)) or [None, b"browser"])[1].decode()
             for pid, command in commands.items()}
    roots = {pid for pid, command in commands.items() if kinds[pid] == "browser" and any(marker.encode() in a for a in command)}
    totals, main_thread = {}, {}
    for pid in seconds:
        ancestor = pid
        while ancestor not in roots and ancestor > 1:
            ancestor = parents.get(ancestor, 1)
        if ancestor in roots:
            totals[kinds[pid]] = totals.get(kinds[pid], 0) + seconds[pid]
            if kinds[pid] == "renderer":
                main_thread[pid] = thread_seconds(pid, pid)
    return totals, sum(main_thread.values())


def thread_seconds(pid, tid):
    """CPU seconds (user + system) so far of thread `tid` of process `pid`; 0 once it is gone."""
    try:
        return cpu_seconds(stat_fields(f"/proc/{pid}/task/{tid}/stat"))
    except OSError:
        return 0


def stat_fields(path):
    """The fields of a /proc stat file after the command's name (which may hold spaces and parentheses)."""
    with open(path) as file:
        return file.read().rsplit(")", 1)[1].split()


def cpu_seconds(fields):
    """User + system CPU seconds from stat_fields (utime and stime, in clock ticks)."""
    return (int(fields[11]) + int(fields[12])) / CLOCK_TICKS


def cpu_per_frame(before, after, frames):
    """What Chromium spent between two chromium_cpu() readings, in CPU ms a frame shown: the page's own
    (its renderer and the GPU process, which composites), all of Chromium's, the renderers' main threads,
    and each process type's."""
    (cpu_before, main_before), (cpu_after, main_after) = before, after
    cpu = {kind: cpu_after[kind] - cpu_before.get(kind, 0) for kind in cpu_after}
    return {
        "page_cpu": 1000 * (cpu.get("renderer", 0) + cpu.get("gpu-process", 0)) / frames,
        "chromium_cpu": 1000 * sum(cpu.values()) / frames,
        "main_thread": 1000 * (main_after - main_before) / frames,
        "cpu_by_kind": {kind: 1000 * seconds / frames for kind, seconds in cpu.items()},
    }


def launch_chromium(playwright, camera):
    """Headless Chromium whose fake camera plays `camera` (a .y4m file), permission granted."""
    return playwright.chromium.launch(executable_path=CHROMIUM, headless=True, args=[
        "--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream",
        f"--use-file-for-fake-video-capture={camera}", "--disable-dev-shm-usage"])


def measure(page, name, seconds, marker):
    """One row: the page's counters over `seconds`, after the delay log is emptied, and what Chromium's
    processes spent of the CPU meanwhile (`marker`: a string of its command line)."""
    page.evaluate("window.ocularStudio.takeDelays()")
    start = page.evaluate("window.ocularStudio.stats()")
    cpu_start = chromium_cpu(marker)
    began = time.monotonic()
    page.wait_for_timeout(seconds * 1000)
    end = page.evaluate("window.ocularStudio.stats()")
    cpu_end = chromium_cpu(marker)
    elapsed = time.monotonic() - began
    shown_frames = max(1, end["framesReceived"] - start["framesReceived"])
    log = page.evaluate("window.ocularStudio.takeDelays()")
    delays = sorted(entry["delay"] for entry in log)
    round_trips = sorted(entry["roundTrip"] for entry in log)
    return {
        "recipe": name,
        "camera": (end["cameraFrames"] - start["cameraFrames"]) / elapsed,
        "sent": (end["framesSent"] - start["framesSent"]) / elapsed,
        "shown": (end["framesReceived"] - start["framesReceived"]) / elapsed,
        "median": statistics.median(delays) if delays else float("nan"),
        "p95": delays[int(0.95 * (len(delays) - 1))] if delays else float("nan"),
        "trip": statistics.median(round_trips) if round_trips else float("nan"),
        **cpu_per_frame(cpu_start, cpu_end, shown_frames),
    }


def measure_page(playwright, camera, url, ready, name, seconds):
    """One row of a page of its own, in a browser whose fake camera plays `camera`: once `ready` (a
    JavaScript condition) holds and a second and a half has settled it."""
    browser = launch_chromium(playwright, camera)
    try:
        page = browser.new_page(viewport={"width": 1000, "height": 760}, bypass_csp=True)
        page.goto(url)
        page.wait_for_function(ready, timeout=60000)
        page.wait_for_timeout(1500)
        row = measure(page, name, seconds, str(camera))
        row["stats"] = page.evaluate("window.ocularStudio.stats()")
        return row
    finally:
        browser.close()


WEBRTC_PAGE = """<!doctype html><html><body style="margin:0"><video id="shown" muted playsinline></video></body></html>"""

WEBRTC_LOOP = """async ({ width, height }) => {
  const shown = document.getElementById('shown');
  shown.style.width = `${width}px`;
  shown.style.height = `${height}px`;
  const camera = await navigator.mediaDevices.getUserMedia({ video: { width: 640, height: 480 } });
  const sender = new RTCPeerConnection();
  const receiver = new RTCPeerConnection();
  sender.onicecandidate = (event) => event.candidate && receiver.addIceCandidate(event.candidate);
  receiver.onicecandidate = (event) => event.candidate && sender.addIceCandidate(event.candidate);
  window.shownFrames = 0;
  receiver.ontrack = (event) => {
    shown.srcObject = event.streams[0];
    shown.play();
    const count = () => { window.shownFrames += 1; shown.requestVideoFrameCallback(count); };
    shown.requestVideoFrameCallback(count);
  };
  camera.getTracks().forEach((track) => sender.addTrack(track, camera));
  const vp8 = RTCRtpReceiver.getCapabilities('video').codecs.filter((codec) => codec.mimeType === 'video/VP8');
  sender.getTransceivers()[0].setCodecPreferences(vp8);
  const offer = await sender.createOffer();
  await sender.setLocalDescription(offer);
  await receiver.setRemoteDescription(offer);
  const answer = await receiver.createAnswer();
  await receiver.setLocalDescription(answer);
  await sender.setRemoteDescription(answer);
  window.peers = [sender, receiver];
}"""


def measure_webrtc_page(playwright, camera, url, shown_size, seconds):
    """The page streamlit-webrtc's user gets, on the same fake camera: the camera over a WebRTC connection
    (VP8), decoded and shown in a <video> of `shown_size` ({width, height}, the studio's output as laid
    out). Served at the studio's origin by the browser itself, so that it is a secure context."""
    browser = launch_chromium(playwright, camera)
    try:
        page = browser.new_page(viewport={"width": 1000, "height": 760}, bypass_csp=True)
        page.route(url + "webrtc-reference", lambda route: route.fulfill(body=WEBRTC_PAGE, content_type="text/html"))
        page.goto(url + "webrtc-reference")
        page.evaluate(WEBRTC_LOOP, shown_size)
        page.wait_for_function("window.shownFrames > 30", timeout=30000)
        page.wait_for_timeout(1500)
        start = page.evaluate("[window.shownFrames, document.getElementById('shown').videoWidth]")
        cpu_start = chromium_cpu(str(camera))
        began = time.monotonic()
        page.wait_for_timeout(seconds * 1000)
        end = page.evaluate("[window.shownFrames, document.getElementById('shown').videoWidth]")
        cpu_end = chromium_cpu(str(camera))
        elapsed = time.monotonic() - began
        shown_frames = max(1, end[0] - start[0])
        return {"shown": shown_frames / elapsed, "width": end[1], **cpu_per_frame(cpu_start, cpu_end, shown_frames)}
    finally:
        browser.close()


def measure_bean_counter(playwright, url, folder, seconds):
    """The Bean Counter page with its tally on: a camera over the demo's coins and beans (640×480 at 30
    frames/s, moving a little as a hand-held phone would), every object named by the studio's list."""
    camera = folder / "beans-30fps.y4m"
    scene = REPOSITORY / "Sources" / "OcularStudio" / "Public" / "demo" / "beans.jpg"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-loop", "1", "-framerate", "30", "-i", str(scene),
                    "-vf", "crop=1264:712:8+4*sin(n/3):4+3*cos(n/4),scale=640:360,pad=640:480:0:60:0xD0CBC4", "-pix_fmt", "yuv420p",
                    "-frames:v", "90", str(camera)], check=True)
    row = measure_page(playwright, camera, url + "bean-counter.html",
                       "window.ocularStudio.stats().tally && window.ocularStudio.stats().framesReceived > 30", "beans, tally", seconds)
    row["tally"] = row.pop("stats")["tally"]["text"]
    return row


def measure_many_masks(playwright, ocular, url, folder, seconds):
    """The Many Masks page over a group: the robustness sweep's 12-person scene at 1280×720 (faces 24–60
    pixels, `ocular faces sweep --only`), moving a little as a hand-held camera would, at 30 frames/s."""
    sweep = folder / "sweep"
    scene = "group-1280x720-12-busy"
    subprocess.run([ocular, "faces", "sweep", str(REPOSITORY / "Tests" / "Fixtures" / "faces" / "sweep-sources.json"), str(sweep),
                    "--only", scene], check=True, capture_output=True)
    camera = folder / "group-30fps.y4m"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-loop", "1", "-framerate", "30", "-i", str(sweep / f"{scene}.png"),
                    "-vf", "pad=1296:736:8:8:0x808080,crop=1280:720:8+4*sin(n/3):8+3*cos(n/4)", "-pix_fmt", "yuv420p",
                    "-frames:v", "90", str(camera)], check=True)
    row = measure_page(playwright, camera, url + "many-masks.html",
                       "window.ocularStudio.stats().faces.length >= 8 && window.ocularStudio.stats().framesReceived > 30", "masks, group", seconds)
    row["faces"] = len(row.pop("stats")["faces"])
    return row


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--ocular", required=True)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--only", help="comma-separated recipes to measure (stage names, none, beans, masks); default: all")
    parser.add_argument("--figures", help="write the run's figures as JSON to this file, for scripts/bench-compare.py")
    options = parser.parse_args()
    # No stages, then every stage the registry lists, at its defaults.
    listed = json.loads(subprocess.run([options.ocular, "stages", "--json"], check=True, capture_output=True, text=True).stdout)
    recipes = [("none", "[]")] + [(stage["name"], json.dumps([{"stage": stage["name"]}])) for stage in listed["stages"]]
    only = set(options.only.split(",")) if options.only else None
    if only:
        recipes = [recipe for recipe in recipes if recipe[0] in only]

    folder = Path(tempfile.mkdtemp(prefix="ocular-bench-browser-"))
    camera = folder / "camera-30fps.y4m"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-i", str(DATA / "video" / "astronaut_pan.avi"),
                    "-vf", "scale=640:480,fps=30", "-pix_fmt", "yuv420p", "-frames:v", "90", str(camera)], check=True)
    studio, url = start_studio(options.ocular)
    rows = []
    try:
        with sync_playwright() as playwright:
            browser = launch_chromium(playwright, camera)
            # wait_for_function evaluates with eval, which the studio's Content-Security-Policy forbids.
            page = browser.new_page(viewport={"width": 1000, "height": 760}, bypass_csp=True)
            page.goto(url)
            page.wait_for_function("window.ocularStudio.stats().framesReceived > 30", timeout=30000)
            for name, stages in recipes:
                page.evaluate(f"""window.ocularStudio.sendText('{{"type":"settings","recipe":{{"stages":{stages}}}}}')""")
                page.wait_for_timeout(1500)  # settle: the recipe applies, the JIT warms
                rows.append(measure(page, name, options.seconds, str(camera)))
            shown_size = page.evaluate("(({ width, height }) => ({ width: Math.round(width), height: Math.round(height) }))"
                                       "(document.getElementById('output').getBoundingClientRect())")
            browser.close()
            webrtc = measure_webrtc_page(playwright, camera, url, shown_size, options.seconds) if not only or "none" in only else None
            if not only or "beans" in only:
                rows.append(measure_bean_counter(playwright, url, folder, options.seconds))
            if not only or "masks" in only:
                rows.append(measure_many_masks(playwright, options.ocular, url, folder, options.seconds))
    finally:
        studio.terminate()
        studio.wait(timeout=10)
        shutil.rmtree(folder, ignore_errors=True)

    print(f"Studio in headless Chromium: fake camera 30 frames/s, 640×480, ~{options.seconds:.0f} s per recipe;")
    print("frames/s as the page counts them; delay: camera frame's arrival in the page → processed frame drawn")
    print("(capture, encoding, any wait for the previous answer, round trip, decoding); round trip: frame sent → answer")
    print("received, what the page's HUD showed before the pacing fix (42 ms median, at 15 frames/s).")
    print("")
    print("page CPU: Chromium's renderer and GPU processes, CPU ms per frame shown (all of Chromium's in brackets).")
    print("")
    print(f"{'recipe':<13} {'camera/s':>9} {'sent/s':>7} {'shown/s':>8} {'delay median':>13} {'delay p95':>10} {'trip median':>12} {'page CPU':>16}")
    print("-" * 94)
    for row in rows:
        print(f"{row['recipe']:<13} {row['camera']:>9.1f} {row['sent']:>7.1f} {row['shown']:>8.1f} {row['median']:>10.1f} ms"
              f" {row['p95']:>7.1f} ms {row['trip']:>9.1f} ms {row['page_cpu']:>5.1f} ms ({row['chromium_cpu']:.1f})")
    print("  page CPU by process, ms per frame shown: " + "; ".join(
        f"{row['recipe']}: " + ", ".join(f"{kind} {value:.1f}" for kind, value in sorted(row["cpu_by_kind"].items()) if value >= 0.05)
        + f" (its main thread {row['main_thread']:.1f})" for row in rows))
    plain = next((row for row in rows if row["recipe"] == "none"), None)
    if webrtc:
        print(f"  the page a Python user would build instead (streamlit-webrtc's: the camera over WebRTC, VP8, shown in a"
              f" {shown_size['width']}×{shown_size['height']} <video>): {webrtc['page_cpu']:.1f} ms ({webrtc['chromium_cpu']:.1f}) a frame shown,"
              f" {webrtc['shown']:.1f} shown/s at {webrtc['width']} wide"
              + f" (its main thread {webrtc['main_thread']:.1f})"
              + (f"; Ocular's page with no stages: {plain['page_cpu'] / webrtc['page_cpu']:.2f}× it" if plain else ""))
    if plain:
        goal = PAGE_CPU_BEFORE_MS / 2
        print(f"  the page's own CPU with no stages, halved from {PAGE_CPU_BEFORE_MS:.0f} ms a frame shown: ≤ {goal:.1f} asked,"
              f" {plain['page_cpu']:.1f}: {'met' if plain['page_cpu'] <= goal else 'NOT met'}")
    tallies = [row for row in rows if "tally" in row]
    for row in tallies:
        print(f"  {row['recipe']}: the Bean Counter page (bean-counter.html) over the demo's coins and beans; its tally read {row['tally']!r}")
    for row in rows:
        if "faces" in row:
            print(f"  {row['recipe']}: the Many Masks page (many-masks.html) over a 12-person group at 1280×720; {row['faces']} faces listed at the end"
                  f" (≥ 25 frames/s shown asked: {'met' if row['shown'] >= 25 else 'NOT met'})")
    if options.figures:
        # Times and rates on this machine alone ("absolute"): the page's frames shown a second and its round trip.
        figures = []
        for row in rows:
            figures.append({"name": f"browser {row['recipe']} frames shown/s", "value": row["shown"], "better": "higher", "kind": "absolute"})
            figures.append({"name": f"browser {row['recipe']} round trip ms", "value": row["trip"], "better": "lower", "kind": "absolute"})
            figures.append({"name": f"browser {row['recipe']} page CPU ms a frame", "value": row["page_cpu"], "better": "lower", "kind": "absolute"})
        if webrtc:
            figures.append({"name": "browser WebRTC page CPU ms a frame", "value": webrtc["page_cpu"], "better": "lower", "kind": "absolute"})
        with open(options.figures, "w") as file:
            json.dump({"source": "bench_browser.py", "figures": figures}, file, indent=2, sort_keys=True)
    missed = [row["recipe"] for row in rows if row["shown"] < TARGET_FPS or row["trip"] > TARGET_DELAY_MS]
    print("")
    print(f"  browser ≥ {TARGET_FPS} frames/s shown, median round trip ≤ {TARGET_DELAY_MS} ms: "
          + ("met for every recipe" if not missed else f"NOT met for {', '.join(missed)}"))


if __name__ == "__main__":
    main()
