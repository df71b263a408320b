#!/usr/bin/env bash
# Builds and runs a package that depends on Ocular as a registry release would be used: a git repository
# of this working tree, tagged with a version, required with `from:`. SwiftPM refuses unsafe flags in such a
# dependency, so this is the test that Ocular's library products have none; it also checks that a client of
# the `Ocular` product alone builds neither GRDB nor the studio nor the evaluations (the sweeps, their scenes
# and tables: OcularEvaluation, which no Ocular object names either), and that the client's program works (reads a shared
# picture, applies a recipe, writes a file). Prints the build and start-up times.
#     scripts/client-package.sh [WORK_FOLDER]   (default: .build/client-package, kept between runs)
#
# The work folder is kept: each run commits the working tree to its repository only when a file differs,
# tagged with the next version (0.0.1, 0.0.2, …), and the client updates to it (update_keeping_times, below):
# a new release builds in 30–45 s on two cores, a first build from nothing in about 90 s (a registry user's
# first build), an unchanged release in about 5 s.
set -euo pipefail
repository=$(cd "$(dirname "$0")/.." && pwd)
data=${OCULAR_TEST_DATA:-$repository/../shared/data}
python=$repository/.venv/bin/python
work=${1:-$repository/.build/client-package}
mkdir -p "$work/Ocular" "$work/client/Sources/client"
work=$(cd "$work" && pwd)

# Ocular as released: the working tree's files (what git would commit), committed and tagged when they changed.
release=$work/Ocular
[ -d "$release/.git" ] || git -C "$release" init -q
find "$release" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
(cd "$repository" && git ls-files -z --cached --others --exclude-standard |
  python3 -c 'import os, sys; sys.stdout.write("".join(p + "\0" for p in sys.stdin.read().split("\0") if p and os.path.lexists(p)))' |
  tar --null -T - -cf -) | tar -xf - -C "$release"
git -C "$release" add -A
released=unchanged
if ! git -C "$release" rev-parse -q --verify HEAD >/dev/null || ! git -C "$release" diff --cached --quiet; then
  git -C "$release" -c user.name=ocular -c user.email=ocular@localhost commit -q -m "Ocular as released"
  version=0.0.$(( $(git -C "$release" tag | wc -l) + 1 ))
  git -C "$release" tag "$version"
  released=$version
fi
latest=$(git -C "$release" tag --sort=v:refname | tail -1)

cp "$repository/Tests/ClientPackage/main.swift" "$work/client/Sources/client/main.swift"
cat > "$work/client/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "client",
    platforms: [.macOS(.v15)],
    dependencies: [.package(url: "file://$release", from: "0.0.1")],
    targets: [.executableTarget(name: "client", dependencies: [.product(name: "Ocular", package: "Ocular")])]
)
MANIFEST

cd "$work/client"
# The version of Ocular the client's Package.resolved pins.
resolved_version() {
  python3 -c 'import json; print([p["state"]["version"] for p in json.load(open("Package.resolved"))["pins"] if p["identity"] == "ocular"][0])'
}

# Updates the client to the new release, Ocular alone (all its dependencies re-resolved cost 27 s). SwiftPM's
# checkout then rewrites every file of Ocular's, changed or not, and their new times made the build compile all
# of Ocular's C++ again too (85 s in all); the files the release did not change get their times back. Ocular's
# Swift module is still compiled whole: SwiftPM gives the compiler the release's version
# (-user-module-version), so each release is a change of arguments to it.
update_keeping_times() {
  local checkout=.build/checkouts/Ocular previous=""
  if [ -f Package.resolved ] && [ -d "$checkout" ]; then
    previous=$(resolved_version 2>/dev/null || true)
  fi
  # No earlier release to compare with (a first run, or a release repository made anew): everything anew.
  if [ -z "$previous" ] || ! git -C "$release" rev-parse -q --verify "refs/tags/$previous" >/dev/null; then
    swift package update
    return
  fi
  find "$checkout" -type f ! -path '*/.git/*' -printf '%T@ %P\n' > .build/checkout-times
  swift package update ocular
  git -C "$release" diff --name-only "$previous" "$latest" |
    python3 -c '
import os, sys
checkout, changed = sys.argv[1], set(sys.stdin.read().split("\n"))
for line in open(".build/checkout-times"):
    time, path = line.rstrip("\n").split(" ", 1)
    seconds, fraction = time.split(".")
    nanoseconds = int(seconds) * 10**9 + int(fraction[:9].ljust(9, "0"))  # exactly, as the build compares them
    full = os.path.join(checkout, path)
    if path not in changed and os.path.exists(full):
        os.utime(full, ns=(nanoseconds, nanoseconds))
' "$checkout"
}

echo "== client package: Ocular $latest ($([ "$released" = unchanged ] && echo "unchanged since the last run" || echo "released now")), required with from: 0.0.1; building"
# What the check below looks for must come from this build, not from an earlier one.
for module in GRDB OcularGallery OcularStudio OcularEvaluation Hummingbird; do rm -rf ".build/debug/$module.build"; done
start=$(date +%s%N)
if ! { if [ "$released" != unchanged ]; then update_keeping_times; fi && swift build; } >build.log 2>&1; then
  tail -30 build.log >&2
  echo "client package: the build failed (above)" >&2
  exit 1
fi
built=$(date +%s%N)
resolved=$(resolved_version)
if [ "$resolved" != "$latest" ]; then
  echo "client package: SwiftPM resolved Ocular $resolved, not the release $latest" >&2; exit 1
fi
if grep -q "unsafe build flags" build.log; then
  echo "client package: SwiftPM reports unsafe build flags" >&2; exit 1
fi
# SwiftPM makes a folder for every target of the graph; what was compiled has object files.
for module in GRDB OcularGallery OcularStudio OcularEvaluation Hummingbird; do
  if [ -n "$(find ".build/debug/$module.build" -name '*.o' 2>/dev/null | head -1)" ]; then
    echo "client package: a client of the Ocular product alone compiled $module" >&2
    exit 1
  fi
done
if [ -z "$(find .build/debug/Ocular.build -name '*.o' | head -1)" ]; then
  echo "client package: Ocular's objects are not where this script looks (.build/debug/Ocular.build)" >&2
  exit 1
fi
# The sweeps' types by their mangled names' words: none may be defined in what the client compiled of Ocular.
evaluation=$(find .build/debug/Ocular.build -name '*.o' -exec nm --defined-only {} + 2>/dev/null |
  grep -E 'FaceSweep|FaceEvaluation|FaceLabelList|OpenCVFaceBaseline|BlobEvaluation|BlobScene|SweepFinish' | head -3 || true)
if [ -n "$evaluation" ]; then
  echo "client package: the Ocular library defines evaluation code:" >&2
  echo "$evaluation" >&2
  exit 1
fi

output=$work/client/gray-zoomed.png
.build/debug/client "$data/images/coffee.png" "$output"
"$python" - "$data/images/coffee.png" "$output" <<'CHECK'
import sys, cv2, numpy as np
source = cv2.imread(sys.argv[1], cv2.IMREAD_UNCHANGED)
result = cv2.imread(sys.argv[2], cv2.IMREAD_UNCHANGED)
assert result is not None, "the client wrote no picture"
assert result.shape == source.shape[:2], f"size {result.shape}, expected gray {source.shape[:2]}"
# The recipe: gray (BT.601 luma), then 2x about the middle; compare with OpenCV's own gray, enlarged.
gray = cv2.cvtColor(source, cv2.COLOR_BGR2GRAY)
h, w = gray.shape
middle = cv2.resize(gray[h // 4: h // 4 + h // 2, w // 4: w // 4 + w // 2], (w, h), interpolation=cv2.INTER_CUBIC)
difference = np.abs(middle.astype(float) - result.astype(float))[8:-8, 8:-8].mean()
assert difference < 3, f"mean difference {difference:.2f} from OpenCV's gray, enlarged 2x"
print(f"client package: output {result.shape[1]}x{result.shape[0]} gray, mean difference {difference:.2f} levels from OpenCV's")
CHECK
ran=$(date +%s%N)
for i in 1 2 3 4 5; do .build/debug/client "$data/images/coffee.png" "$output" >/dev/null; done
timed=$(date +%s%N)
libraries=$(readelf -d .build/debug/client 2>/dev/null | grep -c "NEEDED.*opencv" || true)
echo "client package: build $(( (built - start) / 1000000000 )) s, one run $(( (timed - ran) / 5000000 )) ms (mean of 5)," \
  "$libraries OpenCV libraries loaded"
