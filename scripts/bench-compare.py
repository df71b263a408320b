#!/usr/bin/env python3
"""Holds a `make bench` run's figures against the accepted ones in Benchmarks/baseline.json.

Each part of the bench writes its figures as JSON ({"source", "figures": [{"name", "value", "better",
"kind", "spread"?}]}): ocular-bench --figures, bench_batch.py --figures, bench_browser.py --figures.

    bench-compare.py RUN...                  print every figure against the baseline; exit 1 when one got
                                             worse by more than its noise or was not measured
    bench-compare.py --report-only RUN...    the same table, exit 0 (a --quick run's rough figures)
    bench-compare.py --accept RUN...         write the baseline from these runs (several runs of the same
                                             bench: each figure's median, and how far apart they lay as its noise)
    bench-compare.py --plan RUN...           the parts of the bench that measure the figures this run found
                                             worse, one a line, to measure them again (scripts/bench.sh runs them)
    bench-compare.py RUN... --recheck DIR    as the first form, but a figure is worse only if it is worse again
                                             in DIR, where those parts measured it a second time

RUN: a figure file, or a folder of them (scripts/bench.sh keeps each run's in .build/bench/run-TIME/). For
--accept each RUN is one whole run; otherwise they all make one run.

A figure's noise is the largest of: the least its kind allows (NOISE_FLOORS, measured), how far the runs
it was accepted from lay apart, and this run's own spread (half the interquartile range of its rounds
over its value).

Why a second measurement: with each figure's tolerance near the 90th-95th percentile of how far runs of the
same code lie apart, some of 275 figures cross it in most runs of unchanged code (the third of three full runs
held to the first two named 4). A regression the code made is there again when its part is run again; a
stray round is not.
"""
import argparse
import json
import math
import statistics
import sys
from datetime import datetime, timezone
from pathlib import Path

REPOSITORY = Path(__file__).resolve().parents[1]
BASELINE = REPOSITORY / "Benchmarks" / "baseline.json"

# The least relative change each kind of figure is allowed, so that less is never called a regression:
# about the 90th percentile of how far each kind's figures lay apart in two full runs of the same bench
# on this machine (2 cores, 2026-11-29; Benchmarks/README.md, "Regressions are loud"). A figure's own two runs
# set its noise where they lay further apart.
NOISE_FLOORS = {
    # Swift and C++ in one process, alternating rounds: 67 figures, median 1.3 % apart, 90th percentile
    # 13.5 % (white balance at 720p 21 %, the exclusion blend 56 %).
    "alternated": 0.15,
    # Whole programs in alternated runs (ocular process against the Python loop, ocular batch against a
    # multiprocessing pool): 7 figures, all within 7.7 %.
    "runs": 0.12,
    # A rate or a time on this machine alone (studio frames/s, ms a frame, the page's round trip): 46
    # figures, 90th percentile 9.3 %, the page's 3-4 ms round trips up to 18 %.
    "absolute": 0.20,
    # Against Python cv2 or Pillow, run once in a subprocess: 38 figures, 90th percentile 20 %, up to
    # 89 % (tracking against the second Python column).
    "separate": 0.35,
}


class FigureError(Exception):
    pass


def figure_files(paths):
    """The files named, and the .json files in the folders named."""
    files = []
    for path in map(Path, paths):
        files += sorted(path.glob("*.json")) if path.is_dir() else [path]
    return files


def load_run(paths):
    """Every figure of the given files (or folders of them) by name; a name twice, or a figure without its
    fields, is an error."""
    figures = {}
    for path in figure_files(paths):
        try:
            document = json.loads(Path(path).read_text())
        except (OSError, ValueError) as error:
            raise FigureError(f"{path}: cannot read the figures: {error}")
        for figure in document.get("figures", []):
            missing = [field for field in ("name", "value", "better", "kind") if field not in figure]
            if missing:
                raise FigureError(f"{path}: a figure without {', '.join(missing)}: {figure}")
            if figure["better"] not in ("lower", "higher"):
                raise FigureError(f"{path}: {figure['name']}: better is {figure['better']!r}, not lower or higher")
            if figure["kind"] not in NOISE_FLOORS:
                raise FigureError(f"{path}: {figure['name']}: kind {figure['kind']!r} is none of {', '.join(NOISE_FLOORS)}")
            if figure["name"] in figures:
                raise FigureError(f"{path}: {figure['name']} measured twice")
            figures[figure["name"]] = figure
    return figures


def finite(value):
    return isinstance(value, (int, float)) and math.isfinite(value) and value > 0


def worsening(baseline, value):
    """How many times worse `value` is than the baseline's (below 1: better)."""
    return value / baseline["value"] if baseline["better"] == "lower" else baseline["value"] / value


def compare(baseline, run):
    """Rows (name, baseline value, value, change, noise, verdict) and whether any figure regressed or went missing."""
    rows, failed = [], False
    for name, accepted in baseline["figures"].items():
        figure = run.get(name)
        if figure is None or not finite(figure["value"]):
            rows.append((name, accepted["value"], None, None, accepted["noise"], "NOT MEASURED"))
            failed = True
            continue
        noise = max(NOISE_FLOORS[accepted["kind"]], accepted["noise"], figure.get("spread") or 0)
        factor = worsening(accepted, figure["value"])
        if factor > 1 + noise:
            verdict, failed = "WORSE", True
        elif factor < 1 / (1 + noise):
            verdict = "better"
        else:
            verdict = "same"
        rows.append((name, accepted["value"], figure["value"], factor, noise, verdict))
    for name, figure in run.items():
        if name not in baseline["figures"]:
            rows.append((name, None, figure["value"], None, None, "new"))
    return rows, failed


def accept(runs):
    """A baseline of the last run's figures, each from every run that measured it: their median, and as its
    noise how far the runs lay apart (their range over the median: a new run may stray from the median as
    far as the accepted runs strayed from each other). A run's own spread counts when it is compared."""
    figures = {}
    for name, last in runs[-1].items():
        measured = [run[name] for run in runs if name in run and finite(run[name]["value"])]
        if not measured:
            continue
        values = [figure["value"] for figure in measured]
        middle = statistics.median(values)
        apart = (max(values) - min(values)) / middle
        figures[name] = {"value": middle, "better": last["better"], "kind": last["kind"], "noise": round(apart, 4)}
    return figures


def bench_part(name):
    """The part of the bench that measures a figure, as (program, its arguments): ocular-bench with the flag
    that runs only that part, bench_browser.py with the recipe, the three engines' bench, or the batch bench."""
    if name.startswith("browser "):
        for suffix in (" frames shown/s", " round trip ms", " page CPU ms a frame"):
            if name.endswith(suffix):
                # "masks, group" and "beans, tally" are measured by --only masks and --only beans.
                return ("browser", name[len("browser "):-len(suffix)].split(",")[0])
        return ("browser", "")
    if name.startswith(("batch ", "batch/", "Ray/")):
        return ("batch", "")
    if name.startswith("engine "):
        return ("engines", "")
    flags = [("process ", "--video-only"), ("faces ", "--faces-only"), ("counting beans ", "--beans-only"),
             ("sample ", "--samples-only"), ("filter ", "--filters-only"), ("studio ", "--studio-only")]
    for prefix, flag in flags:
        if name.startswith(prefix):
            return ("ocular-bench", flag)
    if name.startswith("blend ") and name.endswith("/memory limit"):
        return ("ocular-bench", "--blend-only")
    # The first table: each op against C++ and cv2, the textbook's blends, the bean counter's detection.
    return ("ocular-bench", "--table-only")


def recheck_plan(rows):
    """Lines `program arguments` that measure again every figure found worse (not those not measured at all:
    a part that did not run fails as it is). The first table measures the blend modes too."""
    parts = {bench_part(row[0]) for row in rows if row[5] == "WORSE"}
    if ("ocular-bench", "--table-only") in parts:
        parts.discard(("ocular-bench", "--blend-only"))
    recipes = sorted({argument for program, argument in parts if program == "browser"})
    lines = sorted(f"{program} {argument}".strip() for program, argument in parts if program != "browser")
    if recipes:
        lines.append("browser " + ",".join(recipes) if "" not in recipes else "browser")
    return lines


def apply_recheck(rows, recheck):
    """The rows with each worse figure's verdict taken from its second measurement: WORSE only if worse
    again (by the same noise), else "worse once"; not measured again stays WORSE."""
    checked, failed = [], False
    for name, accepted, value, factor, noise, verdict in rows:
        if verdict == "WORSE":
            again = recheck.get(name)
            if again is not None and finite(again["value"]):
                baseline_row = {"value": accepted, "better": again["better"]}
                factor_again = worsening(baseline_row, again["value"])
                noise_again = max(noise, again.get("spread") or 0)
                if factor_again <= 1 + noise_again:
                    verdict = f"worse once, then {(factor_again - 1) * 100:+.1f}%"
                else:
                    verdict = f"WORSE, again {(factor_again - 1) * 100:+.1f}%"
            else:
                verdict = "WORSE, not measured again"
        if verdict.startswith(("WORSE", "NOT MEASURED")):
            failed = True
        checked.append((name, accepted, value, factor, noise, verdict))
    return checked, failed


def print_table(rows):
    width = max(len(row[0]) for row in rows) if rows else 10
    print(f"{'figure':<{width}} {'accepted':>10} {'now':>10} {'worse by':>9} {'noise':>6}  verdict")
    print("-" * (width + 48))
    for name, accepted, value, factor, noise, verdict in rows:
        def number(x):
            return f"{x:10.3f}" if x is not None else f"{'—':>10}"
        change = f"{(factor - 1) * 100:+8.1f}%" if factor is not None else f"{'—':>9}"
        noise_text = f"{noise * 100:5.0f}%" if noise is not None else f"{'—':>6}"
        print(f"{name:<{width}} {number(accepted)} {number(value)} {change} {noise_text}  {verdict}")


def main(arguments=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("runs", nargs="+", help="figure files or folders of one run (--accept: one or more runs, a file or folder each)")
    parser.add_argument("--baseline", default=str(BASELINE))
    parser.add_argument("--accept", action="store_true", help="write the baseline from the given runs")
    parser.add_argument("--report-only", action="store_true", help="print the table but exit 0")
    parser.add_argument("--plan", action="store_true", help="print the parts to run again for the figures found worse")
    parser.add_argument("--recheck", help="a folder of figures measured again: a figure is worse only if worse there too")
    options = parser.parse_args(arguments)
    try:
        if options.accept:
            runs = [load_run([path]) for path in options.runs]
            figures = accept(runs)
            document = {"accepted": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
                        "runs": len(runs), "figures": figures}
            Path(options.baseline).write_text(json.dumps(document, indent=1, sort_keys=True, ensure_ascii=False) + "\n")
            print(f"accepted {len(figures)} figures from {len(runs)} run(s) into {options.baseline}")
            return 0
        run = load_run(options.runs)
        recheck = load_run([options.recheck]) if options.recheck else None
        try:
            baseline = json.loads(Path(options.baseline).read_text())
        except (OSError, ValueError) as error:
            raise FigureError(f"{options.baseline}: cannot read the baseline: {error}")
    except FigureError as error:
        print(f"bench-compare: {error}", file=sys.stderr)
        return 2
    rows, failed = compare(baseline, run)
    if options.plan:
        print("\n".join(recheck_plan(rows)))
        return 0
    if recheck is not None:
        rows, failed = apply_recheck(rows, recheck)
    print(f"Against the baseline accepted {baseline.get('accepted', '?')} ({options.baseline}):")
    print_table(rows)
    worse = [row[0] for row in rows if row[5].startswith(("WORSE", "NOT MEASURED"))]
    print("")
    if options.report_only:
        print("(report only: these figures are not held against the baseline)")
        return 0
    if failed:
        print(f"REGRESSED beyond the noise: {len(worse)} figure(s): " + "; ".join(worse))
        return 1
    once = [row[0] for row in rows if row[5].startswith("worse once")]
    if once:
        print(f"worse in the first measurement but not again: {len(once)} figure(s): " + "; ".join(once))
    print(f"every one of the {len(baseline['figures'])} accepted figures within its noise")
    return 0


if __name__ == "__main__":
    sys.exit(main())
