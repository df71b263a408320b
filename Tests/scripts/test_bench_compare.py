"""scripts/bench-compare.py: make bench's regression check against Benchmarks/baseline.json."""
import importlib.util
import json
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parents[2] / "scripts" / "bench-compare.py"
spec = importlib.util.spec_from_file_location("bench_compare", SCRIPT)
bench_compare = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bench_compare)


def write_run(folder, name, figures):
    path = folder / name
    path.write_text(json.dumps({"source": "test", "figures": figures}))
    return path


def figure(name, value, better="lower", kind="alternated", spread=None):
    row = {"name": name, "value": value, "better": better, "kind": kind}
    if spread is not None:
        row["spread"] = spread
    return row


@pytest.fixture
def baseline(tmp_path):
    """Accepted from two runs: gray 1.00 and 1.04 (4 % apart: under the 15 % floor); video 1.40 and 1.20 (15 % apart, over the 12 % floor)."""
    first = write_run(tmp_path, "first.json", [figure("gray Swift/C++", 1.00), figure("video Ocular/Python", 1.40, "higher", "runs")])
    second = write_run(tmp_path, "second.json", [figure("gray Swift/C++", 1.04), figure("video Ocular/Python", 1.20, "higher", "runs")])
    path = tmp_path / "baseline.json"
    assert bench_compare.main(["--accept", "--baseline", str(path), str(first), str(second)]) == 0
    return path


def test_accept_takes_the_median_and_how_far_the_runs_lie_apart(baseline):
    figures = json.loads(baseline.read_text())["figures"]
    assert figures["gray Swift/C++"]["value"] == pytest.approx(1.02)
    assert figures["gray Swift/C++"]["noise"] == pytest.approx(0.04 / 1.02, abs=1e-4)
    assert figures["video Ocular/Python"]["value"] == pytest.approx(1.30)
    assert figures["video Ocular/Python"]["noise"] == pytest.approx(0.20 / 1.30, abs=1e-4)
    assert figures["video Ocular/Python"]["better"] == "higher"


def test_within_the_noise_passes(tmp_path, baseline, capsys):
    # gray 13 % worse, under the alternated floor (15 %); video 15 % lower, under its two runs' 15.4 % apart.
    run = write_run(tmp_path, "run.json", [figure("gray Swift/C++", 1.02 * 1.13), figure("video Ocular/Python", 1.30 / 1.15, "higher", "runs")])
    assert bench_compare.main(["--baseline", str(baseline), str(run)]) == 0
    assert "within its noise" in capsys.readouterr().out


def test_a_figure_worse_than_its_noise_fails_and_is_named(tmp_path, baseline, capsys):
    run = write_run(tmp_path, "run.json", [figure("gray Swift/C++", 1.02 * 1.17), figure("video Ocular/Python", 1.30, "higher", "runs")])
    assert bench_compare.main(["--baseline", str(baseline), str(run)]) == 1
    out = capsys.readouterr().out
    assert "REGRESSED beyond the noise: 1 figure(s): gray Swift/C++" in out


def test_a_higher_is_better_figure_fails_when_it_falls(tmp_path, baseline, capsys):
    run = write_run(tmp_path, "run.json", [figure("gray Swift/C++", 1.02), figure("video Ocular/Python", 1.30 / 1.2, "higher", "runs")])  # 20 % > 15.4 %
    assert bench_compare.main(["--baseline", str(baseline), str(run)]) == 1
    assert "figure(s): video Ocular/Python" in capsys.readouterr().out
    # Rising is better, however far.
    run = write_run(tmp_path, "run.json", [figure("gray Swift/C++", 1.02), figure("video Ocular/Python", 2.6, "higher", "runs")])
    assert bench_compare.main(["--baseline", str(baseline), str(run)]) == 0


def test_the_runs_own_spread_widens_the_noise(tmp_path, baseline):
    # 18 % worse, but this run's rounds strayed 20 % from its value.
    run = write_run(tmp_path, "run.json", [figure("gray Swift/C++", 1.02 * 1.18, spread=0.20), figure("video Ocular/Python", 1.30, "higher", "runs")])
    assert bench_compare.main(["--baseline", str(baseline), str(run)]) == 0


def test_a_figure_not_measured_fails_and_a_new_one_does_not(tmp_path, baseline, capsys):
    run = write_run(tmp_path, "run.json", [figure("gray Swift/C++", 1.02), figure("tint Swift/C++", 3.0)])
    assert bench_compare.main(["--baseline", str(baseline), str(run)]) == 1
    out = capsys.readouterr().out
    assert "figure(s): video Ocular/Python" in out
    assert "tint Swift/C++" in out and "new" in out


def test_report_only_prints_but_passes(tmp_path, baseline, capsys):
    run = write_run(tmp_path, "run.json", [figure("gray Swift/C++", 9.0)])
    assert bench_compare.main(["--report-only", "--baseline", str(baseline), str(run)]) == 0
    assert "WORSE" in capsys.readouterr().out


def test_a_folder_is_one_run_of_its_files(tmp_path, baseline):
    folder = tmp_path / "run"
    folder.mkdir()
    write_run(folder, "a.json", [figure("gray Swift/C++", 1.02)])
    write_run(folder, "b.json", [figure("video Ocular/Python", 1.30, "higher", "runs")])
    assert bench_compare.main(["--baseline", str(baseline), str(folder)]) == 0


@pytest.mark.parametrize("content, message", [
    ("not json", "cannot read the figures"),
    (json.dumps({"figures": [{"name": "x", "value": 1}]}), "a figure without better, kind"),
    (json.dumps({"figures": [figure("x", 1, better="faster")]}), "better is 'faster'"),
    (json.dumps({"figures": [figure("x", 1, kind="guess")]}), "kind 'guess' is none of"),
    (json.dumps({"figures": [figure("x", 1), figure("x", 2)]}), "x measured twice"),
])
def test_bad_figure_files_are_named_with_why(tmp_path, baseline, capsys, content, message):
    path = tmp_path / "bad.json"
    path.write_text(content)
    assert bench_compare.main(["--baseline", str(baseline), str(path)]) == 2
    error = capsys.readouterr().err
    assert str(path) in error and message in error


def test_the_committed_baseline_reads_and_names_known_kinds():
    document = json.loads((SCRIPT.parents[1] / "Benchmarks" / "baseline.json").read_text())
    assert len(document["figures"]) > 100
    for name, accepted in document["figures"].items():
        assert accepted["kind"] in bench_compare.NOISE_FLOORS, name
        assert accepted["better"] in ("lower", "higher"), name
        assert accepted["value"] > 0 and 0 <= accepted["noise"] < 1, name


def test_a_figure_worse_once_but_not_again_passes_and_worse_again_fails(tmp_path, baseline, capsys):
    run = write_run(tmp_path, "run.json", [figure("gray Swift/C++", 1.02 * 1.30), figure("video Ocular/Python", 1.30, "higher", "runs")])
    again = tmp_path / "again"
    again.mkdir()
    write_run(again, "ocular-bench.json", [figure("gray Swift/C++", 1.02 * 1.05)])
    assert bench_compare.main(["--baseline", str(baseline), str(run), "--recheck", str(again)]) == 0
    out = capsys.readouterr().out
    assert "worse once, then +5.0%" in out and "not again: 1 figure(s): gray Swift/C++" in out
    write_run(again, "ocular-bench.json", [figure("gray Swift/C++", 1.02 * 1.25)])
    assert bench_compare.main(["--baseline", str(baseline), str(run), "--recheck", str(again)]) == 1
    out = capsys.readouterr().out
    assert "WORSE, again +25.0%" in out and "figure(s): gray Swift/C++" in out


def test_a_figure_not_measured_again_stays_worse(tmp_path, baseline, capsys):
    run = write_run(tmp_path, "run.json", [figure("gray Swift/C++", 1.02 * 1.30), figure("video Ocular/Python", 1.30, "higher", "runs")])
    again = tmp_path / "again"
    again.mkdir()
    write_run(again, "other.json", [figure("video Ocular/Python", 1.30, "higher", "runs")])
    assert bench_compare.main(["--baseline", str(baseline), str(run), "--recheck", str(again)]) == 1
    assert "WORSE, not measured again" in capsys.readouterr().out


def test_the_plan_names_the_part_that_measures_each_worse_figure(tmp_path, capsys):
    names = ["gray@1280x720 Swift/C++", "process astronaut_pan ×10 480x360 Ocular/Python frames/s", "blend soft-light/memory limit",
             "browser gray page CPU ms a frame", "browser masks, group round trip ms", "batch/Python pool files/s",
             "studio none frames/s", "faces group: default, still searched whole ms a frame", "engine webkit lightWork delay ms",
             "browser none frames shown/s"]
    accepted = {name: {"value": 1.0, "better": "lower", "kind": "absolute", "noise": 0.0} for name in names}
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps({"figures": accepted}))
    run = write_run(tmp_path, "run.json", [figure(name, 2.0, kind="absolute") for name in names[:-1]] + [figure(names[-1], 1.0, kind="absolute")])
    assert bench_compare.main(["--plan", "--baseline", str(path), str(run)]) == 0
    assert capsys.readouterr().out.splitlines() == [
        "batch", "engines", "ocular-bench --faces-only", "ocular-bench --studio-only", "ocular-bench --table-only", "ocular-bench --video-only",
        "browser gray,masks"]  # the first table measures the blend modes too; none was not worse


def test_the_blend_modes_alone_when_the_first_table_is_not_run_again(tmp_path, capsys):
    accepted = {"blend soft-light/memory limit": {"value": 1.0, "better": "lower", "kind": "alternated", "noise": 0.0}}
    path = tmp_path / "baseline.json"
    path.write_text(json.dumps({"figures": accepted}))
    run = write_run(tmp_path, "run.json", [figure("blend soft-light/memory limit", 2.0)])
    assert bench_compare.main(["--plan", "--baseline", str(path), str(run)]) == 0
    assert capsys.readouterr().out.splitlines() == ["ocular-bench --blend-only"]
