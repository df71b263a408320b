#!/usr/bin/env bash
# Coverage-guided fuzzing of the bridge's decode path with libFuzzer and AddressSanitizer.
# Only the bridge's C++ and a small harness are built with sanitizers (about a second), never the package.
# Usage: scripts/fuzz.sh [SECONDS]   (default 600)
# Seeds come from ../shared/data (images, book, faces, beancounter); crashers land in artifacts/fuzz/crashes/
# and fuzzing goes on after each (fork mode), so one run reports every kind of finding.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
data=${OCULAR_TEST_DATA:-../shared/data}
out=artifacts/fuzz
mkdir -p "$out/corpus" "$out/crashes"
CXX=${CXX:-clang++}

echo "== Building the decode fuzzer"
"$CXX" -std=c++17 -g -O1 -fuse-ld=lld -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=undefined \
  -I Sources/OpenCVBridgeCore/include -I Sources/OpenCVBridge/include -I Sources/OpenCVBridge -I Tests/OpenCVReference/include -I /usr/include/opencv4 \
  Fuzz/DecodeFuzzer.cpp Sources/OpenCVBridgeCore/Fencing.cpp Sources/OpenCVBridge/ImageCodecs.cpp Sources/OpenCVBridge/JPEG.cpp Tests/OpenCVReference/OpenCVReference.cpp \
  -lopencv_core -lopencv_imgproc -lopencv_imgcodecs -ljpeg -o "$out/decode-fuzzer"

# Seeds: small crops of every shared image in every format this OpenCV writes, once per read mode
# (the first byte picks it); libFuzzer mutates from there.
seeds="$out/seeds"
rm -rf "$seeds" && mkdir -p "$seeds"
"$CXX" -std=c++17 -O1 -I /usr/include/opencv4 Fuzz/MakeSeeds.cpp -lopencv_core -lopencv_imgproc -lopencv_imgcodecs -o "$out/make-seeds"
count=$("$out/make-seeds" "$seeds" "$data"/images/* "$data"/book/* "$data"/faces/*.png "$data"/beancounter/*.png 2>/dev/null)
# And every bit depth × channel layout of every container (Tests/Fixtures/layouts): OpenCV writes
# few of them, and a 16-bit RGBA PNG crashed every entry point while no seed had that layout.
layouts=0
for fixture in Tests/Fixtures/layouts/*; do
  for mode in 0 1 2 3; do
    { printf "\\x0$mode"; cat "$fixture"; } > "$seeds/layout-$(basename "$fixture")-$mode"
  done
  layouts=$((layouts + 1))
done
echo "== $count + $layouts layouts × 4 read modes; fuzzing for $seconds s"

# OpenCV's own limits allow a 1-gigapixel image; the harness decodes twice, so give it room.
# libFuzzer exits non-zero when it saved anything; report first, then pass its status on.
set +e
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1:allocator_may_return_null=1} \
"$out/decode-fuzzer" "$out/corpus" "$seeds" \
  -max_total_time="$seconds" -max_len=400000 -timeout=20 -rss_limit_mb=8192 -malloc_limit_mb=8192 \
  -fork=1 -ignore_crashes=1 -ignore_timeouts=1 -ignore_ooms=1 \
  -artifact_prefix="$out/crashes/" -print_final_stats=1 2>&1 \
  | tee "$out/fuzz.log" | grep -E '^#[0-9]+: cov|^INFO: fuzzed for|stat::|==ERROR|SUMMARY|decode fuzzer|crash' | tail -n 40
status=${PIPESTATUS[0]}
set -e
echo "== saved in $out/crashes: $(find "$out/crashes" -name 'crash-*' | wc -l) crashes, $(find "$out/crashes" -name 'timeout-*' | wc -l) timeouts, $(find "$out/crashes" -name 'oom-*' | wc -l) out-of-memory, $(find "$out/crashes" -name 'slow-unit-*' | wc -l) slow inputs; full log: $out/fuzz.log"
echo "   (OpenCV itself takes seconds and gigabytes for forged sizes up to its 2^30-pixel limit; Ocular's"
echo "   header checks refuse those before decoding, so timeouts and out-of-memory here are OpenCV's own.)"
exit "$status"
