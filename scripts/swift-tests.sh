#!/usr/bin/env bash
# Runs the Swift tests: `test`, or its two parts `library` and `studio` (make test runs them apart: the studio's
# beside the client package's build, as neither keeps the other waiting), or `eval` (make eval). Logs go to
# .build/test-logs/. `studio --quiet` writes its output to the log alone, and prints its result when it ends.
#
# test: two processes, one after the other. Swift Testing starts every test of a process at once on the
#   cooperative threads, one a core; the library's and the CLI's tests run pictures through OpenCV on them
#   for seconds at a time, while the studio's in-process tests need a thread within the WebSocket ping's
#   30 s to answer it. In one process a queue of CPU-bound tests held both threads for minutes and a studio
#   test failed with "I/O on closed channel". So the studio's tests (OcularStudioTests) have a process of
#   their own, where they run one at a time (studio(), below), so none waits on another's CPU. The sweeps (the
#   OcularEvaluationTests target), the fuzz tests and the kill loop (EVALUATIONS) are make eval's, in a process
#   of their own too: they were 44 % of the library's test time (269 of 611 s one
#   at a time), and CI runs them whole right after make test.
# eval: OCULAR_EVAL=1, every case of the evaluations (suites named …Evaluation), of the fuzz tests and of the
#   kill loop, with their tables printed: the figures the articles quote.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-test}
swift=${SWIFT:-swift}
logs=.build/test-logs
mkdir -p "$logs"

# The suites make eval runs and make test does not: the OcularEvaluationTests target, and by their type names the
# fuzz tests, the kill loop and the filters' fusion evaluation (the studio's own fuzz tests, in-process and quick,
# stay in make test's studio process).
EVALUATIONS='OcularEvaluationTests|Evaluation/|FuzzTests/|GalleryKillTests/'

run() {  # run LOG ARGUMENTS...: swift test, its output shown and kept
  local log=$1
  shift
  "$swift" test --skip-build "$@" 2>&1 | tee "$logs/$log"
}

library() {
  rm -f "$logs"/swift-library.log
  run swift-library.log --skip OcularStudioTests --skip "$EVALUATIONS"
}

# The studio's tests one at a time (--no-parallel): run all at once, the ones that process big pictures (a
# 4000×3000 frame under a radius-100 blur, every damaged picture, the classifier's training) held both cooperative
# threads long enough that another test's client sent its request head after the studio's 10 s guard had closed
# its connection ("I/O on closed channel": 3 runs of 3 on an idle machine; that suite alone passed 4 of 4). One at
# a time they take about 60 s, beside the client package's build.
studio() {
  local arguments=(--no-parallel --filter OcularStudioTests)
  rm -f "$logs"/swift-studio.log
  if [ "${1:-}" = --quiet ]; then
    local status=0
    "$swift" test --skip-build "${arguments[@]}" >"$logs/swift-studio.log" 2>&1 || status=$?
    # Its failures, else its last word.
    grep -E "^✘|error:" "$logs/swift-studio.log" || true
    grep -E "Test run with" "$logs/swift-studio.log" | sed 's/^/studio: /' || true
    [ "$status" -eq 0 ] || echo "studio tests failed: the whole output is in $logs/swift-studio.log" >&2
    return "$status"
  fi
  run swift-studio.log "${arguments[@]}"
}

case "$mode" in
test)
  library
  studio
  ;;
library) library ;;
studio) studio "${2:-}" ;;
eval)
  # The studio's tests have nothing to evaluate, and must not share a process with the sweeps (above).
  OCULAR_EVAL=1 run eval.log --skip OcularStudioTests --filter "$EVALUATIONS"
  ;;
*)
  echo "usage: $0 test|library|studio [--quiet]|eval" >&2
  exit 2
  ;;
esac
