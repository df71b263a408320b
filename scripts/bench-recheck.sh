#!/usr/bin/env bash
# Holds one run of make bench (a folder of figure files) against Benchmarks/baseline.json, and measures
# again, by the part of the bench that measures it, every figure found worse than its noise: the run fails
# only on a figure worse again. One stray round among 275 figures is not a regression; a slowdown a change
# made shows twice.
#
#     scripts/bench-recheck.sh .build/bench/run-TIME [bench-compare.py options, e.g. --baseline FILE]
#
# scripts/bench.sh calls it at the end of every full run; the binaries are those it built.
set -euo pipefail
cd "$(dirname "$0")/.."
figures="$1"
shift
status=0
python3 scripts/bench-compare.py "$@" "$figures" || status=$?
[ "$status" = 1 ] || exit "$status"

bin="$(scripts/swift-build.sh -c release --show-bin-path)"
venv=.venv-bench
recheck="$figures/recheck"
rm -rf "$recheck"
mkdir -p "$recheck"
python3 scripts/bench-compare.py "$@" --plan "$figures" > "$recheck/plan.txt"
echo
echo "Measuring again the parts whose figures got worse:"
sed 's/^/  /' "$recheck/plan.txt"
part=0
# The plan on descriptor 3: the parts read standard input (Python subprocesses) and would eat it.
while read -r program arguments <&3; do
    part=$((part + 1))
    echo
    echo "== $program $arguments"
    case "$program" in
        ocular-bench) "$bin/ocular-bench" --python "$venv/bin/python" $arguments --figures "$recheck/ocular-bench-$part.json" < /dev/null ;;
        browser) .venv/bin/python Benchmarks/browser/bench_browser.py --ocular "$bin/ocular" ${arguments:+--only "$arguments"} --figures "$recheck/browser.json" < /dev/null ;;
        engines) .venv/bin/python Benchmarks/browser/bench_engines.py --ocular "$bin/ocular" --figures "$recheck/engines.json" < /dev/null ;;
        batch) "$venv/bin/python" Benchmarks/batch/bench_batch.py --ocular "$bin/ocular" --figures "$recheck/batch.json" < /dev/null ;;
        *) echo "bench-recheck: no part called $program" >&2; exit 2 ;;
    esac
done 3< "$recheck/plan.txt"
echo
python3 scripts/bench-compare.py "$@" "$figures" --recheck "$recheck"
