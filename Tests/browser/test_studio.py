"""End to end: Ocular Studio in a real browser, frames from a fake camera through the server and back."""
from conftest import screenshot

# Pixel statistics of the shown (processed) frame, read back from the output canvas.
CANVAS_STATS = """() => {
  const canvas = document.getElementById('output');
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let sums = [0, 0, 0], maxChannelGap = 0, colourful = 0, n = 0, sumSquares = 0;
  for (let i = 0; i < data.length; i += 16) {           // every 4th pixel
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    sums[0] += r; sums[1] += g; sums[2] += b; n += 1;
    sumSquares += g * g;
    const gap = Math.max(Math.abs(r - g), Math.abs(g - b), Math.abs(r - b));
    maxChannelGap = Math.max(maxChannelGap, gap);
    if (gap > 30) colourful += 1;
  }
  const mean = sums.map((s) => s / n);
  return { width: canvas.width, height: canvas.height, mean, maxChannelGap,
           colourfulShare: colourful / n, greenStd: Math.sqrt(sumSquares / n - mean[1] * mean[1]) };
}"""


def stats(page):
    return page.evaluate("window.ocularStudio.stats()")


def wait_for_frames(page, more_than, timeout=20000):
    page.wait_for_function(f"window.ocularStudio.stats().framesReceived > {more_than}", timeout=timeout)


def test_camera_frames_come_back_processed_and_gray_is_gray(studio, camera_page):
    page = camera_page
    page.goto(studio.url)
    wait_for_frames(page, 10)
    assert stats(page)["source"] == "camera"
    assert page.inner_text("#connection") == "Live"
    page.wait_for_function("Number(document.getElementById('fps').textContent) > 0", timeout=5000)
    colour = page.evaluate(CANVAS_STATS)
    assert (colour["width"], colour["height"]) == (640, 480)
    assert colour["colourfulShare"] > 0.05, f"the astronaut's suit and flag should be in colour: {colour}"

    page.click("button[data-effect=gray]")
    page.wait_for_function("window.ocularStudio.stats().effect === 'gray'")
    settled = stats(page)["framesReceived"]
    wait_for_frames(page, settled + 5)
    gray = page.evaluate(CANVAS_STATS)
    assert gray["maxChannelGap"] <= 1, f"a gray frame has equal channels: {gray}"
    assert gray["greenStd"] > 20, f"and is still a picture, not a flat fill: {gray}"
    assert page.get_attribute("button[data-effect=gray]", "aria-checked") == "true"
    screenshot(page, "studio-camera-gray.png")

    frames_per_second = float(page.inner_text("#fps"))
    latency = float(page.inner_text("#latency"))
    assert frames_per_second >= 5, "the fake camera runs at 10 frames/s and every frame should come back"
    assert latency < 500


def test_without_a_camera_the_built_in_still_streams(studio, cameraless_page):
    page = cameraless_page
    page.goto(studio.url)
    wait_for_frames(page, 10)
    assert stats(page)["source"] == "still"
    assert "showing a built-in still image" in page.inner_text("#notice")
    shown = page.evaluate(CANVAS_STATS)
    assert (shown["width"], shown["height"]) == (512, 512)
    assert shown["colourfulShare"] > 0.05
    screenshot(page, "studio-still.png")


def test_tint_animates_every_two_seconds(studio, cameraless_page):
    page = cameraless_page
    page.goto(studio.url)
    wait_for_frames(page, 3)
    page.click("button[data-effect=tint]")
    page.wait_for_function("window.ocularStudio.stats().effect === 'tint'")
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    first = page.evaluate(CANVAS_STATS)["mean"]
    page.wait_for_timeout(2500)
    second = page.evaluate(CANVAS_STATS)["mean"]
    assert max(abs(a - b) for a, b in zip(first, second)) > 3, f"the tint should change: {first} → {second}"
    screenshot(page, "studio-tint.png")


def test_an_unreachable_server_is_reported(studio, cameraless_page):
    page = cameraless_page
    page.goto(studio.url)
    wait_for_frames(page, 3)
    studio.stop()
    page.wait_for_function("document.getElementById('connection').dataset.state === 'offline'", timeout=10000)
    assert "Server unreachable" in page.inner_text("#connection")
    assert "ocular studio" in page.inner_text("#notice")
    screenshot(page, "studio-offline.png")
