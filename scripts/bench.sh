#!/usr/bin/env bash
# Runs ocular-bench: Ocular's Swift API against the same OpenCV calls from C++ and from Python cv2,
# blending against the textbook's op-by-op sequences (C++, cv2, Pillow),
# Ocular Studio end to end, `ocular batch` against a shell loop, a Python pool and Ray, and the studio page in
# headless Chromium with a 30 frames/s fake camera, then in Chromium, Firefox and WebKit side by side.
# Extra arguments go to ocular-bench (e.g. --quick).
#
# Every part writes its figures to .build/bench/run-TIME/, and scripts/bench-compare.py holds them against
# the accepted ones (Benchmarks/baseline.json): the script exits 1, naming them, when a figure got worse by
# more than its noise and again when the part that measures it runs a second time. A --quick run's figures
# are printed against the baseline but not held to it.
# `make bench-accept` makes the last run (or several: scripts/bench-compare.py --accept RUN...) the baseline.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh bench  # Chromium, FFmpeg and Playwright for the browser row; Debian's python3-opencv

venv=.venv-bench
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
# Below 5, as unpinned pip installs OpenCV 5.
if ! "$venv/bin/python" -c "import numpy, cv2, PIL" 2>/dev/null; then
    "$venv/bin/pip" install --quiet --disable-pip-version-check "opencv-contrib-python-headless<5" numpy pillow
fi

scripts/touch-dependents.sh
scripts/swift-build.sh -c release --product ocular-bench
scripts/swift-build.sh -c release --product ocular
bin="$(scripts/swift-build.sh -c release --show-bin-path)"
figures=".build/bench/run-$(date +%Y%m%d-%H%M%S)"
mkdir -p "$figures"
"$bin/ocular-bench" --python "$venv/bin/python" --figures "$figures/ocular-bench.json" "$@"
echo
# ocular batch against a shell loop, a Python pool and Ray (Ray from .venv-ray, which make eval installs).
quick=""
for argument in "$@"; do [ "$argument" = "--quick" ] && quick="--quick"; done
[ -x .venv-ray/bin/python ] || scripts/ray-tests.sh --install-only
"$venv/bin/python" Benchmarks/batch/bench_batch.py --ocular "$bin/ocular" --figures "$figures/batch.json" $quick
echo
.venv/bin/python Benchmarks/browser/bench_browser.py --ocular "$bin/ocular" --figures "$figures/browser.json"
echo
# The studio's pages in Chromium, Firefox and WebKit side by side: frames/s, delay and page CPU.
.venv/bin/python Benchmarks/browser/bench_engines.py --ocular "$bin/ocular" --figures "$figures/engines.json"
echo
ln -sfn "$(basename "$figures")" .build/bench/last
if [ -n "$quick" ]; then
    exec python3 scripts/bench-compare.py --report-only "$figures"
fi
exec scripts/bench-recheck.sh "$figures"
