#!/usr/bin/env python3
"""grep's everyday idioms: turnstile match (one build or several) vs GNU grep and rg,
whole process, on the rebar English subtitle sample repeated to --mib MiB (issue 29).

Every command prints a count (`-c`); the counts must agree with grep's (a mismatch is
printed and fails the run). Each command runs --runs times, tools alternating; the
table gives the median MB/s (10^6 bytes per second) of wall time and of the child's
CPU time (user + sys), and the ratio of turnstile's wall MB/s to the faster of grep
and rg. grep runs with LC_ALL=C, rg with its defaults.

  swift build -c release
  Benchmarks/scripts/grep_idioms.py --turnstile before=/tmp/turnstile-before \\
      --turnstile after=.build/release/turnstile --runs 5
"""
import argparse, os, statistics, sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from literal_throughput import prepare, run  # noqa: E402

# (name, arguments shared by grep, rg and turnstile match)
IDIOMS = [
    ("^#", ["-c", "^#"]),
    ("Holmes$", ["-c", "Holmes$"]),
    (".", ["-c", "."]),
    ("'' (empty)", ["-c", ""]),
    ("-v '^$'", ["-c", "-v", "^$"]),
    ("-w Holmes", ["-c", "-w", "Holmes"]),
    ("-i sherlock", ["-c", "-i", "sherlock"]),
    ("[0-9]+", ["-c", "[0-9]+"]),
    ("-x 'Yes.'", ["-c", "-x", "Yes."]),
    ("-w -i you", ["-c", "-w", "-i", "you"]),
]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--turnstile", action="append", default=[], help="name=path (repeatable)")
    ap.add_argument("--dir", default="/tmp/turnstile-bench")
    ap.add_argument("--mib", type=int, default=32)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--only", default="")
    ap.add_argument("--threads", default="", help="extra turnstile arguments, e.g. '-j1'")
    a = ap.parse_args()
    prepare(a.dir, a.mib)
    hay = os.path.join(a.dir, f"hay{a.mib}")
    nbytes = os.path.getsize(hay)
    tools = [(t.split("=", 1)[0], t.split("=", 1)[1]) for t in a.turnstile] or [("turnstile", ".build/release/turnstile")]
    cenv = dict(os.environ, LC_ALL="C")
    extra = a.threads.split() if a.threads else []
    print(f"{a.mib} MiB of rebar en-sampled subtitles; load {os.getloadavg()[0]:.2f}; median of {a.runs}")
    print("| idiom | count | " + " | ".join(f"{n} MB/s (wall/cpu)" for n, _ in tools) + " | grep | rg | best turnstile / max(grep, rg) |")
    print("|---|--:|" + "--:|" * len(tools) + "--:|--:|--:|")
    failed = False
    for name, args in IDIOMS:
        if a.only and a.only not in name:
            continue
        cmds = [("grep", ["grep", "-E"] + args + [hay], cenv), ("rg", ["rg"] + args + [hay], None)]
        cmds += [(n, [p, "match"] + args + extra + [hay], None) for n, p in tools]
        times = {n: ([], []) for n, _, _ in cmds}
        counts = {}
        for _ in range(a.runs):
            for n, cmd, env in cmds:
                out, wall, cpu = run(cmd, env)
                counts[n] = int(out or 0)
                times[n][0].append(wall)
                times[n][1].append(cpu)
        rate = {n: (nbytes / 1e6 / statistics.median(w), nbytes / 1e6 / max(statistics.median(c), 1e-9))
                for n, (w, c) in times.items()}
        for n in counts:
            if counts[n] != counts["grep"]:
                print(f"COUNT MISMATCH {name}: {n} {counts[n]} vs grep {counts['grep']}")
                failed = True
        best = max(rate[n][0] for n, _ in tools)
        ratio = best / max(rate["grep"][0], rate["rg"][0])
        cells = " | ".join(f"{rate[n][0]:,.0f} / {rate[n][1]:,.0f}" for n, _ in tools)
        print(f"| `{name}` | {counts['grep']} | {cells} | {rate['grep'][0]:,.0f} | {rate['rg'][0]:,.0f} | {ratio:.2f} |")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
