#!/usr/bin/env bash
# `make test-spark`: runs Examples/spark/spam_filter.py on Spark in local mode and checks
# that its spam and clean records equal those of one `turnstile filter` run.
#
# Installs pyspark from PyPI into a virtual environment under .build-spark/ (once; the
# Makefile's spark-deps target installs Java and python3-venv), generates a corpus of
# RECORDS records (default 1,000,000, deterministic), compiles the built-in list once
# with `turnstile compile -o`, and compares sorted lists. Then the same with
# NUL-terminated multi-line records (NUL_RECORDS, default 100,000), and with e-mail
# (MAIL_RECORDS messages, default 20,000: NUL-framed mbox messages piped to
# `turnstile filter --format mbox`, checked against one run over the same messages as
# an mbox file).
#
# TURNSTILE=path uses that binary (default: a release build of the turnstile product).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

PYSPARK_VERSION=3.5.9
RECORDS=${RECORDS:-1000000}
NUL_RECORDS=${NUL_RECORDS:-100000}
MAIL_RECORDS=${MAIL_RECORDS:-20000}
PARTITIONS=${PARTITIONS:-4}
work=.build-spark
venv=$work/venv
started=$(date +%s)

if ! "$venv/bin/python" -c 'import pyspark, sys; sys.exit(pyspark.__version__ != sys.argv[1])' "$PYSPARK_VERSION" 2>/dev/null; then
    echo "test-spark: installing pyspark $PYSPARK_VERSION into $venv"
    python3 -m venv --clear "$venv"
    "$venv/bin/pip" install --quiet --disable-pip-version-check "pyspark==$PYSPARK_VERSION"
fi
echo "test-spark: pyspark ready after $(( $(date +%s) - started )) s"

if [ -z "${TURNSTILE:-}" ]; then
    swift build -c release --product turnstile
    TURNSTILE="$(swift build -c release --show-bin-path)/turnstile"
fi
TURNSTILE=$(cd "$(dirname "$TURNSTILE")" && pwd)/$(basename "$TURNSTILE")

"$TURNSTILE" compile -o "$work/rules.tsa"
export PYSPARK_PYTHON="$PWD/$venv/bin/python"

# check DELIMITER RECORDS: one Spark run against one `turnstile filter` run.
check() {
    local delimiter=$1 records=$2 run=$work/$1
    rm -rf "$run" && mkdir -p "$run"
    python3 Examples/spark/make_corpus.py --records "$records" --seed 17 --delimiter "$delimiter" > "$run/corpus"
    # The reference: one process over the whole corpus (for mail, the same messages as
    # one mbox file, NUL-terminated again so both sides split alike).
    local framing=(--delimiter "$delimiter") reference=$run/corpus
    if [ "$delimiter" = mbox ]; then
        framing=(--format mbox); reference=$run/corpus.mbox
        tr -d '\0' < "$run/corpus" > "$reference"
    fi
    "$TURNSTILE" filter --automaton "$work/rules.tsa" "${framing[@]}" --spam "$reference" > "$run/want-spam"
    set +e
    "$TURNSTILE" filter --automaton "$work/rules.tsa" "${framing[@]}" "$reference" > "$run/want-clean"
    [ $? -le 1 ] || { echo "test-spark: turnstile filter failed" >&2; exit 1; }
    set -e
    if [ "$delimiter" = mbox ]; then
        for mode in spam clean; do   # one NUL-terminated message per record, as Spark writes them
            python3 -c 'import re, sys; d = open(sys.argv[1], "rb").read(); s = [0] + [m.start() + 1 for m in re.finditer(rb"\nFrom ", d)]; open(sys.argv[1], "wb").write(b"".join(d[a:b] + b"\0" for a, b in zip(s, s[1:] + [len(d)]) if d[a:b]))' "$run/want-$mode"
        done
    fi
    local t0=$(date +%s)
    "$venv/bin/spark-submit" --master "local[$PARTITIONS]" --conf spark.ui.enabled=false \
        --driver-memory 2g --files "$work/rules.tsa" \
        Examples/spark/spam_filter.py --input "$run/corpus" --output "$run/out" \
        --automaton rules.tsa --turnstile "$TURNSTILE" --partitions "$PARTITIONS" --delimiter "$delimiter" \
        2> "$run/spark.log" | tee "$run/spark.out" || { tail -40 "$run/spark.log" >&2; exit 1; }
    echo "test-spark: $delimiter records: spark-submit took $(( $(date +%s) - t0 )) s"
    grep -q "^partitions [0-9]*, records $records\$" "$run/spark.out" \
        || { echo "test-spark: Spark did not read $records records in $PARTITIONS or more partitions" >&2; exit 1; }
    local parts
    parts=$(awk '{ print $2 }' "$run/spark.out" | tr -d ,)
    [ "$parts" -ge 4 ] || { echo "test-spark: only $parts partitions" >&2; exit 1; }
    for mode in spam clean; do
        # Both sides as sorted lists of records (NUL-terminated ones for nul).
        python3 - "$delimiter" "$run/want-$mode" "$run/out/$mode" "$mode" <<'PY'
import glob, os, sys
delimiter, want_path, got_dir, mode = sys.argv[1:]
end = b"\n" if delimiter == "line" else b"\0"
with open(want_path, "rb") as f:
    want = f.read().split(end)[:-1]
got = []
for part in sorted(glob.glob(os.path.join(got_dir, "part-*"))):
    with open(part, "rb") as f:
        data = f.read()
    # saveAsTextFile ends every element with a newline; nul records end with NUL first.
    got += data.split(b"\n" if delimiter == "line" else b"\0\n")[:-1]
if not want or sorted(want) != sorted(got):
    sys.exit(f"test-spark: {delimiter} {mode}: Spark gave {len(got)} records, turnstile filter {len(want)}; the sorted lists differ")
print(f"test-spark: {delimiter} {mode}: {len(got)} records, equal to one turnstile filter run")
PY
    done
}

check line "$RECORDS"
check nul "$NUL_RECORDS"
check mbox "$MAIL_RECORDS"
echo "test-spark: passed in $(( $(date +%s) - started )) s"
