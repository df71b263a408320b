#!/usr/bin/env bash
# The Ray test (deploy/ray/test_ray_batch.py): a real local Ray cluster, a worker node killed mid-batch.
# Ray comes from PyPI into a virtual environment of its own (.venv-ray, deploy/ray/requirements.txt);
# where it cannot install, the test is skipped with the reason printed, and the rest of make eval goes on.
# Needs .build/debug/ocular (make eval builds it first). --install-only makes the environment and stops.
set -euo pipefail
cd "$(dirname "$0")/.."
logs=.build/test-logs
mkdir -p "$logs"
venv=.venv-ray
if ! "$venv/bin/python" -c "import ray, cv2" 2>/dev/null; then
  python3 -m venv "$venv"
  if ! "$venv/bin/pip" install --quiet --disable-pip-version-check -r deploy/ray/requirements.txt > "$logs/ray-install.log" 2>&1; then
    echo "SKIPPED the Ray test: Ray could not be installed from PyPI here ($(tail -1 "$logs/ray-install.log"))" | tee "$logs/ray.log"
    exit 0
  fi
fi
[ "${1:-}" = "--install-only" ] && exit 0
OCULAR=.build/debug/ocular RAY_USAGE_STATS_ENABLED=0 "$venv/bin/python" -W ignore::ResourceWarning -m unittest -v deploy/ray/test_ray_batch.py 2>&1 | tee "$logs/ray.log"
