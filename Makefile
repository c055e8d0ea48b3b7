# Turnstile: the two entry points (see README.md, "Quick start").
#
#   make run    the main job: build the command-line tool in release mode and run it
#   make test   install libpcre2-dev if it is missing, build every target, run every test,
#               then the release-mode checks: bench-smoke, hostile-cli (small), test-spark,
#               fuzz-smoke
#
# CI runs `make test` through .ci/run, so a local `make test` is the same check.

SWIFT ?= swift

# apt-get needs root: prefix sudo only when we are not root and sudo exists.
SUDO := $(shell [ "$$(id -u)" = 0 ] || command -v sudo 2>/dev/null)
APT_GET := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get

.PHONY: run test deps bench bench-smoke test-spark spark-deps

# The main job: filter the sample messages with the built-in spam list (prints the clean ones).
run:
	$(SWIFT) run -c release turnstile filter Corpora/messages/sample.txt

# Swift Testing already runs tests in parallel inside one process, so no --parallel.
test: deps
	$(SWIFT) build
	$(SWIFT) test
	$(MAKE) bench-smoke
	$(MAKE) hostile-cli HOSTILE_FLAGS=--small TURNSTILE=$(CURDIR)/Benchmarks/.build/release/turnstile
	$(MAKE) test-spark TURNSTILE=$(CURDIR)/Benchmarks/.build/release/turnstile
	$(MAKE) fuzz-smoke FUZZ_SMOKE_SECONDS=20

# libpcre2-8 headers and its pkg-config file, for the PCRE2 oracle the tests use;
# procmail and maildrop, which the README's delivery recipes run in the tests; spamc and
# python3, the clients the `turnstile serve` tests talk to the server with.
deps:
	@if ! command -v pkg-config >/dev/null 2>&1 || ! pkg-config --exists libpcre2-8; then \
		echo "make deps: installing libpcre2-dev and pkg-config with apt-get"; \
		$(APT_GET) update && $(APT_GET) install -y libpcre2-dev pkg-config; \
	fi
	@if ! command -v procmail >/dev/null 2>&1 || ! command -v maildrop >/dev/null 2>&1; then \
		echo "make deps: installing procmail and maildrop with apt-get"; \
		$(APT_GET) update && $(APT_GET) install -y procmail maildrop; \
	fi
	@if ! [ -x /usr/bin/spamc ] || ! command -v python3 >/dev/null 2>&1; then \
		echo "make deps: installing spamc and python3 with apt-get"; \
		$(APT_GET) update && $(APT_GET) install -y spamc python3; \
	fi
	@if ! command -v dot >/dev/null 2>&1; then \
		echo "make deps: installing graphviz (the event machine's DOT test runs dot) with apt-get"; \
		$(APT_GET) update && $(APT_GET) install -y --no-install-recommends graphviz; \
	fi

# The full comparison (Turnstile vs PCRE2, rg, grep, pcre2grep) → Benchmarks/results/<date>/.
bench: deps
	cd Benchmarks && ./run-compare.sh

# Builds the Benchmarks package and runs one quick, small comparison whose match counts
# must agree with PCRE2 and the other engines (part of `make test`, so it cannot rot).
bench-smoke: deps
	cd Benchmarks && $(SWIFT) build -c release && $(SWIFT) build -c release --product turnstile \
		&& .build/release/compare --quick --turnstile .build/release/turnstile

# Spark (issue 17, Examples/spark/README.md): pyspark from PyPI in .build-spark/venv,
# Spark in local mode over a generated corpus of 1,000,000 records, checked against one
# `turnstile filter` run. TURNSTILE=path skips building the release binary.
test-spark: spark-deps
	Examples/spark/test-spark.sh

# Java 17 for Spark and the venv module for pyspark's virtual environment.
spark-deps:
	@if ! command -v java >/dev/null 2>&1; then \
		echo "make spark-deps: installing openjdk-17-jre-headless with apt-get"; \
		$(APT_GET) update && $(APT_GET) install -y openjdk-17-jre-headless; \
	fi
	@if ! python3 -c 'import ensurepip, venv' >/dev/null 2>&1; then \
		echo "make spark-deps: installing python3-venv with apt-get"; \
		$(APT_GET) update && $(APT_GET) install -y python3-venv; \
	fi

# Hardening (issue 9; see Fuzz/README.md). Sanitized builds use their own scratch
# paths so they never invalidate the normal .build/.
FUZZ_SECONDS ?= 600
FUZZ_TARGETS := fuzz-regex-compile fuzz-regex-diff fuzz-aho-corasick fuzz-loader fuzz-mail fuzz-rule-file
.PHONY: $(FUZZ_TARGETS) fuzz-smoke test-asan test-tsan hostile-cli

# One libFuzzer target for FUZZ_SECONDS (default 10 minutes).
$(FUZZ_TARGETS): deps
	Fuzz/run.sh $(@:fuzz-%=%) $(FUZZ_SECONDS)

# CI (part of `make test`): every fuzz target for FUZZ_SMOKE_SECONDS from its seed corpus.
FUZZ_SMOKE_SECONDS ?= 30
fuzz-smoke: deps
	Fuzz/run.sh all $(FUZZ_SMOKE_SECONDS)

# TURNSTILE_SANITIZER scales the big hardening inputs and loops down (see the tests).
# LSan: the XCTest runner's own 144-byte leak is suppressed (Fuzz/lsan-suppressions.txt).
test-asan: deps
	TURNSTILE_SANITIZER=address LSAN_OPTIONS=suppressions=$(CURDIR)/Fuzz/lsan-suppressions.txt \
		$(SWIFT) test --sanitize=address --scratch-path .build-asan

test-tsan: deps
	TURNSTILE_SANITIZER=thread $(SWIFT) test --sanitize=thread --scratch-path .build-tsan

# The CLI on hostile input (Fuzz/hostile-cli.sh lists the cases; python3 makes and
# checks the mail set), with exit status and peak RSS per case. `make test` runs it with HOSTILE_FLAGS=--small (inputs 1/32 the size).
hostile-cli:
	@command -v /usr/bin/time >/dev/null || { $(APT_GET) update && $(APT_GET) install -y time; }
	@command -v python3 >/dev/null || { $(APT_GET) update && $(APT_GET) install -y python3; }
	Fuzz/hostile-cli.sh $(HOSTILE_FLAGS) $(TURNSTILE)
