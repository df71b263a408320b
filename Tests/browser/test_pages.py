"""Studio pages as plug-ins: Light Work lists whatever the recipe's stages find (faces, blobs), each in
its colour, and a stage registered only by the tests reaches the page, its findings listed by the
generic renderer, with no change to the session or the page."""
import time

import pytest

from conftest import STUDIO_FIXTURE, Studio, screenshot
from test_studio import stats, switch_on, wait_for_frames

# Each listed finding's group, name and marker colour, as the page shows them.
LISTED = """() => [...document.querySelectorAll('#findings .finding-group')].map((group) => [
  group.dataset.group,
  [...group.querySelectorAll('li:not(.hint)')].map((row) => [row.querySelector('b').textContent, getComputedStyle(row).borderLeftColor]),
])"""


def choose_still(page, name):
    page.select_option("#source", name)
    page.wait_for_function(f"window.ocularStudio.stats().source === 'still' && document.getElementById('source').value === '{name}'",
                           timeout=10000)


def test_light_work_lists_the_blobs_and_faces_its_stages_find(studio, cameraless_page):
    page = cameraless_page
    page.goto(studio.url)
    wait_for_frames(page, 3)
    assert stats(page)["page"] == "lightWork"
    # Light Work's stream has the actions of every page, not Many Masks' or Bean Counter's.
    assert stats(page)["actions"] == ["saveFrame", "focusTap"]
    choose_still(page, "beans")
    assert page.is_hidden("#findings")

    switch_on(page, "blobs")
    page.wait_for_function("(window.ocularStudio.stats().findings.blobs || []).length === 7", timeout=20000)
    assert page.is_visible("#findings")
    listed = dict(page.evaluate(LISTED))
    # The seven objects of the scene, boxed by the stage in green and listed in green.
    assert [name for name, _ in listed["blobs"]] == ["Object"] * 7, listed
    assert {colour for _, colour in listed["blobs"]} == {"rgb(0, 255, 0)"}, listed
    assert {blob["colour"] for blob in stats(page)["findings"]["blobs"]} == {"#00ff00"}, "the colour is the server's"
    rows = page.eval_on_selector_all("#blobs-list li", "(rows) => rows.map((row) => row.textContent)")
    assert len(rows) == 7 and all("×" in row and " at (" in row for row in rows), rows

    # A second finding stage: both kinds are listed, each under its own heading.
    switch_on(page, "faces")
    page.wait_for_function("'faces' in window.ocularStudio.stats().findings && 'blobs' in window.ocularStudio.stats().findings",
                           timeout=10000)
    headings = page.eval_on_selector_all("#findings h2", "(headings) => headings.map((heading) => heading.textContent)")
    assert sorted(headings) == ["Faces in the frame", "Objects in the frame"], headings
    assert page.is_visible("#faces-list") and page.is_visible("#blobs-list")
    page.locator("#findings").scroll_into_view_if_needed()
    screenshot(page, "light-work-blobs.png")

    # Over the astronaut, her face is listed in the faces stage's yellow.
    choose_still(page, "astronaut")
    page.wait_for_function("(window.ocularStudio.stats().findings.faces || []).some((face) => face.species === 'human')",
                           timeout=20000)
    faces = dict(page.evaluate(LISTED))["faces"]
    assert ["Human", "rgb(255, 255, 0)"] in faces, faces

    # Both off: the findings go.
    page.uncheck("input[data-stage-toggle=faces]")
    page.uncheck("input[data-stage-toggle=blobs]")
    page.wait_for_function("window.ocularStudio.stats().recipe.stages.length === 0", timeout=5000)
    assert page.is_hidden("#findings")


def test_a_stage_registered_only_in_a_test_reaches_the_page(studio_with_test_stages, cameraless_page):
    page = cameraless_page
    page.goto(studio_with_test_stages.url)
    wait_for_frames(page, 3)
    # Its card is built from its declaration in the hello, like every stage's.
    assert page.inner_text("li.stage-card[data-stage=brightestQuadrant] label") == "Brightest quadrant"
    choose_still(page, "coffee")
    switch_on(page, "brightestQuadrant")
    page.wait_for_function("(window.ocularStudio.stats().findings.quadrants || []).length === 1", timeout=10000)
    quadrant = stats(page)["findings"]["quadrants"][0]
    width, height = page.evaluate("[document.getElementById('output').width, document.getElementById('output').height]")
    assert quadrant["bounds"][2:] == [width // 2, height // 2], quadrant
    assert quadrant["name"] in ("top left", "top right", "bottom left", "bottom right"), quadrant
    # No renderer knows "quadrants": the generic one lists it by name, with its box and its mean.
    assert page.inner_text("#findings h2") == "Quadrants in the frame"
    row = page.inner_text("#quadrants-list li")
    assert row.startswith(quadrant["name"][0].upper() + quadrant["name"][1:]), row
    assert f"{width // 2}×{height // 2} at (" in row and "mean " in row, row
    # Looked up and read in one script: the list is rebuilt with every frame's findings, and eval_on_selector
    # finds the row and reads it in two steps, between which a new frame may replace it.
    colour = page.evaluate("() => getComputedStyle(document.querySelector('#quadrants-list li')).borderLeftColor")
    assert colour.startswith("rgb(") and colour != "rgb(0, 0, 0)", colour
    # The stage draws nothing: the page draws its box on the frame, in the colour it lists it in.
    x, y, w, _ = quadrant["bounds"]
    page.wait_for_function(f"""() => {{
      const pixel = document.getElementById('output').getContext('2d').getImageData({x + w // 2}, {y + 1}, 1, 1).data;
      return `rgb(${{pixel[0]}}, ${{pixel[1]}}, ${{pixel[2]}})` === '{colour}';
    }}""", timeout=5000)
    page.locator("#findings").scroll_into_view_if_needed()
    screenshot(page, "generic-findings.png")

    # Marked by the stage in a colour of the server's choosing (magenta, which no page knows): the
    # finding carries it, the page lists it in it and draws no box of its own.
    page.check("input[data-stage=brightestQuadrant][data-parameter=marked]")
    page.wait_for_function("(window.ocularStudio.stats().findings.quadrants || [])[0]?.colour === '#ff00ff'", timeout=10000)
    page.wait_for_function("""() => {
      const row = document.querySelector('#quadrants-list li');
      return row && getComputedStyle(row).borderLeftColor === 'rgb(255, 0, 255)';
    }""", timeout=5000)
    assert "colour" not in page.inner_text("#quadrants-list li")


@pytest.mark.alone
def test_the_page_sends_at_the_rate_the_studio_sets(tmp_path, cameraless_page):
    """The frame cap is the server's, from its hello (link.framesPerSecond): the page keeps no copy of it.
    A still goes at the cap (it has no camera rate): 30 frames/s by default, 8 here. Alone: a rate."""
    server = Studio(tmp_path / "gallery", executable=STUDIO_FIXTURE, arguments=["--frames-per-second", "8"])
    try:
        page = cameraless_page
        page.goto(server.url)
        wait_for_frames(page, 3)
        first, start = stats(page)["framesSent"], time.monotonic()
        page.wait_for_timeout(3000)
        rate = (stats(page)["framesSent"] - first) / (time.monotonic() - start)
        assert 6 <= rate <= 8.5, rate
        # The camera switch's order is the server's too.
        assert "static → front → back → static" in page.get_attribute("#switch-camera", "title")
    finally:
        server.stop()


def test_a_former_address_opens_its_page_under_the_features_name(studio, cameraless_page):
    """Bookmarks and home-screen icons made before the pages' files took their features' names still open
    them: the browser follows the studio's 301 to the page's file now, the query kept."""
    page = cameraless_page
    for former, now, name, title in [("masks.html?source=chelsea", "many-masks.html?source=chelsea", "manyMasks", "Many Masks"),
                                     ("beans.html", "bean-counter.html", "beanCounter", "Bean Counter"),
                                     ("index.html", "", "lightWork", "Light Work")]:
        page.goto(studio.url + former)
        assert page.url == studio.url + now, (former, page.url)
        page.wait_for_function(f"window.ocularStudio?.stats().page === '{name}'", timeout=10000)
        assert page.locator(".nav [aria-current=page]").inner_text() == title, former
        if "source=" in former:
            page.wait_for_function("document.getElementById('source').value === 'chelsea'", timeout=10000)
