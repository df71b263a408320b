#!/usr/bin/env bash
# Runs the browser tests (Tests/browser: headless Chromium, and every page's main flow in Firefox and WebKit too):
# `test` (make test) or `eval` (make eval).
# Reports go to .build/test-logs/ as JUnit XML, which scripts/test-times.py reads.
#
# test: three runs. Most tests wait on a page (a frame shown, a click answered) with a third of the machine
#   busy, so they run two at a time (pytest-xdist). Those marked `alone` measure a time or a rate (frames
#   shown a second over a shaped link, a clip's length, the frames a page sends), or change the machine's
#   network (test_link.py's veth pair, which aborts other Chromiums' navigations): they run after the
#   others, one at a time, with nothing beside them. Between the two, every page's main flow in each engine
#   (marked `engines`): each engine's tests on one worker, so that WebKit's software compositing, which keeps a
#   core busy while a page streams, never starves a Chromium test beside it. What lies past a page's main flow
#   (marked `beyond_main_flow`) runs there in Chromium only.
# eval: the tests marked `evaluation` (long measurements, and the engine tests past the main flow in Firefox and
#   WebKit), one at a time.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-test}
python=.venv/bin/python
logs=.build/test-logs
mkdir -p "$logs"

case "$mode" in
test)
  rm -f "$logs"/browser.xml "$logs"/browser-engines.xml "$logs"/browser-alone.xml
  "$python" -m pytest Tests/browser -q -n 2 -m "not evaluation and not alone and not engines" --junitxml="$logs/browser.xml"
  "$python" -m pytest Tests/browser -q -n 2 --dist loadgroup -m "engines and not evaluation and not alone" --junitxml="$logs/browser-engines.xml"
  "$python" -m pytest Tests/browser -q -m "alone and not evaluation" --junitxml="$logs/browser-alone.xml"
  ;;
eval)
  "$python" -m pytest Tests/browser -q -m evaluation --junitxml="$logs/browser-eval.xml"
  ;;
*)
  echo "usage: $0 test|eval" >&2
  exit 2
  ;;
esac
