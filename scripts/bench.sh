#!/usr/bin/env bash
# Runs ocular-bench: Ocular's Swift API against the same OpenCV calls from C++ and from Python cv2,
# and Ocular Studio end to end. Extra arguments go to ocular-bench (e.g. --quick).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh run

venv=.venv-bench
if [ ! -x "$venv/bin/python" ]; then
    python3 -m venv "$venv"
fi
# contrib for cv2.xphoto (white balance); below 5, as unpinned pip installs OpenCV 5.
if ! "$venv/bin/python" -c "import numpy, cv2; cv2.xphoto" 2>/dev/null; then
    "$venv/bin/pip" install --quiet --disable-pip-version-check "opencv-contrib-python-headless<5" numpy
fi

swift build -c release --product ocular-bench
exec "$(swift build -c release --show-bin-path)/ocular-bench" --python "$venv/bin/python" "$@"
