"""The docs site's stage gallery (scripts/stage-gallery.py, run by `make docs`): every stage the registry
lists is on the page, opened from disk, with a before picture, its defaults and the recipe of each picture."""
import json
import subprocess
import sys

from conftest import OCULAR, REPOSITORY, launch


def test_every_registered_stage_is_in_the_gallery_with_its_pictures_and_recipes(playwright_instance, tmp_path):
    output = tmp_path / "stages"
    subprocess.run([sys.executable, str(REPOSITORY / "scripts" / "stage-gallery.py"), "--ocular", str(OCULAR),
                    "--output", str(output), "--height", "96"], check=True, capture_output=True, timeout=300)
    registered = [stage["name"] for stage in json.loads(subprocess.run([str(OCULAR), "stages", "--json"], check=True,
                                                                      capture_output=True, text=True).stdout)["stages"]]
    assert len(registered) >= 36

    browser = launch(playwright_instance)
    try:
        page = browser.new_page()
        page.goto((output / "index.html").as_uri())
        page.evaluate("document.querySelectorAll('img').forEach(image => image.loading = 'eager')")
        page.wait_for_function("[...document.images].every(image => image.complete)", timeout=20000)
        sections = page.evaluate("""() => [...document.querySelectorAll('section.stage')].map(section => ({
            name: section.dataset.stage,
            title: section.querySelector('h3').textContent,
            before: section.querySelectorAll('figure.before img').length,
            after: [...section.querySelectorAll('figure.after')].map(figure => ({
                loaded: figure.querySelector('img').naturalWidth > 0,
                recipe: figure.querySelector('pre.recipe').textContent,
            })),
            brokenImages: [...section.querySelectorAll('img')].filter(image => image.naturalWidth === 0).map(image => image.src),
        }))""")
        remote = page.evaluate("[...document.querySelectorAll('[src], link[href]')].map(e => e.src || e.href)"
                               ".filter(address => !address.startsWith('file:'))")
    finally:
        browser.close()

    assert remote == [], f"the page must open from disk, yet it loads {remote}"
    shown = {section["name"]: section for section in sections}
    missing = [name for name in registered if name not in shown]
    assert missing == [], f"registered stages missing from the gallery: {missing}"
    assert len(sections) == len(registered), "a stage appears twice"
    for name in registered:
        section = shown[name]
        assert section["brokenImages"] == [], f"{name}: pictures that do not load: {section['brokenImages']}"
        assert section["before"] == 1, f"{name}: no before picture"
        assert len(section["after"]) >= 1, f"{name}: no after picture"
        recipes = [json.loads(figure["recipe"]) for figure in section["after"]]
        assert all(recipe["stages"][0]["stage"] == name for recipe in recipes), f"{name}: a recipe of another stage: {recipes}"
        # The first picture is the defaults: the recipe sets nothing but, for stages that need one, the picture to add.
        assert set(recipes[0]["stages"][0]) <= {"stage", "source", "image"}, f"{name}: the first picture is not the defaults"
    # Most stages show variations beside their defaults.
    assert sum(len(section["after"]) >= 2 for section in sections) >= len(sections) - 5
