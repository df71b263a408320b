#!/usr/bin/env bash
# `swift build` with its arguments, under a fixed hash seed. SwiftPM passes a package's traits to the compiler
# as -D flags in the order of a Swift Set, which each process's hash seed reshuffles
# (swiftlang/swift-package-manager#10525): every plan made by a `swift test` in between then recompiled
# Hummingbird's four modules at the next build (12–40 s a make test). With a fixed seed the flags keep their
# order. Builds only: the tests keep their randomly seeded sets. Drop this once the toolchain sorts them.
exec env SWIFT_DETERMINISTIC_HASHING=1 "${SWIFT:-swift}" build "$@"
