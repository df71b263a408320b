#!/usr/bin/env python3
"""The time table printed at the end of `make test` and `make eval`: each Swift suite's and each browser
test module's time, slowest first, so that the next slow test is seen the day it lands.

    scripts/test-times.py LOG_OR_JUNIT_XML...

Swift Testing runs a process's suites at once, so a suite's time is from the run's start to its end, waits
on the cores included: a suite that ends well after the others is the one holding the run up. A browser test
module's time is the sum of its tests' (two run at a time, but for those marked `alone`)."""
import re
import sys
import xml.etree.ElementTree as ElementTree
from pathlib import Path

SUITE = re.compile(r'^\S+ Suite "(?P<name>.*)" (?:passed|failed) after (?P<seconds>[0-9.]+) seconds')
RUN = re.compile(r'^\S+ Test run with (?P<tests>\d+) tests? .*(?:passed|failed) after (?P<seconds>[0-9.]+) seconds')
SHOWN = 12


def swift_log(path):
    suites, total = [], None
    for line in path.read_text(errors="replace").splitlines():
        if match := SUITE.match(line):
            suites.append((float(match["seconds"]), match["name"]))
        elif match := RUN.match(line):
            total = (float(match["seconds"]), int(match["tests"]))
    return suites, total


def junit(path):
    """Each module's time (the sum of its tests'), the number of tests and the run's wall time."""
    root = ElementTree.parse(path).getroot()
    modules = {}
    for case in root.iter("testcase"):
        module = case.get("classname", "?").split(".")[-1]
        seconds, count = modules.get(module, (0.0, 0))
        modules[module] = (seconds + float(case.get("time", 0)), count + 1)
    suite = root if root.tag == "testsuite" else root.find("testsuite")
    wall = float(suite.get("time", 0)) if suite is not None else None
    rows = [(seconds, f"{module} ({count})") for module, (seconds, count) in modules.items()]
    return rows, sum(count for _, count in modules.values()), wall


def table(title, rows, total=None):
    print(f"\n{title}" + (f": {total}" if total else ""))
    rows = sorted(rows, reverse=True)
    for seconds, name in rows[:SHOWN]:
        print(f"  {seconds:7.1f} s  {name}")
    if len(rows) > SHOWN:
        print(f"  … and {len(rows) - SHOWN} more under {rows[SHOWN][0]:.1f} s")


def main(paths):
    for path in map(Path, paths):
        if not path.exists():
            continue
        if path.suffix == ".xml":
            rows, tests, wall = junit(path)
            table(f"Browser tests ({path.name}), slowest modules (their tests' times added up)", rows,
                  f"{tests} tests in {wall:.0f} s" if wall is not None else None)
        else:
            suites, total = swift_log(path)
            summary = f"{total[1]} tests in {total[0]:.0f} s" if total else "did not finish"
            table(f"Swift tests ({path.name}), suites by when they ended", suites, summary)


if __name__ == "__main__":
    main(sys.argv[1:])
