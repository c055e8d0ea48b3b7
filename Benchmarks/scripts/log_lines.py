"""Printing matching lines of a large log, whole process: `grep ERROR big.log` (and `-c`,
`-n`) through a link named grep, against GNU grep and rg, output to a pipe, medians of 5.

usage: log_lines.py BINARY [LOG]
The log (100 MB, fixed seed, one line in about 1,000 an ERROR) is written to
$TMPDIR/turnstile-big.log when LOG is not given. Exits 0 when every output equals GNU grep's.
"""
import os, random, statistics, subprocess, sys, tempfile, time

binary = os.path.abspath(sys.argv[1])
log = sys.argv[2] if len(sys.argv) > 2 else os.path.join(tempfile.gettempdir(), "turnstile-big.log")
if not os.path.exists(log):
    rng = random.Random(20261202)
    levels = ["INFO"] * 700 + ["DEBUG"] * 250 + ["WARN"] * 49 + ["ERROR"]
    words = "request served user session cache miss hit backend timeout retry queue worker job done started".split()
    with open(log, "w") as f:
        size, n = 0, 0
        while size < 100_000_000:
            line = "2026-12-02T%02d:%02d:%02d.%03dZ %-5s [%s] %s id=%d\n" % (
                n // 3600000 % 24, n // 60000 % 60, n // 1000 % 60, n % 1000, rng.choice(levels),
                rng.choice(words), " ".join(rng.choice(words) for _ in range(rng.randint(3, 12))), rng.randint(0, 1 << 30))
            f.write(line); size += len(line); n += 1
d = tempfile.mkdtemp(); link = os.path.join(d, "grep"); os.symlink(binary, link)
env = dict(os.environ, LC_ALL="en_US.UTF-8")
ok = True
for args in (["ERROR"], ["-c", "ERROR"], ["-n", "ERROR"]):
    cmds = {"turnstile": [link] + args + [log], "grep": ["/usr/bin/grep"] + args + [log],
            "rg": ["rg", "--no-config", "--no-filename"] + args + [log]}
    times = {k: [] for k in cmds}; out = {}
    for k, c in cmds.items():
        out[k] = subprocess.run(c, capture_output=True, env=env).stdout
    for _ in range(5):
        for k, c in cmds.items():
            t = time.perf_counter(); subprocess.run(c, stdout=subprocess.PIPE, env=env); times[k].append(time.perf_counter() - t)
    med = {k: statistics.median(v) for k, v in times.items()}
    same = out["turnstile"] == out["grep"]; ok &= same
    print("  grep %-10s turnstile %.3f s  GNU grep %.3f s  rg %.3f s  vs rg %.2f  vs GNU grep %.2f  %s" % (
        " ".join(args), med["turnstile"], med["grep"], med["rg"], med["rg"] / med["turnstile"],
        med["grep"] / med["turnstile"], "output = GNU grep's" if same else "OUTPUT DIFFERS"))
sys.exit(0 if ok else 1)
