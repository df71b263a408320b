#!/usr/bin/env bash
# SwiftPM's incremental build does not recompile a target that reaches a changed struct through
# another target (swiftlang/swift#89636, swiftlang/swift-package-manager#10502): it keeps the
# struct's old size, and the program then writes values over each other's ends at run time (a
# FaceDetector built by a test held a picture where its cascades should be). So when the libraries'
# sources change, every target above them is marked changed too and compiled against the new layouts.
set -euo pipefail
cd "$(dirname "$0")/.."
stamp=.build/library-sources.sha256
current=$(find Sources/Ocular Sources/OcularGallery Sources/OcularStudio -name '*.swift' -print0 | sort -z | xargs -0 cat | sha256sum | cut -d' ' -f1)
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$current" ]; then
    find Sources/OcularGallery Sources/OcularStudio Sources/ocular Tests Benchmarks -name '*.swift' -exec touch {} +
    mkdir -p .build
    echo "$current" > "$stamp"
fi
