# Ocular: `make run` starts Ocular Studio, `make test` runs every test. Both install what is missing.
SWIFT ?= swift
# Every build goes through scripts/swift-build.sh, which keeps SwiftPM's trait flags in one order between runs.
BUILD = SWIFT=$(SWIFT) scripts/swift-build.sh

.PHONY: run test eval build bench bench-accept fuzz docs clean

## Install what is missing, build, and serve Ocular Studio: at `ocular studio`'s defaults (StudioConfiguration's,
## http://127.0.0.1:8080/), or at HOST= and PORT= when given.
run:
	scripts/setup.sh run
	scripts/touch-dependents.sh
	$(BUILD) -c release --product ocular
	.build/release/ocular studio $(if $(HOST),--host $(HOST)) $(if $(PORT),--port $(PORT))

## Install what is missing and run the Swift tests (the evaluations on a sample), a client package that depends
## on Ocular by version, then the browser tests in headless Chromium, Firefox and WebKit; ends with each suite's time.
test:
	scripts/setup.sh test
	scripts/touch-dependents.sh
	$(BUILD) --build-tests
	SWIFT=$(SWIFT) scripts/swift-tests.sh library
	@# The studio's tests wait on the network and the client package's build on the CPU: side by side.
	SWIFT=$(SWIFT) scripts/swift-tests.sh studio --quiet & studio=$$!; \
	  scripts/client-package.sh; client=$$?; wait $$studio; studio=$$?; [ $$client -eq 0 ] && [ $$studio -eq 0 ]
	scripts/browser-tests.sh test
	.venv/bin/python -m pytest Tests/scripts -q -p no:cacheprovider --junitxml=.build/test-logs/scripts.xml
	scripts/test-times.py .build/test-logs/swift-library.log .build/test-logs/swift-studio.log .build/test-logs/browser.xml .build/test-logs/browser-engines.xml .build/test-logs/browser-alone.xml .build/test-logs/scripts.xml

## The evaluations whole (faces, beans, samples, fusion, fuzzing, the kill loop): the articles' figure tables,
## printed, under the same thresholds as make test's samples; then ocular batch on a real local Ray cluster
## with a worker node killed mid-run (Ray from PyPI in .venv-ray).
eval:
	scripts/setup.sh test
	scripts/touch-dependents.sh
	$(BUILD) --build-tests
	SWIFT=$(SWIFT) scripts/swift-tests.sh eval
	scripts/browser-tests.sh eval
	scripts/ray-tests.sh
	scripts/test-times.py .build/test-logs/eval.log .build/test-logs/browser-eval.xml

## Build the command line in release mode: .build/release/ocular
build:
	scripts/setup.sh run
	scripts/touch-dependents.sh
	$(BUILD) -c release --product ocular

## The documentation site, which opens from disk: docs/site/index.html (DocC articles and API, the stage gallery).
docs:
	scripts/docs.sh

## Benchmarks: the Swift API against the same OpenCV calls from C++ and from Python cv2.
bench:
	scripts/bench.sh

## The last make bench's figures become the accepted ones (Benchmarks/baseline.json), which make bench
## then holds every run to.
bench-accept:
	python3 scripts/bench-compare.py --accept .build/bench/last

## Coverage-guided fuzzing (libFuzzer + AddressSanitizer) of the bridge's decode path: make fuzz SECONDS=600
SECONDS_TO_FUZZ ?= 600
fuzz:
	scripts/setup.sh run
	scripts/fuzz.sh $(if $(SECONDS),$(SECONDS),$(SECONDS_TO_FUZZ))

clean:
	rm -rf .build artifacts
