"""Recording in the studio, the gallery's player, and the capture sounds, in Chromium with a fake camera (the
astronaut pan) and a fake microphone playing a 440 Hz tone."""
import http.client
import json
import subprocess
import urllib.request

import cv2
import numpy as np
import pytest

from conftest import TONE_HERTZ, Studio, browser_page, screenshot
from test_studio import open_studio, stats, wait_for_frames


def gallery_items(studio):
    with urllib.request.urlopen(studio.url + "api/gallery") as response:
        return json.load(response)["items"]


def download(studio, path, folder, name):
    target = folder / name
    with urllib.request.urlopen(studio.url + path.lstrip("/")) as response:
        target.write_bytes(response.read())
    return target


def probe(path):
    """ffprobe's streams and format of a file."""
    found = subprocess.run(["ffprobe", "-v", "error", "-show_streams", "-show_format", "-of", "json", str(path)],
                           check=True, capture_output=True, text=True)
    return json.loads(found.stdout)


def loudest_frequency(path):
    """The strongest frequency of the file's sound, decoded by FFmpeg to 48 kHz mono samples (Hz)."""
    raw = subprocess.run(["ffmpeg", "-v", "error", "-i", str(path), "-vn", "-ac", "1", "-ar", "48000", "-f", "f32le", "-"],
                         check=True, capture_output=True).stdout
    samples = np.frombuffer(raw, dtype=np.float32)
    assert samples.size > 48000, f"only {samples.size} samples of sound"
    middle = samples[samples.size // 4: samples.size * 3 // 4]  # away from the start's and end's edges
    spectrum = np.abs(np.fft.rfft(middle * np.hanning(middle.size)))
    return float(np.fft.rfftfreq(middle.size, 1 / 48000)[np.argmax(spectrum)]), float(np.sqrt(np.mean(middle ** 2)))


def newest_with_mp4(studio, page, seconds=30):
    """The newest item once FFmpeg's MP4 is attached to it (made in the background)."""
    for _ in range(seconds * 4):
        listed = gallery_items(studio)[0]
        if listed.get("alternateURL"):
            return listed
        page.wait_for_timeout(250)
    raise AssertionError("no MP4 was made")


def record(page, seconds):
    """Records `seconds` whole seconds, as the recorder counts them (a chunk a second), then stops."""
    page.click("#record")
    page.wait_for_function("window.ocularRecorder.phase === 'recording'", timeout=10000)
    wait_for_chunks(page, seconds)
    page.click("#record")


def wait_for_chunks(page, count):
    page.wait_for_function(f"window.ocularRecorder.chunks >= {count}", timeout=count * 1000 + 10000)


@pytest.fixture
def recording_page(playwright_instance, camera_file, tone_file):
    with browser_page(playwright_instance, camera_file, microphone=tone_file) as page:
        yield page


@pytest.mark.alone
def test_a_recording_of_light_work_in_gray_lands_in_the_gallery_with_its_sound(studio, recording_page, tmp_path):
    page = recording_page
    open_studio(page, studio)
    assert page.evaluate("window.ocularSounds.log.length") == 0, "no sound before the person has used the page"
    page.click("#gray-mode")
    page.wait_for_function("window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'gray')", timeout=5000)
    page.click("#record")
    page.wait_for_function("window.ocularRecorder.phase === 'recording'", timeout=10000)
    wait_for_chunks(page, 2)
    # While recording: the red mark with the time on the view, the size in the toolbar, Stop.
    assert page.is_visible("#recording-mark")
    assert page.inner_text("#record") == "■ Stop"
    assert "Recording 0:0" in page.inner_text("#record-status") and "kB" in page.inner_text("#record-status")
    screenshot(page, "recording-light-work.png")
    wait_for_chunks(page, 3)
    page.click("#record")
    page.wait_for_function("window.ocularRecorder.uploads.length === 1", timeout=20000)
    upload = page.evaluate("window.ocularRecorder.uploads[0]")
    assert "item" in upload, upload
    item = upload["item"]
    assert "Clip saved" in page.inner_text("#record-status")
    assert [entry["name"] for entry in page.evaluate("window.ocularSounds.log")] == ["recordStart", "recordStop"]

    # The gallery lists a clip of 3 ± 0.5 s with sound, recorded through the gray recipe.
    listed = gallery_items(studio)[0]
    assert listed["id"] == item["id"] and listed["kind"] == "video" and listed["fileName"].endswith(".webm")
    assert abs(listed["duration"] - 3) <= 0.5, listed["duration"]
    assert listed["hasAudio"] is True
    assert [stage["stage"] for stage in listed["recipe"]["stages"]] == ["gray"]
    assert listed["source"] == "studio lightWork recording"

    clip = download(studio, listed["url"], tmp_path, listed["fileName"])
    found = probe(clip)
    video = next(stream for stream in found["streams"] if stream["codec_type"] == "video")
    audio = next(stream for stream in found["streams"] if stream["codec_type"] == "audio")
    assert video["codec_name"] in ("vp8", "vp9") and audio["codec_name"] == "opus"
    assert int(audio["sample_rate"]) == 48000
    frequency, loudness = loudest_frequency(clip)
    assert abs(frequency - TONE_HERTZ) < 5 and loudness > 0.01, (frequency, loudness)

    # Its frames are the processed ones: gray (the channels agree), and the picture is there.
    capture = cv2.VideoCapture(str(clip))
    frames = []
    while len(frames) < 60:
        ok, frame = capture.read()
        if not ok:
            break
        frames.append(frame.astype(np.int16))
    assert len(frames) >= 20, f"{len(frames)} frames decoded"
    for frame in frames[5::10]:
        assert np.abs(frame[:, :, 0] - frame[:, :, 1]).mean() < 3 and np.abs(frame[:, :, 1] - frame[:, :, 2]).mean() < 3
        assert 30 < frame.mean() < 220 and frame.std() > 20

    # The MP4 beside it, made by FFmpeg in the background: H.264 and AAC of the same length and tone.
    listed = newest_with_mp4(studio, page)
    mp4 = download(studio, listed["alternateURL"], tmp_path, listed["alternateFileName"])
    converted = probe(mp4)
    assert sorted(stream["codec_name"] for stream in converted["streams"]) == ["aac", "h264"]
    assert abs(float(converted["format"]["duration"]) - listed["duration"]) < 0.3
    assert abs(loudest_frequency(mp4)[0] - TONE_HERTZ) < 5


# The length the gallery player goes by (player.js's duration()): the file's own once the video knows it, which
# may be shorter than the server's (the sound's) by a frame or two, more when a busy machine recorded fewer
# frames; the server's, `listed`, until then.
PLAYER_LENGTH = ("(listed) => { const video = document.querySelector('#viewer .player video');"
                 " return Number.isFinite(video.duration) && video.duration > 0 ? video.duration : listed; }")


def test_the_gallery_player_plays_seeks_steps_changes_speed_and_previews(studio, recording_page):
    page = recording_page
    open_studio(page, studio)
    record(page, 3)
    page.wait_for_function("window.ocularRecorder.uploads.length === 1", timeout=20000)
    item = page.evaluate("window.ocularRecorder.uploads[0].item")
    page.goto(studio.url + f"gallery.html#item-{item['id']}")
    page.wait_for_selector("#viewer[open] .player video")
    player = "#viewer .player"
    page.wait_for_function("document.querySelector('#viewer .player video').readyState >= 2", timeout=10000)
    assert "with sound" in page.inner_text("#viewer-meta")
    duration_text = page.inner_text(".player-time").split(" / ")[1]
    assert duration_text.startswith("0:0"), duration_text  # the server's length, not the WebM's unknown one

    # Play, then pause: the clock runs.
    page.click(".player-play")
    page.wait_for_function(f"document.querySelector('{player}').dataset.state === 'playing'")
    page.wait_for_function("document.querySelector('#viewer .player video').currentTime > 0.6", timeout=10000)
    page.click(".player-play")
    page.wait_for_function(f"document.querySelector('{player}').dataset.state === 'paused'")

    # Speed.
    page.select_option(".player-speed", "0.5")
    assert page.evaluate("document.querySelector('#viewer .player video').playbackRate") == 0.5
    page.select_option(".player-speed", "2")
    assert page.evaluate("document.querySelector('#viewer .player video').playbackRate") == 2

    # Seek with the scrubber to the middle.
    page.eval_on_selector(".player-scrubber", "(slider) => { slider.value = 500; slider.dispatchEvent(new Event('input')); }")
    # To the middle of the length the player goes by.
    page.wait_for_function(f"(listed) => Math.abs(document.querySelector('#viewer .player video').currentTime"
                           f" - ({PLAYER_LENGTH})(listed) / 2) < 0.2", arg=item["duration"])

    # Frame steps: the button and the keys move one frame (the length learnt while playing, ~1/10 s for
    # the 10 fps camera clip, at most 1/30 s).
    before = page.evaluate("document.querySelector('#viewer .player video').currentTime")
    frame = float(page.get_attribute(player, "data-frame-seconds") or 1 / 30)
    page.click(".player-step[aria-label='Next frame']")
    page.wait_for_function(f"Math.abs(document.querySelector('#viewer .player video').currentTime - {before + frame}) < 0.002")
    page.focus(player)
    page.keyboard.press(",")
    page.keyboard.press(",")
    page.wait_for_function(f"Math.abs(document.querySelector('#viewer .player video').currentTime - {before - frame}) < 0.002")
    page.keyboard.press(".")
    page.wait_for_function(f"Math.abs(document.querySelector('#viewer .player video').currentTime - {before}) < 0.002")

    # Keys: space plays and pauses, → jumps 5 s (to the end), ← back to the start, M mutes.
    page.keyboard.press(" ")
    page.wait_for_function(f"document.querySelector('{player}').dataset.state === 'playing'")
    page.keyboard.press(" ")
    page.wait_for_function(f"document.querySelector('{player}').dataset.state === 'paused'")
    page.keyboard.press("ArrowLeft")
    page.wait_for_function("document.querySelector('#viewer .player video').currentTime === 0")
    page.keyboard.press("m")
    assert page.evaluate("document.querySelector('#viewer .player video').muted") is True
    page.wait_for_function("document.querySelector('.player-mute').getAttribute('aria-pressed') === 'true'")
    page.keyboard.press("m")
    page.keyboard.press("ArrowDown")
    assert abs(page.evaluate("document.querySelector('#viewer .player video').volume") - 0.9) < 1e-6

    # The scrubber's preview: the frame under the pointer, drawn, at 0.7 of the length the player goes by (it
    # may learn the file's own while the pointer moves).
    lengths = {page.evaluate(PLAYER_LENGTH, item["duration"])}
    box = page.locator(".player-scrubber").bounding_box()
    page.mouse.move(box["x"] + box["width"] * 0.7, box["y"] + box["height"] / 2)
    page.wait_for_function("Number(document.querySelector('.player-preview').dataset.drawn || 0) >= 1", timeout=10000)
    assert page.is_visible(".player-preview")
    shown = float(page.get_attribute(".player-preview", "data-seconds"))
    lengths.add(page.evaluate(PLAYER_LENGTH, item["duration"]))
    assert any(abs(shown - 0.7 * length) < 0.02 for length in lengths), (shown, lengths, item["duration"])
    screenshot(page, "gallery-player.png")

    # Fullscreen is asked of the player (headless Chromium grants it).
    page.click(".player-fullscreen")
    page.wait_for_function("document.fullscreenElement && document.fullscreenElement.classList.contains('player')")
    page.keyboard.press("f")
    page.wait_for_function("!document.fullscreenElement")


@pytest.mark.alone
def test_without_a_microphone_a_stopped_at_the_limit_clip_records_silently_and_a_failed_upload_is_retried(tmp_path, playwright_instance, camera_file):
    server = Studio(tmp_path / "gallery", arguments=["--max-recording-seconds", "2"])
    try:
        with browser_page(playwright_instance, camera_file) as page:
            # The microphone refused, as a person who says no.
            page.add_init_script("""(() => {
              const original = navigator.mediaDevices.getUserMedia.bind(navigator.mediaDevices);
              navigator.mediaDevices.getUserMedia = (constraints) => constraints && constraints.audio && !constraints.video
                ? Promise.reject(new DOMException("Permission denied", "NotAllowedError")) : original(constraints);
            })()""")
            # The first upload fails on the way.
            failures = {"left": 1}

            def flaky(route):
                if failures["left"]:
                    failures["left"] -= 1
                    route.abort("connectionreset")
                else:
                    route.continue_()
            page.route("**/api/gallery/clips?*", flaky)
            open_studio(page, server)
            assert page.evaluate("window.ocularRecorder.limits.maxSeconds") == 2
            page.click("#record")
            page.wait_for_function("window.ocularRecorder.phase === 'recording'", timeout=10000)
            assert "Recording without sound: the microphone was refused." in page.inner_text("#notice")
            # Not stopped by hand: the 2 s limit stops it.
            page.wait_for_function("window.ocularRecorder.phase === 'failed'", timeout=15000)
            assert "Recording stopped: the 0:02 limit was reached." in page.inner_text("#notice")
            assert "Not saved: the upload did not reach the server" in page.inner_text("#record-status")
            assert page.is_visible("#retry-upload")
            assert page.evaluate("window.ocularRecorder.held") > 0
            assert gallery_items(server) == []
            screenshot(page, "recording-upload-failed.png")
            page.click("#retry-upload")
            page.wait_for_function("window.ocularRecorder.uploads.length === 2", timeout=20000)
            assert page.evaluate("window.ocularRecorder.held") == 0
            item = page.evaluate("window.ocularRecorder.uploads[1].item")
            assert item["hasAudio"] is False
            assert abs(item["duration"] - 2) <= 0.5, item["duration"]
            assert "no sound" in page.inner_text("#record-status")
    finally:
        server.stop()


def test_sounds_play_on_save_and_record_only_after_a_click_and_stay_off_once_turned_off(studio, recording_page):
    page = recording_page
    open_studio(page, studio)
    wait_for_frames(page, stats(page)["framesReceived"] + 2)  # answers keep coming; none made a sound
    assert page.evaluate("window.ocularSounds.log") == []
    assert page.get_attribute("#sounds", "aria-pressed") == "true"
    page.click("#save")
    page.wait_for_function("window.ocularStudio.stats().saves.length === 1", timeout=15000)
    assert [entry["name"] for entry in page.evaluate("window.ocularSounds.log")] == ["shutter"]
    page.click("#sounds")
    assert page.get_attribute("#sounds", "aria-pressed") == "false"
    # Remembered: after a reload the switch is still off, and nothing plays.
    open_studio(page, studio)
    assert page.get_attribute("#sounds", "aria-pressed") == "false"
    page.click("#save")
    page.wait_for_function("window.ocularStudio.stats().saves.length === 1", timeout=15000)
    record(page, 1)
    page.wait_for_function("window.ocularRecorder.uploads.length === 1", timeout=20000)
    assert page.evaluate("window.ocularSounds.log") == []


def test_the_clip_upload_refuses_an_announced_size_over_the_limit_before_reading_it(tmp_path):
    server = Studio(tmp_path / "gallery", arguments=["--max-clip-megabytes", "1"])
    try:
        connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
        connection.putrequest("POST", "/api/gallery/clips?page=lightWork")
        connection.putheader("Content-Type", "video/webm")
        connection.putheader("Content-Length", str(50 << 20))
        connection.endheaders()
        connection.send(b"\x1a\x45\xdf\xa3" + b"\0" * 1000)  # 1 kB of the 50 MB announced
        answer = connection.getresponse()
        assert answer.status == 413
        assert "larger than the limit of 1048576 bytes" in json.load(answer)["error"]
        assert list((tmp_path / "gallery" / "videos").iterdir()) == []
    finally:
        server.stop()


def test_every_live_page_records_and_the_player_offers_the_other_file_where_a_format_cannot_play(studio, playwright_instance, camera_file, tone_file):
    with browser_page(playwright_instance, camera_file, microphone=tone_file) as page:
        page.goto(studio.url + "many-masks.html")
        page.wait_for_function("window.ocularStudio.stats().framesReceived > 2", timeout=20000)
        record(page, 1)
        page.wait_for_function("window.ocularRecorder.uploads.length === 1", timeout=20000)
        item = page.evaluate("window.ocularRecorder.uploads[0].item")
        assert item["source"] == "studio manyMasks recording" and item["hasAudio"] is True
        listed = newest_with_mp4(studio, page)
    # A browser that plays neither WebM nor MP4 (as a browser without WebM says of the WebM): the player says
    # so and offers the MP4 and a download; the MP4 offered then plays here.
    with browser_page(playwright_instance) as page:
        page.add_init_script("""HTMLMediaElement.prototype.canPlayType = () => "";""")
        page.goto(studio.url + f"gallery.html#item-{item['id']}")
        page.wait_for_function("document.querySelector('#viewer .player')?.dataset.state === 'unplayable'", timeout=10000)
        message = page.inner_text("#viewer .player-message")
        assert "This browser cannot play this WEBM video." in message and "Play the MP4 file" in message
        assert page.get_attribute("#viewer .player-message a[download]", "href") == item["url"]
        screenshot(page, "gallery-player-unplayable.png")
        page.click("#viewer .player-message button")
        page.wait_for_function("document.querySelector('#viewer .player').dataset.file === 'mp4'")
        page.wait_for_function("document.querySelector('#viewer .player video').readyState >= 2", timeout=10000)
        assert page.get_attribute("#viewer .player video", "src") == listed["alternateURL"]
        assert page.is_hidden("#viewer .player-message")
