#!/usr/bin/env python3
"""Mail spam filters side by side on one stratified 5-fold split (issue 14).

For each fold, every system is trained on the other four folds and judges the fold's
messages; the figures are pooled over the folds: precision, recall, F1, ham blocked
(false positives / ham) and messages per second of CPU time while judging (training
excluded). Spam is the positive class.

Systems:
  turnstile        `turnstile train --format mbox` (the settings of
                   Scripts/train-default-mail-list.sh unless --train-args) then
                   `turnstile filter --format mbox --json`
  bogofilter       `bogofilter -M -s/-n` to train, `bogofilter -M -t -v` over the fold's mbox
                   (spam = "S"; also reported with "S or U" as spam)
  spamassassin     spamd on loopback with -L (and -x), Bayes trained with `sa-learn
                   --mbox` per fold, `spamc -c` per message; its messages/s is wall time
                   (spamd judges in its own processes), with one spamd child
A peer that is not installed is skipped with a message.

Usage:
  Benchmarks/scripts/mail_quality.py [--spam S.mbox] [--ham H.mbox] [--folds 5] [--seed 1]
      [--turnstile PATH] [--train-args '...'] [--only turnstile,bogofilter,spamassassin] [--sweep]
      [--sample 0.35]
Defaults: ../shared/corpora/spamassassin/{spam,ham}.mbox beside the checkout and the
release build .build/release/turnstile. turnstile's messages/s include its start-up
(parsing the trained list and building its automata, about 40 ms per fold). --sweep also prints turnstile's pooled
out-of-fold figures at other thresholds (score minus the fold's own threshold).
"""
import argparse, json, os, random, re, resource, shutil, subprocess, sys, tempfile, time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.path.join(os.path.dirname(ROOT), "shared", "corpora", "spamassassin")
DEFAULT_TRAIN = "--top 5000 --min-count 2 --smoothing 1 --threshold-above 0"


def messages(path):
    """The messages of an mbox file, bytes, split at `From ` lines."""
    data = open(path, "rb").read()
    starts = [0] + [m.start() + 1 for m in re.finditer(rb"\nFrom ", data)]
    return [data[a:b] for a, b in zip(starts, starts[1:] + [len(data)]) if data[a:b]]


def folds_of(n, folds, rng):
    order = list(range(n))
    rng.shuffle(order)
    fold = [0] * n
    for k, i in enumerate(order):
        fold[i] = k % folds
    return fold


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


class Pool:
    """Pooled confusion counts and judging CPU time."""
    def __init__(self):
        self.tp = self.fp = self.tn = self.fn = 0
        self.cpu = 0.0
        self.messages = 0

    def add(self, is_spam, judged):
        if is_spam and judged: self.tp += 1
        elif is_spam: self.fn += 1
        elif judged: self.fp += 1
        else: self.tn += 1

    def row(self, name):
        p = self.tp / (self.tp + self.fp) if self.tp + self.fp else 0
        r = self.tp / (self.tp + self.fn) if self.tp + self.fn else 0
        f = 2 * self.tp / (2 * self.tp + self.fp + self.fn) if self.tp else 0
        ham = self.fp + self.tn
        rate = self.messages / self.cpu if self.cpu > 0 else float("nan")
        return f"| {name} | {p:.3f} | {r:.3f} | {f:.3f} | {100 * self.fp / ham:.2f} % | {rate:,.0f} |"


def run_turnstile(binary, train_args, work, train_spam, train_ham, test, labels, pool, sweep):
    listfile = os.path.join(work, "list.tsv")
    subprocess.run([binary, "train", "--format", "mbox", "--spam", train_spam, "--ham", train_ham, "-o", listfile]
                   + train_args.split(), check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    threshold = open(listfile).readline().split()[-1]
    before = child_cpu()
    out = subprocess.run([binary, "filter", "--format", "mbox", "--json", "--threads", "1", "-F", "-w", "-i",
                          "--rules", listfile, f"--threshold={threshold}", test],
                         capture_output=True, check=False).stdout
    pool.cpu += child_cpu() - before
    results = [json.loads(line) for line in out.splitlines()]
    assert len(results) == len(labels), (len(results), len(labels))
    for r, is_spam in zip(results, labels):
        pool.add(is_spam, r["spam"])
        sweep.append((r["score"] - float(threshold), is_spam))
    pool.messages += len(labels)


def run_bogofilter(work, train_spam, train_ham, test_path, labels, pools):
    db = os.path.join(work, "bogo")
    os.makedirs(db, exist_ok=True)
    subprocess.run(["bogofilter", "-d", db, "-M", "-s", "-I", train_spam], check=True)
    subprocess.run(["bogofilter", "-d", db, "-M", "-n", "-I", train_ham], check=True)
    before = child_cpu()
    # -M: the input is an mbox; -t -v: one "S|H|U score" line per message.
    out = subprocess.run(["bogofilter", "-d", db, "-M", "-t", "-v", "-I", test_path],
                         capture_output=True).stdout.decode().splitlines()
    cpu = child_cpu() - before
    verdicts = [line.split()[0] for line in out]
    assert len(verdicts) == len(labels), (len(verdicts), len(labels))
    for key, spam_set in (("S", {"S"}), ("S or U", {"S", "U"})):
        for v, is_spam in zip(verdicts, labels):
            pools[key].add(is_spam, v in spam_set)
        pools[key].cpu += cpu
        pools[key].messages += len(labels)
    shutil.rmtree(db)


def sbin_which(name):
    return shutil.which(name, path=os.environ.get("PATH", "") + ":/usr/sbin:/usr/local/sbin:/sbin")


def run_spamassassin(work, train_spam, train_ham, test_messages, labels, pool, port="17830"):
    """spamd on loopback (-L: local tests only, -x: no user config), Bayes trained
    with sa-learn --mbox into a database of this fold, spamc -c per message."""
    bayes = os.path.join(work, "sa-bayes")
    os.makedirs(bayes, exist_ok=True)
    os.chmod(work, 0o755)   # spamd's children run as nobody and read the database
    os.chmod(bayes, 0o777)
    cf = ["--cf", f"bayes_path {bayes}/bayes", "--cf", "bayes_file_mode 0666", "--cf", "bayes_auto_learn 0"]
    for flag, path in (("--spam", train_spam), ("--ham", train_ham)):
        subprocess.run(["sa-learn", "-L", "--dbpath", f"{bayes}/bayes"] + cf + [flag, "--mbox", path],
                       check=True, capture_output=True)
    user = ["-u", "nobody"] if os.geteuid() == 0 else []
    spamd = subprocess.Popen([sbin_which("spamd"), "-x", "-L", "-i", "127.0.0.1", "-p", port, "-m", "1"] + user + cf,
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(120):
            if subprocess.run(["spamc", "-d", "127.0.0.1", "-p", port, "-K"], capture_output=True).returncode == 0:
                break
            time.sleep(0.5)
        start = time.time()
        for m, is_spam in zip(test_messages, labels):
            r = subprocess.run(["spamc", "-d", "127.0.0.1", "-p", port, "-c"], input=m, capture_output=True)
            pool.add(is_spam, r.returncode == 1)   # spamc -c exits 1 for spam
        # spamd works in its own processes: count wall time for it.
        pool.cpu += time.time() - start
        pool.messages += len(labels)
    finally:
        spamd.terminate()
        spamd.wait()
        shutil.rmtree(bayes, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spam", default=os.path.join(SHARED, "spam.mbox"))
    ap.add_argument("--ham", default=os.path.join(SHARED, "ham.mbox"))
    ap.add_argument("--folds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--turnstile", default=os.path.join(ROOT, ".build", "release", "turnstile"))
    ap.add_argument("--train-args", default=DEFAULT_TRAIN)
    ap.add_argument("--only", default="turnstile,bogofilter,spamassassin")
    ap.add_argument("--sweep", action="store_true")
    ap.add_argument("--sample", type=float, default=1.0,
                    help="use this share of each class (drawn with the seed), for a quicker run")
    a = ap.parse_args()
    for path in (a.spam, a.ham):
        if not os.path.exists(path):
            sys.exit(f"skipped: {path} not found (see ../shared/corpora/SOURCES.md)")
    rng = random.Random(a.seed)
    spam, ham = messages(a.spam), messages(a.ham)
    if a.sample < 1:
        spam = rng.sample(spam, max(a.folds, int(len(spam) * a.sample)))
        ham = rng.sample(ham, max(a.folds, int(len(ham) * a.sample)))
    spam_fold, ham_fold = folds_of(len(spam), a.folds, rng), folds_of(len(ham), a.folds, rng)
    systems = a.only.split(",")
    if "turnstile" in systems and not os.access(a.turnstile, os.X_OK):
        print(f"skipped turnstile: {a.turnstile} not built (swift build -c release)", file=sys.stderr)
        systems.remove("turnstile")
    for peer, exe in (("bogofilter", "bogofilter"), ("spamassassin", "spamd")):
        if peer in systems and sbin_which(exe) is None:
            print(f"skipped {peer}: '{exe}' is not installed", file=sys.stderr)
            systems.remove(peer)
    pools = {"turnstile": Pool(), "S": Pool(), "S or U": Pool(), "spamassassin": Pool()}
    sweep = []
    with tempfile.TemporaryDirectory(prefix="mail-quality-") as work:
        for k in range(a.folds):
            paths = {}
            for name, items in (("train_spam", [m for m, f in zip(spam, spam_fold) if f != k]),
                                ("train_ham", [m for m, f in zip(ham, ham_fold) if f != k])):
                paths[name] = os.path.join(work, name + ".mbox")
                open(paths[name], "wb").write(b"".join(items))
            test = [(m, True) for m, f in zip(spam, spam_fold) if f == k] + \
                   [(m, False) for m, f in zip(ham, ham_fold) if f == k]
            test_path = os.path.join(work, "test.mbox")
            open(test_path, "wb").write(b"".join(m for m, _ in test))
            labels = [s for _, s in test]
            if "turnstile" in systems:
                run_turnstile(a.turnstile, a.train_args, work, paths["train_spam"], paths["train_ham"], test_path,
                              labels, pools["turnstile"], sweep)
            if "bogofilter" in systems:
                run_bogofilter(work, paths["train_spam"], paths["train_ham"], test_path, labels, pools)
            if "spamassassin" in systems:
                run_spamassassin(work, paths["train_spam"], paths["train_ham"], [m for m, _ in test], labels,
                                 pools["spamassassin"])
            print(f"fold {k + 1}/{a.folds} done", file=sys.stderr)
    print(f"{a.folds}-fold cross-validation (seed {a.seed}) on {len(spam)} spam and {len(ham)} ham messages\n")
    print("| system | precision | recall | F1 | ham blocked | messages/s (CPU) |")
    print("|---|--:|--:|--:|--:|--:|")
    if "turnstile" in systems: print(pools["turnstile"].row(f"turnstile ({a.train_args})"))
    if "bogofilter" in systems:
        print(pools["S"].row('bogofilter (spam = "S")'))
        print(pools["S or U"].row('bogofilter (spam = "S" or "U")'))
    if "spamassassin" in systems:
        print(pools["spamassassin"].row("SpamAssassin (stock rules -L, Bayes; spamd + spamc; messages/s wall)"))
    if a.sweep and sweep:
        print("\nturnstile, pooled out-of-fold, threshold shifted by d from each fold's own:")
        for d in (-10, -5, -2, 0, 2, 5, 10, 15, 20):
            p = Pool()
            for score, is_spam in sweep:
                p.add(is_spam, score >= d)
            print(f"  d={d:+}: " + p.row("").split("|", 2)[2])


if __name__ == "__main__":
    main()
