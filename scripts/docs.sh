#!/usr/bin/env bash
# `make docs`: the documentation site in docs/site/, which opens from disk (docs/site/index.html):
#   documentation/  the Ocular module's DocC catalog (articles and every public symbol) as plain pages
#   stages/         the stage gallery: every registered stage run by the CLI, before and after, with recipes
#   api/            DocC's own archive, for a web server (its JavaScript app cannot read files from disk)
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh docs >/dev/null  # the .venv's OpenCV lays out the gallery's pictures
scripts/touch-dependents.sh
scripts/swift-build.sh --product ocular
rm -rf docs/site
mkdir -p docs/site
echo "== DocC"
# DocC's warnings (an unresolved link, a picture not in the catalog, a malformed article) fail the build.
log=$(mktemp)
swift package --allow-writing-to-directory docs/site generate-documentation --target Ocular --output-path docs/site/api \
  --transform-for-static-hosting --hosting-base-path api >"$log" 2>&1 || { cat "$log" >&2; exit 1; }
grep -E "^(error|Finished)" "$log" || true
# (Not SwiftPM's note on a dependency's own package, which every swift command prints.)
warnings=$(grep -E -A4 "(^|: )warning:" "$log" | grep -v "which are unhandled; explicitly declare them" || true)
if grep -qE "(^|: )warning:" <<<"$warnings"; then
  echo "$warnings" >&2
  echo "docs: DocC warned (above)" >&2
  exit 1
fi
rm -f "$log"
test -d docs/site/api/data/documentation || { echo "DocC wrote no documentation into docs/site/api" >&2; exit 1; }
python3 scripts/docc-static.py docs/site/api docs/site
echo "== Stage gallery"
.venv/bin/python scripts/stage-gallery.py --ocular "$(scripts/swift-build.sh --show-bin-path)/ocular" --output docs/site/stages
symbols=$(find .build -path '*extracted-symbols*' -name Ocular.symbols.json | head -1)
coverage=$(python3 scripts/doc-coverage.py "$symbols")
echo "$coverage"
cat > docs/site/index.html <<PAGE
<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Ocular documentation</title>
<style>body { font: 17px/1.5 system-ui, sans-serif; max-width: 760px; margin: 40px auto; padding: 0 20px; }
li { margin: 10px 0; } .coverage { color: #666; font-size: 14px; }</style></head>
<body>
<h1>Ocular documentation</h1>
<p>Computer vision for cameras, stills and videos in Swift.</p>
<ul>
<li><a href="./documentation/ocular.html">The Ocular library</a>: getting started, images and pixel formats, stages and
recipes, faces, the bean counter, samples, filters, zoom and sharpness, video, the gallery, Ocular Studio, errors and
damaged input, benchmarks, building and testing, and every public symbol.</li>
<li><a href="./stages/index.html">The stage gallery</a>: every stage, before and after, with the recipe that made it.</li>
</ul>
<p class="coverage">Documentation coverage: $coverage</p>
</body></html>
PAGE
echo "docs: open docs/site/index.html"
