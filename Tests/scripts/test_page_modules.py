"""The studio's page modules read one way: read from their import statements, with no browser.

Each page (an .html file) loads one entry module; the live view is wired in one module (live.js), which
only the entries import; no module imports, through any chain, a module that imports it back; and no
module is longer than a reader holds in mind (300 lines).
"""

import re
import sys
from pathlib import Path

PUBLIC = Path(__file__).resolve().parents[2] / "Sources" / "OcularStudio" / "Public"
IMPORT = re.compile(r'^\s*import\s+(?:[^"\']*?\s+from\s+)?["\']([^"\']+)["\']', re.MULTILINE)
ENTRY = re.compile(r'<script\s+src="([^"]+\.js)"\s+type="module">')
WIRING = "live.js"
LONGEST = 300


def modules():
    return sorted(path.name for path in PUBLIC.glob("*.js"))


def imports_of(name):
    """The page modules `name` imports (the server's generated api/ modules are not files here)."""
    text = (PUBLIC / name).read_text(encoding="utf-8")
    found = []
    for target in IMPORT.findall(text):
        assert target.startswith("./"), f"{name} imports {target!r}: page modules import by relative path"
        if target.startswith("./api/"):
            continue
        found.append(target[2:])
    return found


def graph():
    return {name: imports_of(name) for name in modules()}


def entries():
    return sorted({entry for page in PUBLIC.glob("*.html") for entry in ENTRY.findall(page.read_text(encoding="utf-8"))})


def test_every_import_names_a_module_that_exists():
    for name, targets in graph().items():
        for target in targets:
            assert (PUBLIC / target).is_file(), f"{name} imports ./{target}, which is not in Public/"


def test_no_module_imports_one_that_imports_it_back():
    edges = graph()
    state = {}  # name → "open" while its imports are walked, "done" after

    def walk(name, path):
        state[name] = "open"
        for target in edges[name]:
            if state.get(target) == "open":
                cycle = path[path.index(target):] + [target]
                raise AssertionError("import cycle: " + " → ".join(cycle))
            if target not in state:
                walk(target, path + [target])
        state[name] = "done"

    for name in edges:
        if name not in state:
            walk(name, [name])


def test_the_live_view_is_wired_in_one_module_that_only_pages_import():
    edges = graph()
    pages = set(entries())
    assert {"bean-counter.js", "filters.js", "light-work.js", "many-masks.js", "samples.js"} <= pages
    importers = sorted(name for name, targets in edges.items() if WIRING in targets)
    assert importers, "no page starts the live view"
    assert set(importers) <= pages, f"only pages import {WIRING}; these parts do too: {sorted(set(importers) - pages)}"
    # Everything the wiring reaches is a part: it never reaches a page, or itself.
    reached, queue = set(), list(edges[WIRING])
    while queue:
        name = queue.pop()
        if name in reached:
            continue
        reached.add(name)
        queue.extend(edges[name])
    assert WIRING not in reached and not (reached & pages), sorted(reached & (pages | {WIRING}))
    assert {"answers.js", "camera.js", "connection.js", "pacing.js", "sources.js", "view.js"} <= reached


def test_no_module_is_longer_than_a_reader_holds_in_mind():
    lengths = {name: len((PUBLIC / name).read_text(encoding="utf-8").splitlines()) for name in modules()}
    assert {name: lines for name, lines in lengths.items() if lines > LONGEST} == {}


def test_the_checks_see_a_cycle_and_a_part_that_imports_the_wiring(tmp_path, monkeypatch):
    """The checks above fail where they should: on a made-up page of three modules."""
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\n')
    (tmp_path / "b.js").write_text('import { live } from "./live.js";\n')
    (tmp_path / "live.js").write_text('import { a } from "./a.js";\n')
    (tmp_path / "page.html").write_text('<script src="entry.js" type="module"></script>')
    (tmp_path / "entry.js").write_text('import { startLive } from "./live.js";\n')
    monkeypatch.setattr(sys.modules[__name__], "PUBLIC", tmp_path)
    try:
        test_no_module_imports_one_that_imports_it_back()
    except AssertionError as error:
        assert "a.js → b.js → live.js → a.js" in str(error) or "live.js → a.js → b.js → live.js" in str(error)
    else:
        raise AssertionError("the cycle a → b → live → a was not seen")
    edges = graph()
    assert sorted(name for name, targets in edges.items() if WIRING in targets) == ["b.js", "entry.js"]
