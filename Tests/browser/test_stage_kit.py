"""A stage added in the stage kit shows up in the studio with no page code of its own: posterize's card,
its slider built from the declaration (2 to 64, default 4), and frames posterized at the level set."""
from conftest import screenshot
from test_studio import open_studio, stats, wait_for_frames

# The share of sampled channel values within 24 of 0 or 255: two levels per channel, as JPEG brings them back.
NEAR_TWO_LEVELS = """() => {
  const canvas = document.getElementById('output');
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let near = 0, n = 0;
  for (let i = 0; i < data.length; i += 28) {
    for (const value of [data[i], data[i + 1], data[i + 2]]) { n += 1; if (value <= 24 || value >= 231) near += 1; }
  }
  return near / n;
}"""


def test_posterize_is_listed_and_run_from_its_declaration(studio, camera_page):
    page = camera_page
    open_studio(page, studio, 3)
    slider = "input[type=range][data-stage=posterize][data-parameter=levels]"
    assert page.is_visible("[data-stage-toggle=posterize]")
    assert (page.get_attribute(slider, "min"), page.get_attribute(slider, "max"), page.input_value(slider)) == ("2", "64", "4")
    before = page.evaluate(NEAR_TWO_LEVELS)

    page.check("[data-stage-toggle=posterize]")
    page.eval_on_selector(slider, "(input) => { input.value = 2; input.dispatchEvent(new Event('input', { bubbles: true })); }")
    page.wait_for_function(
        "window.ocularStudio.stats().recipe.stages.some((step) => step.stage === 'posterize' && step.levels == 2)", timeout=15000)
    wait_for_frames(page, stats(page)["framesReceived"] + 3)
    after = page.evaluate(NEAR_TWO_LEVELS)
    assert after > 0.9 and after > before + 0.3, (before, after)
    page.locator("[data-stage=posterize]").first.scroll_into_view_if_needed()
    screenshot(page, "stage-kit-posterize.png")
