#!/usr/bin/env python3
"""The grep idioms of ../shared/bench/perf_grep.py counted in instructions (callgrind),
for a machine too busy for wall times: `turnstile match -c -j1` against GNU grep -E
(LC_ALL=C), rg -j1 and ugrep -J1, whole process (start-up included), on the 32 MiB
haystack perf_grep.py makes. Prints millions of instructions and best peer / turnstile
(> 1: fewer instructions than every peer). Counts must agree with grep's.

valgrind cannot read the DWARF 5 of a Swift release build: pass a copy stripped with
`objcopy --strip-debug`.

  swift build -c release --product turnstile
  objcopy --strip-debug .build/release/turnstile /tmp/turnstile-nodebug
  Benchmarks/scripts/grep_idioms_instructions.py /tmp/turnstile-nodebug [name filter]
"""
import os, re, subprocess, sys

binary = sys.argv[1]
only = sys.argv[2] if len(sys.argv) > 2 else None
hay = "/tmp/turnstile-peer-tables/hay-en-32.txt"
if not os.path.exists(hay):
    sys.exit("run ../shared/bench/perf_grep.py once first: it writes " + hay)
env = dict(os.environ, LC_ALL="C", NO_COLOR="1")
IDIOMS = [("^#", ["-e", "^#"]), ("Holmes$", ["-e", "Holmes$"]), ("any char .", ["-e", "."]),
          ("empty pattern", ["-e", ""]), ("-v '^$'", ["-v", "-e", "^$"]), ("-x line", ["-x", "-e", "Yes."]),
          ("-w word", ["-w", "-e", "Holmes"]), ("-i word", ["-i", "-e", "sherlock"]),
          ("three words", ["-e", "[a-z]{3} [a-z]{3} [a-z]{3}"]), ("digits", ["-e", "[0-9]+"]),
          ("common word", ["-e", "the"]), ("\\b word \\b", ["-e", "\\byou\\b"]),
          ("-x short", ["-x", "-e", "No."]), ("blow-up class", ["-e", "[a-q][^u-z]{13}x"])]


def instructions(cmd):
    p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd,
                       capture_output=True, env=env)
    m = re.search(r"refs:\s+([\d,]+)", p.stderr.decode())
    return int(m.group(1).replace(",", "")), p.stdout.decode().strip()


ok = True
for name, args in IDIOMS:
    if only and only not in name:
        continue
    t, count = instructions([binary, "match", "-c", "-j1"] + args + [hay])
    g, expected = instructions(["grep", "-E", "-c"] + args + [hay])
    r, _ = instructions(["rg", "--no-config", "-j1", "-c"] + args + [hay])
    u, _ = instructions(["ugrep", "-J1", "-c"] + args + [hay])
    same = count == expected
    ok &= same
    print("%-14s M instructions: turnstile %8.1f  grep %8.1f  rg %8.1f  ugrep %8.1f  best/turnstile %5.2f%s" % (
        name, t / 1e6, g / 1e6, r / 1e6, u / 1e6, min(g, r, u) / t, "" if same else "  MISMATCH %s/%s" % (count, expected)),
        flush=True)
sys.exit(0 if ok else 1)
