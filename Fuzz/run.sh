#!/usr/bin/env bash
# Builds one Turnstile fuzz target with libFuzzer + AddressSanitizer and runs it.
#
#   Fuzz/run.sh TARGET [SECONDS] [extra libFuzzer flags...]
#   Fuzz/run.sh regex-compile 600
#   Fuzz/run.sh all 30                 # every target, 30 s each (CI's fuzz smoke run)
#   Fuzz/run.sh loader 0 .build-fuzz/artifacts/loader/crash-…   # replay one input
#
# TARGET: regex-compile | regex-diff | aho-corasick | loader | mail | rule-file | all
# SECONDS: -max_total_time (default 600; 0 with a file argument replays it).
#
# Seeds are read from Fuzz/TARGET/corpus (never written to); the inputs libFuzzer
# finds go to .build-fuzz/corpus/TARGET and crash artifacts to
# .build-fuzz/artifacts/TARGET/. A finding prints the reproducing pattern and input.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
SWIFT=${SWIFT:-swift}
SCRATCH=${FUZZ_SCRATCH:-$ROOT/.build-fuzz}

product_of() {
    case "$1" in
        regex-compile) echo FuzzRegexCompile ;;
        regex-diff) echo FuzzRegexDiff ;;
        aho-corasick) echo FuzzAhoCorasick ;;
        loader) echo FuzzLoader ;;
        mail) echo FuzzMail ;;
        rule-file) echo FuzzRuleFile ;;
        *) echo "unknown fuzz target '$1' (regex-compile, regex-diff, aho-corasick, loader, mail, rule-file, all)" >&2; exit 2 ;;
    esac
}

# Per-input limits: a compile or search that takes over FUZZ_TIMEOUT s (default 30;
# the instrumented build is 5-10x slower than release), or a process over
# 2 GiB, is a finding (a hang or a blow-up past the configured limits).
FLAGS=(-timeout="${FUZZ_TIMEOUT:-30}" -rss_limit_mb=2048 -print_final_stats=1)
# FUZZ_SEED fixes libFuzzer's mutation sequence (CI's smoke run sets one, so a finding
# there replays with the same seed); unset, libFuzzer picks one and prints it.
if [ -n "${FUZZ_SEED:-}" ]; then FLAGS+=(-seed="$FUZZ_SEED"); fi

build() {
    "$SWIFT" build -c release --package-path "$ROOT/Fuzz" --scratch-path "$SCRATCH" \
        -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld \
        -Xcc -fsanitize=fuzzer-no-link,address --product "$1"
}

run_one() {
    local target=$1 seconds=$2; shift 2
    local product; product=$(product_of "$target")
    build "$product"
    local bin="$SCRATCH/release/$product"
    mkdir -p "$SCRATCH/corpus/$target" "$SCRATCH/artifacts/$target"
    if [ "$#" -gt 0 ] && [ -f "$1" ]; then
        "$bin" "${FLAGS[@]}" "$@"       # replay files
        return
    fi
    echo "== fuzz $target for ${seconds}s${FUZZ_SEED:+, seed $FUZZ_SEED}"
    "$bin" "${FLAGS[@]}" -max_total_time="$seconds" \
        -artifact_prefix="$SCRATCH/artifacts/$target/" \
        "$@" "$SCRATCH/corpus/$target" "$ROOT/Fuzz/$target/corpus"
}

target=${1:?usage: Fuzz/run.sh TARGET [SECONDS] [libFuzzer flags...]}
seconds=${2:-600}
shift; [ "$#" -gt 0 ] && shift
if [ "$target" = all ]; then
    for t in regex-compile regex-diff aho-corasick loader mail rule-file; do run_one "$t" "$seconds" "$@"; done
else
    run_one "$target" "$seconds" "$@"
fi
