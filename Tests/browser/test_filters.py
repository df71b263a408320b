"""The Filters page end to end: the Core Image–style filters in a palette grouped by category, added to a
chain by a click, reordered, set from their controls, taken out, on the fake camera (the astronaut pan)
with the before/after divider, and Save into the gallery."""
import json
import subprocess

from conftest import OCULAR, screenshot
from test_gallery import gallery_api
from test_samples import STRIP, move_divider, recipe, wait_for_recipe
from test_studio import stats, wait_for_frames

# The share of a strip's pixels that are sepia-toned: blue about 0.69 of red (or red at the top).
SEPIA = """([left, right]) => {
  const canvas = document.getElementById('output');
  const x = Math.round(canvas.width * left), width = Math.max(1, Math.round(canvas.width * (right - left)));
  const { data } = canvas.getContext('2d').getImageData(x, Math.round(canvas.height * 0.25), width, Math.round(canvas.height * 0.6));
  let toned = 0, n = 0;
  for (let i = 0; i < data.length; i += 4) {
    const [r, g, b] = [data[i], data[i + 1], data[i + 2]];
    if ((Math.abs(b - 0.693 * r) <= 8 && r >= g && g >= b) || r >= 250) toned += 1;
    n += 1;
  }
  return toned / n;
}"""


def chain_cards(page):
    return page.eval_on_selector_all("li.stage-card", "(cards) => cards.map((card) => card.dataset.stage)")


def test_filters_palette_chain_reorder_controls_and_save(studio, camera_page):
    page = camera_page
    page.goto(studio.url + "filters.html")
    wait_for_frames(page, 3)
    assert page.get_attribute(".nav a[aria-current=page]", "href") == "filters.html"

    # The palette holds the registry's filters, grouped by category in Core Image's order.
    listed = json.loads(subprocess.run([str(OCULAR), "stages", "--json"], check=True, capture_output=True, text=True).stdout)
    filters = [stage for stage in listed["stages"] if stage["filter"]]
    assert len(filters) == 17
    groups = page.eval_on_selector_all(".palette-group", "(groups) => groups.map((g) => [g.dataset.category, [...g.querySelectorAll('[data-add]')].map((b) => b.dataset.add)])")
    order = ["colourAdjustment", "colourEffect", "blur", "geometry", "composite", "generator"]
    assert [category for category, _ in groups] == order
    for category, names in groups:
        assert names == [stage["name"] for stage in filters if stage["category"] == category]

    # A first visit shows sepia, with the frame as sent left of the divider and sepia right of it.
    wait_for_recipe(page, ["sepiaTone"])
    assert chain_cards(page) == ["sepiaTone"] and stats(page)["split"] == 0.5
    assert page.is_disabled("[data-add=sepiaTone]")
    before, after = page.evaluate(SEPIA, [0.05, 0.4]), page.evaluate(SEPIA, [0.6, 0.95])
    assert after > 0.8 and before < after - 0.3, (before, after)
    move_divider(page, 0)
    assert page.evaluate(SEPIA, [0.05, 0.4]) > 0.8
    move_divider(page, 50)

    # A click adds a filter at the end of the chain; its card has the declared controls.
    page.click("[data-add=gaussianBlur]")
    wait_for_recipe(page, ["sepiaTone", "gaussianBlur"])
    assert chain_cards(page) == ["sepiaTone", "gaussianBlur"]
    blur = next(stage for stage in filters if stage["name"] == "gaussianBlur")
    sliders = page.eval_on_selector_all("input[type=range][data-stage=gaussianBlur]", "(inputs) => inputs.map((i) => i.dataset.parameter)")
    assert sliders == [p["name"] for p in blur["parameters"]]

    # Reordered: the blur moves above sepia.
    page.click("li[data-stage=gaussianBlur] button[title='Run earlier']")
    wait_for_recipe(page, ["gaussianBlur", "sepiaTone"])
    assert chain_cards(page) == ["gaussianBlur", "sepiaTone"]
    assert page.is_disabled("li[data-stage=gaussianBlur] button[title='Run earlier']")
    assert page.is_disabled("li[data-stage=sepiaTone] button[title='Run later']")

    # A value from its control: sepia at intensity 0 leaves the colours as they were.
    page.eval_on_selector("input[type=range][data-stage=sepiaTone][data-parameter=intensity]",
                          "(s) => { s.value = 0; s.dispatchEvent(new Event('input', { bubbles: true })); }")
    page.wait_for_function("window.ocularStudio.stats().recipe.stages.some((s) => s.stage === 'sepiaTone' && s.intensity === 0)", timeout=5000)
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    assert page.evaluate(SEPIA, [0.6, 0.95]) < 0.5

    # Taken out by its tick: the card goes and the palette offers it again.
    page.click("li[data-stage=sepiaTone] .stage-head label")
    wait_for_recipe(page, ["gaussianBlur"])
    assert chain_cards(page) == ["gaussianBlur"] and page.is_enabled("[data-add=sepiaTone]")

    # A colour chain of five (fused by the server into one pass), then Save with its recipe.
    page.click("#clear-chain")
    wait_for_recipe(page, [])
    assert page.is_visible("#chain-empty")
    five = ["colorControls", "exposureAdjust", "gammaAdjust", "hueAdjust", "vibrance"]
    for name in five:
        page.click(f"[data-add={name}]")
    wait_for_recipe(page, five)
    page.eval_on_selector("input[type=range][data-stage=hueAdjust][data-parameter=angle]",
                          "(s) => { s.value = 120; s.dispatchEvent(new Event('input', { bubbles: true })); }")
    page.wait_for_function("window.ocularStudio.stats().recipe.stages.some((s) => s.stage === 'hueAdjust' && s.angle === 120)", timeout=5000)
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    screenshot(page, "filters-chain.png")
    page.click("#save")
    page.wait_for_function("window.ocularStudio.stats().saves.length === 1", timeout=15000)
    saved = gallery_api(studio)["items"][0]
    assert [step["stage"] for step in saved["recipe"]["stages"]] == five
    assert next(step for step in saved["recipe"]["stages"] if step["stage"] == "hueAdjust")["angle"] == 120


def test_every_filter_runs_on_a_still(studio, cameraless_page):
    """Each filter, alone on the built-in still, comes back with no error."""
    page = cameraless_page
    page.goto(studio.url + "filters.html")
    wait_for_frames(page, 2)
    for name in stats(page)["filters"]:
        page.click("#clear-chain")
        wait_for_recipe(page, [])
        page.click(f"[data-add={name}]")
        wait_for_recipe(page, [name])
        assert page.is_hidden("#notice") or "Server:" not in page.inner_text("#notice"), (name, page.inner_text("#notice"))
    screenshot(page, "filters-still.png")
