#!/usr/bin/env bash
# Builds and runs a throwaway package that depends on Ocular as a registry release would be used: a git
# repository of this working tree, tagged 0.0.0-test, required with `from:`. SwiftPM refuses unsafe flags in
# such a dependency, so this is the test that Ocular's library products have none; it also checks that a
# client of the `Ocular` product alone does not build GRDB, and that the client's program works (reads a
# shared picture, applies a recipe, writes a file). Prints the build and start-up times.
#     scripts/client-package.sh [WORK_FOLDER]   (default: a new temporary folder, removed afterwards)
set -euo pipefail
repository=$(cd "$(dirname "$0")/.." && pwd)
data=${OCULAR_TEST_DATA:-$repository/../shared/data}
python=$repository/.venv/bin/python
work=${1:-}
if [ -z "$work" ]; then
  work=$(mktemp -d)
  trap 'rm -rf "$work"' EXIT
fi
mkdir -p "$work"

# Ocular as released: the working tree's files (what git would commit), one commit, one tag.
rm -rf "$work/Ocular" "$work/client"
mkdir -p "$work/Ocular"
(cd "$repository" && git ls-files -z --cached --others --exclude-standard |
  python3 -c 'import os, sys; sys.stdout.write("".join(p + "\0" for p in sys.stdin.read().split("\0") if p and os.path.lexists(p)))' |
  tar --null -T - -cf -) | tar -xf - -C "$work/Ocular"
git -C "$work/Ocular" init -q
git -C "$work/Ocular" add -A
git -C "$work/Ocular" -c user.name=ocular -c user.email=ocular@localhost commit -q -m "Ocular as released"
git -C "$work/Ocular" tag 0.0.0-test

mkdir -p "$work/client/Sources/client"
cp "$repository/Tests/ClientPackage/main.swift" "$work/client/Sources/client/main.swift"
cat > "$work/client/Package.swift" <<MANIFEST
// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "client",
    platforms: [.macOS(.v15)],
    dependencies: [.package(url: "file://$work/Ocular", from: "0.0.0-test")],
    targets: [.executableTarget(name: "client", dependencies: [.product(name: "Ocular", package: "Ocular")])]
)
MANIFEST

cd "$work/client"
echo "== client package: resolving Ocular 0.0.0-test (from:) and building"
start=$(date +%s%N)
if ! swift build >build.log 2>&1; then
  tail -30 build.log >&2
  echo "client package: the build failed (above)" >&2
  exit 1
fi
built=$(date +%s%N)
if grep -q "unsafe build flags" build.log; then
  echo "client package: SwiftPM reports unsafe build flags" >&2; exit 1
fi
# SwiftPM makes a folder for every target of the graph; what was compiled has object files.
for module in GRDB OcularGallery OcularStudio Hummingbird; do
  if [ -n "$(find ".build/debug/$module.build" -name '*.o' 2>/dev/null | head -1)" ]; then
    echo "client package: a client of the Ocular product alone compiled $module" >&2
    exit 1
  fi
done
if [ -z "$(find .build/debug/Ocular.build -name '*.o' | head -1)" ]; then
  echo "client package: Ocular's objects are not where this script looks (.build/debug/Ocular.build)" >&2
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
