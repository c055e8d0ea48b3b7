#!/usr/bin/env python3
"""Regex throughput: turnstile builds (before/after a change) vs rg, whole process.

The issue-13 regex rows (`turnstile match --count-matches`, or `-c` for builds from
before that flag, when -c counted matches) on the rebar English subtitle sample repeated to --mib MiB
(built by literal_throughput.py's `prepare`, default /tmp/turnstile-bench/hay128).
Each command runs --runs times, alternating tools; the table shows the median of the
child's CPU time (user + sys) and of wall time as MB/s (10^6 bytes), plus, with
--instructions, the instructions per byte of one run (`perf stat`, stable on a noisy
machine). Counts are compared with the first tool's; a mismatch is printed.

  Benchmarks/scripts/regex_throughput.py --turnstile before=/tmp/turnstile-before \\
      --turnstile after=.build/release/turnstile --runs 5 --instructions
"""
import argparse, os, statistics, subprocess, shutil, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from literal_throughput import prepare, run  # noqa: E402

PATTERNS = [
    "free|win|winner|cash|prize",
    "[A-Z][a-z]+ing",
    "[A-Za-z]{12,}",
    "[0-9]{3}[- ][0-9]{3}[- ][0-9]{4}",
    "https?://[a-z0-9.-]+",
    "(?i)congratulations",
]


def instructions(cmd):
    p = subprocess.run(["perf", "stat", "-x,", "-e", "instructions:u"] + cmd,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    for line in p.stderr.decode().splitlines():
        parts = line.split(",")
        if len(parts) > 2 and parts[2].startswith("instructions") and parts[0].isdigit():
            return int(parts[0])
    return None


def count_flag(path):
    """--count-matches where the build has it; older builds' -c counted matches."""
    p = subprocess.run([path, "match", "--help"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    return "--count-matches" if b"--count-matches" in p.stdout else "-c"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--turnstile", action="append", default=[], help="name=path (repeatable)")
    ap.add_argument("--dir", default="/tmp/turnstile-bench")
    ap.add_argument("--mib", type=int, default=128)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", default="")
    ap.add_argument("--instructions", action="store_true")
    a = ap.parse_args()
    prepare(a.dir, a.mib)
    hay = os.path.join(a.dir, f"hay{a.mib}")
    nbytes = os.path.getsize(hay)
    tools = [(t.split("=", 1)[0], t.split("=", 1)[1]) for t in a.turnstile] or [("turnstile", ".build/release/turnstile")]
    print("| regex | tool | count | MB/s (cpu) | MB/s (wall) | instr/byte |")
    print("|---|---|---|---|---|---|")
    for pattern in PATTERNS:
        if a.only and a.only not in pattern:
            continue
        cmds = [(name, [path, "match", count_flag(path), "-e", pattern, hay]) for name, path in tools]
        if shutil.which("rg"):
            cmds.append(("rg", ["rg", "--count-matches", "-e", pattern, hay]))
        samples = {name: ([], [], set()) for name, _ in cmds}
        for _ in range(a.runs):
            for name, cmd in cmds:
                out, wall, cpu = run(cmd)
                samples[name][0].append(cpu); samples[name][1].append(wall); samples[name][2].add(out)
        reference = None
        for name, cmd in cmds:
            cpus, walls, outs = samples[name]
            count = outs.pop() if len(outs) == 1 else "varies"
            reference = reference or count
            mark = "" if count == reference else " (≠)"
            ipb = ""
            if a.instructions and shutil.which("perf"):
                n = instructions(cmd)
                ipb = f"{n / nbytes:.2f}" if n else "?"
            mbps = lambda s: nbytes / 1e6 / max(s, 1e-9)
            print(f"| `{pattern}` | {name} | {count}{mark} | {mbps(statistics.median(cpus)):,.0f} | "
                  f"{mbps(statistics.median(walls)):,.0f} | {ipb} |", flush=True)


if __name__ == "__main__":
    main()
