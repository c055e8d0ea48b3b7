#!/usr/bin/env python3
"""`--threads` speed-up: `turnstile filter` with 1 thread and with N, alternating.

Builds its data in a scratch directory (default /tmp/turnstile-bench, never the
repository): the rebar English subtitle sample repeated to --mib MiB (default 1024,
i.e. 1 GiB) and 1,000 ASCII words sampled with a fixed seed (8) from the rebar English
dictionary. Two workloads: the built-in spam list (`filter`) and the word list as
whole words, ASCII case-insensitive (`filter -F -i -w -f words1000`). Clean records go
to a regular file in the scratch directory, so the output is written as in real use.

Runs alternate (-j 1, -j N, -j 1, …) --runs times each, so a change in the machine's
load hits both alike. The table shows, per workload and thread count, the median
wall time and MB/s, the median CPU time (user + sys), and the speed-up (median wall
of -j 1 / median wall of -j N). The load average is printed before and after: on a
machine shared with other work the wall-time speed-up is bounded by the idle cores,
not by turnstile. The outputs of every run are checked to be byte-identical.

A control row per workload runs N independent `-j 1` processes at once, each over
1/N of the haystack (cut at line ends): the speed-up the machine itself allows when
nothing is shared but the hardware. On a 2-vCPU VM two busy processes each run
slower than one alone (shared caches, memory bandwidth, a host's siblings), so
`-j N` is judged against that ceiling, not against N.

  Benchmarks/scripts/threads_speedup.py --turnstile .build/release/turnstile
  Benchmarks/scripts/threads_speedup.py --mib 64 --runs 3      # quick
"""
import argparse, filecmp, os, random, resource, statistics, subprocess, sys, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(os.path.dirname(ROOT), "shared")


def prepare(dirname, mib):
    os.makedirs(dirname, exist_ok=True)
    src = os.path.join(SHARED, "corpora/rebar/opensubtitles/en-sampled.txt")
    if not os.path.exists(src):
        sys.exit(f"threads_speedup: {src} is missing (the shared corpora are needed)")
    data = open(src, "rb").read()
    path = os.path.join(dirname, f"hay{mib}")
    want = mib << 20
    if not os.path.exists(path) or os.path.getsize(path) != want:
        with open(path, "wb") as f:
            while want > 0:
                f.write(data[:want])
                want -= min(want, len(data))
    words = os.path.join(dirname, "words1000")
    if not os.path.exists(words):
        dictionary = open(os.path.join(SHARED, "corpora/rebar/dictionary/english/sorted.txt"), "rb").read()
        ascii_words = [w for w in dictionary.split(b"\n") if w and w.isascii()]
        open(words, "wb").write(b"\n".join(random.Random(8).sample(ascii_words, 1000)) + b"\n")
    return path, words


def run(cmd, out):
    """(wall seconds, cpu seconds) of one run writing to `out`."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    with open(out, "wb") as f:
        p = subprocess.run(cmd, stdout=f, stderr=subprocess.PIPE)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        sys.exit(f"threads_speedup: {' '.join(cmd)} failed ({p.returncode}): {p.stderr.decode(errors='replace')}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def split(hay, parts):
    """`hay` cut at line ends into `parts` files of about equal size (made once)."""
    names = [f"{hay}.part{k}of{parts}" for k in range(parts)]
    if all(os.path.exists(n) for n in names):
        return names
    data = open(hay, "rb").read()
    start = 0
    for k, name in enumerate(names):
        end = len(data) if k == parts - 1 else data.index(b"\n", (len(data) * (k + 1)) // parts) + 1
        open(name, "wb").write(data[start:end])
        start = end
    return names


def run_concurrently(cmds, outs):
    """(wall seconds until the last ends, summed cpu seconds) of processes started together."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    files = [open(o, "wb") for o in outs]
    procs = [subprocess.Popen(c, stdout=f, stderr=subprocess.PIPE) for c, f in zip(cmds, files)]
    for p in procs:
        p.wait()
    wall = time.perf_counter() - t0
    for f in files:
        f.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    for c, p in zip(cmds, procs):
        if p.returncode not in (0, 1):
            sys.exit(f"threads_speedup: {' '.join(c)} failed ({p.returncode}): {p.stderr.read().decode(errors='replace')}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--turnstile", default=os.path.join(ROOT, ".build/release/turnstile"))
    ap.add_argument("--mib", type=int, default=1024)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--dir", default="/tmp/turnstile-bench")
    args = ap.parse_args()

    hay, words = prepare(args.dir, args.mib)
    size = os.path.getsize(hay)
    workloads = [("built-in list", ["filter"]), ("1,000 words -F -i -w", ["filter", "-F", "-i", "-w", "-f", words])]
    print(f"haystack {size / 2**20:.0f} MiB, runs {args.runs}, load before: {os.getloadavg()}", flush=True)
    print(f"{'workload':24} {'-j':>3} {'wall s':>8} {'MB/s':>8} {'cpu s':>8} {'speed-up':>9}")
    for name, cmd in workloads:
        walls = {1: [], args.threads: []}
        cpus = {1: [], args.threads: []}
        reference = os.path.join(args.dir, "out-1")
        for _ in range(args.runs):
            for j in (1, args.threads):
                out = os.path.join(args.dir, f"out-{j}")
                wall, cpu = run([args.turnstile] + cmd + ["-j", str(j), hay], out)
                walls[j].append(wall)
                cpus[j].append(cpu)
                if j != 1 and not filecmp.cmp(reference, out, shallow=False):
                    sys.exit(f"threads_speedup: {name}: -j {j} output differs from -j 1")
        parts = split(hay, args.threads)
        control_walls, control_cpus = [], []
        for _ in range(args.runs):
            outs = [os.path.join(args.dir, f"out-part{k}") for k in range(args.threads)]
            wall, cpu = run_concurrently([[args.turnstile] + cmd + ["-j", "1", part] for part in parts], outs)
            control_walls.append(wall)
            control_cpus.append(cpu)
            joined = b"".join(open(o, "rb").read() for o in outs)
            if joined != open(reference, "rb").read():
                sys.exit(f"threads_speedup: {name}: the parts' outputs joined differ from -j 1")
        base = statistics.median(walls[1])
        for j in (1, args.threads):
            w = statistics.median(walls[j])
            print(f"{name:24} {j:>3} {w:8.2f} {size / 1e6 / w:8.1f} {statistics.median(cpus[j]):8.2f} {base / w:8.2f}x",
                  flush=True)
        w = statistics.median(control_walls)
        print(f"{'  ' + str(args.threads) + ' processes, 1/' + str(args.threads) + ' each':24} {1:>3} {w:8.2f} "
              f"{size / 1e6 / w:8.1f} {statistics.median(control_cpus):8.2f} {base / w:8.2f}x  (the machine's ceiling)",
              flush=True)
    print(f"load after: {os.getloadavg()}")


if __name__ == "__main__":
    main()
