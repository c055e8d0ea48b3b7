# Turnstile: the two entry points (see README.md, "Quick start").
#
#   make run    the main job: build the command-line tool in release mode and run it
#   make test   install what the tests need (apt-get), build every target, run every test,
#               then the release-mode checks on one release build: test-install, deb
#               (lintian), bench-smoke, hostile-cli (small), test-spark, fuzz-smoke,
#               test-grep-scripts
#
# CI runs `make test` through .ci/run, so a local `make test` is the same check.

SWIFT ?= swift

# apt-get needs root: prefix sudo only when we are not root and sudo exists.
SUDO := $(shell [ "$$(id -u)" = 0 ] || command -v sudo 2>/dev/null)
APT_GET := $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get

.PHONY: mail-quality run test deps bench bench-smoke test-spark spark-deps install install-build uninstall test-install test-grep-scripts grep-links-check distribution-files deb docs bench-build

# The main job: filter the sample messages with the built-in spam list (prints the clean ones).
run:
	$(SWIFT) run -c release turnstile filter Corpora/messages/sample.txt

# Swift Testing already runs tests in parallel inside one process, so no --parallel.
# One release build serves every release-mode check: test-install builds the installed
# (static, stripped) binary, and hostile-cli, test-spark, test-grep-scripts and
# bench-smoke's whole-process rows run that binary (building the CLI a second time in
# Benchmarks/ took 8 minutes on a loaded 2-core machine).
RELEASE_BINARY = $(INSTALL_STAGE)/turnstile
test: deps
	$(SWIFT) build
	$(SWIFT) test
	$(MAKE) test-install
	$(MAKE) deb
	$(MAKE) bench-smoke TURNSTILE=$(RELEASE_BINARY)
	$(MAKE) hostile-cli HOSTILE_FLAGS=--small TURNSTILE=$(RELEASE_BINARY)
	$(MAKE) test-spark TURNSTILE=$(RELEASE_BINARY)
	$(MAKE) fuzz-smoke FUZZ_SMOKE_SECONDS=10
	$(MAKE) test-grep-scripts TURNSTILE=$(RELEASE_BINARY)

# DocC for every library product (swift-docc-plugin): each catalog's "Getting started"
# shows code a test runs (the README's examples). Output: .build/docs/<target>/ (static
# HTML). Not with --warnings-as-errors yet: the doc comments still have links DocC
# cannot resolve (symbols of another module, undocumented parameters).
DOCC_TARGETS := AutomatonCore LiteralAutomata RegexAutomata Turnstile EventMachine
docs:
	mkdir -p .build/docs
	for target in $(DOCC_TARGETS); do \
		$(SWIFT) package --allow-writing-to-directory .build/docs generate-documentation --target $$target \
			--output-path .build/docs/$$target || exit 1; \
	done

# libpcre2-8 headers and its pkg-config file, for the PCRE2 oracle the tests use;
# procmail and maildrop, which the README's delivery recipes run in the tests; spamc and
# python3, the clients the `turnstile serve` tests talk to the server with; libsqlite3-dev
# for `turnstile learn`'s database and the sqlite3 CLI the tests check it with.
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
	@if ! [ -x /usr/sbin/spamd ]; then \
		echo "make deps: installing spamd (serve's header tests sort mail through SpamAssassin's own spamd) with apt-get"; \
		$(APT_GET) update && $(APT_GET) install -y spamd; \
	fi
	@if ! pkg-config --exists sqlite3 || ! [ -x /usr/bin/sqlite3 ]; then \
		echo "make deps: installing libsqlite3-dev and sqlite3 with apt-get"; \
		$(APT_GET) update && $(APT_GET) install -y libsqlite3-dev sqlite3; \
	fi
	@if ! command -v bzip2 >/dev/null 2>&1 || ! command -v xz >/dev/null 2>&1 || ! command -v zstd >/dev/null 2>&1 \
		|| ! [ -d /usr/lib/locale/en_US.utf8 ] || ! [ -d /usr/lib/locale/tr_TR.utf8 ]; then \
		echo "make deps: installing bzip2, xz-utils, zstd and locales-all (test-grep-scripts runs zgrep and friends; the grep tests run under en_US.UTF-8 and tr_TR.UTF-8) with apt-get"; \
		$(APT_GET) update && $(APT_GET) install -y --no-install-recommends bzip2 xz-utils zstd locales-all; \
	fi
	@if ! command -v rg >/dev/null 2>&1; then \
		echo "make deps: installing ripgrep (match's --json and Unicode examples are compared with rg) with apt-get"; \
		$(APT_GET) update && $(APT_GET) install -y --no-install-recommends ripgrep; \
	fi
	@if ! command -v dot >/dev/null 2>&1; then \
		echo "make deps: installing graphviz (the event machine's DOT test runs dot) with apt-get"; \
		$(APT_GET) update && $(APT_GET) install -y --no-install-recommends graphviz; \
	fi
	@if ! command -v lintian >/dev/null 2>&1 || ! command -v dpkg-shlibdeps >/dev/null 2>&1; then \
		echo "make deps: installing lintian and dpkg-dev (make deb: dpkg-shlibdeps, then lintian checks the package) with apt-get"; \
		$(APT_GET) update && $(APT_GET) install -y --no-install-recommends lintian dpkg-dev; \
	fi
	@if ! command -v man >/dev/null 2>&1 || ! command -v groff >/dev/null 2>&1 \
		|| ! command -v zsh >/dev/null 2>&1 || ! command -v fish >/dev/null 2>&1; then \
		echo "make deps: installing man-db, groff-base, zsh and fish (test-install loads the man page and completions) with apt-get"; \
		$(APT_GET) update && $(APT_GET) install -y --no-install-recommends man-db groff-base zsh fish; \
	fi

# The built-in mail list on both corpora: Corpora/present-day and the shared SpamAssassin
# half, with its 5-fold cross-validation (README.md, "The built-in mail list"). Not in `make test`.
mail-quality:
	$(SWIFT) build -c release --product turnstile
	sh Scripts/measure-default-mail-list.sh

# The full comparison (Turnstile vs PCRE2, rg, grep, pcre2grep) → Benchmarks/results/<date>/.
bench: deps
	cd Benchmarks && ./run-compare.sh

# Builds the Benchmarks package and runs one quick, small comparison whose match counts
# must agree with PCRE2 and the other engines (part of `make test`, so it cannot rot).
# TURNSTILE=path: the turnstile binary for the whole-process rows (default: built here).
# Only `compare` is built (CI's time); `make bench-build` builds every benchmark executable.
bench-smoke: deps
	cd Benchmarks && $(SWIFT) build -c release --product compare \
		&& $(if $(TURNSTILE),true,$(SWIFT) build -c release --product turnstile) \
		&& .build/release/compare --quick --turnstile $(or $(TURNSTILE),.build/release/turnstile)

# Every executable of the Benchmarks package (package-benchmark suites, event-table,
# spamd-load, compare), so they are known to build.
bench-build: deps
	cd Benchmarks && $(SWIFT) build -c release

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

# CI (part of `make test`): every fuzz target for FUZZ_SMOKE_SECONDS from its seed corpus,
# with a fixed libFuzzer seed (printed; FUZZ_SEED=N make fuzz-smoke tries another).
FUZZ_SMOKE_SECONDS ?= 30
FUZZ_SEED ?= 20261203
fuzz-smoke: deps
	FUZZ_SEED=$(FUZZ_SEED) Fuzz/run.sh all $(FUZZ_SMOKE_SECONDS)

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

# Install like a system tool (issue 25): the release binary with the Swift runtime linked
# statically (no libswiftCore.so to find at start-up, half the start-up time), a man page
# generated from the argument parser, and bash, zsh and fish completions.
#   make install [PREFIX=/usr/local] [DESTDIR=/staging]     make uninstall (same variables)
# The build has its own scratch path so the static flags never invalidate .build/.
PREFIX ?= /usr/local
INSTALL_SCRATCH := $(CURDIR)/.build-install
INSTALL_SWIFT_FLAGS := -c release --static-swift-stdlib --scratch-path $(INSTALL_SCRATCH)
INSTALL_STAGE := $(INSTALL_SCRATCH)/stage
INSTALLED_FILES := \
	bin/turnstile \
	share/man/man1/turnstile.1 \
	share/bash-completion/completions/turnstile \
	share/zsh/site-functions/_turnstile \
	share/fish/vendor_completions.d/turnstile.fish \
	lib/systemd/system/turnstile-serve.service \
	lib/systemd/system/turnstile-serve.socket

# One release build, stripped as distribution packages ship binaries (debug info left
# out: 100 MB with it, about 10 without). The man page and the completions are not
# generated here: they are committed under Distribution/ (`make distribution-files`
# writes them), and DistributionFilesTests fails when the binary's own description
# (--experimental-dump-help, --generate-completion-script) no longer matches them.
install-build:
	$(SWIFT) build $(INSTALL_SWIFT_FLAGS) --product turnstile
	rm -rf $(INSTALL_STAGE) && mkdir -p $(INSTALL_STAGE)
	strip -o $(INSTALL_STAGE)/turnstile $(INSTALL_SCRATCH)/release/turnstile
	cp Distribution/turnstile.1 $(INSTALL_STAGE)/turnstile.1
	for shell in bash zsh fish; do cp Distribution/completion.$$shell $(INSTALL_STAGE)/completion.$$shell || exit 1; done

# Regenerates Distribution/: the man page with swift-argument-parser's generate-manual
# plugin (it builds every product in debug; after `swift build` that costs little),
# the description it is made from, and the bash, zsh and fish completions.
# generate-manual copies help text as is, so the sed makes its blank lines paragraphs
# and escapes lines that start with ', roff's control character (man warned on both).
distribution-files:
	$(SWIFT) build --product turnstile
	$(SWIFT) package plugin generate-manual --configuration debug
	sed -e "s/^'/\\\\\\&'/" -e 's/^$$/.Pp/' \
		$(CURDIR)/.build/plugins/GenerateManual/outputs/TurnstileCLI/turnstile.1 > Distribution/turnstile.1
	.build/debug/turnstile --experimental-dump-help > Distribution/turnstile-help.json
	for shell in bash zsh fish; do \
		.build/debug/turnstile --generate-completion-script $$shell > Distribution/completion.$$shell || exit 1; \
	done

# GREP_LINKS_DIR=DIR also puts links named grep, egrep and fgrep to the installed binary
# in DIR (issue 35: turnstile answers as GNU grep when run through them). There is no
# default, and the system's own folders are refused, so the system's grep is never
# replaced by accident: pick a folder of your own and put it first on PATH, e.g.
#   make install PREFIX=$$HOME/.local GREP_LINKS_DIR=$$HOME/.local/turnstile-grep/bin
GREP_LINKS_DIR ?=
GREP_LINKS := grep egrep fgrep
grep-links-check:
	@case "$(abspath $(GREP_LINKS_DIR))" in /bin|/usr/bin|/sbin|/usr/sbin|/usr/local/bin) \
		echo "make install: GREP_LINKS_DIR=$(GREP_LINKS_DIR) would put turnstile in place of the system's grep; choose a folder of your own" >&2; exit 2;; esac

install: grep-links-check install-build
	install -D -m 755 $(INSTALL_STAGE)/turnstile $(DESTDIR)$(PREFIX)/bin/turnstile
	install -D -m 644 $(INSTALL_STAGE)/turnstile.1 $(DESTDIR)$(PREFIX)/share/man/man1/turnstile.1
	install -D -m 644 $(INSTALL_STAGE)/completion.bash $(DESTDIR)$(PREFIX)/share/bash-completion/completions/turnstile
	install -D -m 644 $(INSTALL_STAGE)/completion.zsh $(DESTDIR)$(PREFIX)/share/zsh/site-functions/_turnstile
	install -D -m 644 $(INSTALL_STAGE)/completion.fish $(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/turnstile.fish
	# The daemon's units (README "Running the daemon"), with ExecStart at this PREFIX; not enabled.
	install -d $(DESTDIR)$(PREFIX)/lib/systemd/system
	sed 's|/usr/bin/turnstile|$(PREFIX)/bin/turnstile|' Distribution/turnstile-serve.service > $(DESTDIR)$(PREFIX)/lib/systemd/system/turnstile-serve.service
	install -m 644 Distribution/turnstile-serve.socket $(DESTDIR)$(PREFIX)/lib/systemd/system/turnstile-serve.socket
	@if [ -n "$(GREP_LINKS_DIR)" ]; then \
		mkdir -p $(DESTDIR)$(GREP_LINKS_DIR) && for name in $(GREP_LINKS); do \
			ln -sfn $(PREFIX)/bin/turnstile $(DESTDIR)$(GREP_LINKS_DIR)/$$name || exit 1; \
			echo "linked $(DESTDIR)$(GREP_LINKS_DIR)/$$name -> $(PREFIX)/bin/turnstile"; \
		done; \
	fi

# A Debian package from the same one release build (Scripts/build-deb.sh): the binary,
# man page, completions and the grep links under /usr/lib/turnstile/bin, checked with
# lintian when it is installed. Writes .build-install/turnstile_VERSION_ARCH.deb.
DEB_VERSION := $(shell sed -n 's/^let turnstileVersion = "turnstile \(.*\)"/\1/p' Sources/TurnstileCLI/TurnstileCommand.swift)
deb: install-build
	Scripts/build-deb.sh $(INSTALL_STAGE) $(DEB_VERSION) $(INSTALL_SCRATCH)

# Removes exactly the files `make install` put there (directories it shares with other
# packages, such as share/man/man1, stay).
uninstall:
	rm -f $(addprefix $(DESTDIR)$(PREFIX)/,$(INSTALLED_FILES))
	@if [ -n "$(GREP_LINKS_DIR)" ]; then for name in $(GREP_LINKS); do \
		link=$(DESTDIR)$(GREP_LINKS_DIR)/$$name; \
		if [ -L "$$link" ] && [ "$$(readlink "$$link")" = "$(PREFIX)/bin/turnstile" ]; then rm -f "$$link"; fi; \
	done; fi

# Turnstile first on PATH as grep (issue 35): the shell scripts of Debian packages that
# call grep (zgrep, bzgrep, xzgrep, zstdgrep, rgrep, egrep, fgrep, lesspipe) and a
# harness of everyday grep commands, run with links named grep/egrep/fgrep to TURNSTILE
# first on PATH and with the system's grep; outputs and exit statuses must be equal.
test-grep-scripts: deps
	Scripts/test-grep-scripts.sh $(or $(TURNSTILE),$(CURDIR)/.build/debug/turnstile)

# Mail through a real Postfix content filter on loopback into a Maildir, compared byte
# for byte, and deferred while the daemon is down (Scripts/test-postfix.sh; needs root).
# Not part of `make test`: installing postfix replaces another MTA (exim4) on the machine.
.PHONY: test-postfix
test-postfix:
	$(SWIFT) build --product turnstile
	$(SUDO) Scripts/test-postfix.sh $(or $(TURNSTILE),$(CURDIR)/.build/debug/turnstile)

# CI (part of `make test`): installs into a temporary DESTDIR, renders the man page with
# man -l, loads each completion in its shell, then checks `make uninstall` removes every file.
test-install: deps
	INSTALLED_FILES="$(INSTALLED_FILES)" Scripts/test-install.sh

# Unicode tables (issue 39): regenerate Sources/RegexAutomata/Generated/UnicodeProperties.swift
# from Python's unicodedata and perl's Unicode::UCD and check every set against libpcre2-8 for
# every scalar (about 40 s; not part of `make test`, whose UnicodePropertyTests check a
# cheaper subset). Leaves the file unchanged when the data on this machine is unchanged.
.PHONY: unicode-tables
unicode-tables: deps
	python3 Scripts/generate-unicode-properties.py --check
	git diff --stat -- Sources/RegexAutomata/Generated/UnicodeProperties.swift
