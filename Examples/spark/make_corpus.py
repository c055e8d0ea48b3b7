#!/usr/bin/env python3
"""Writes a deterministic corpus of records for the Spark example and `make test-spark`.

Each record mixes the words of the sample messages (Corpora/messages/sample.txt, spam
and ham alike) with the curated spam phrases, and carries its own number, so the same
seed always gives the same bytes and a lost or duplicated record changes the sorted
output. Records are lines (`--delimiter line`) or several lines each, ended by NUL
(`--delimiter nul`), like whole messages.

    make_corpus.py --records 1000000 --seed 17 > corpus.txt
"""
import argparse
import os
import random
import sys

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..")


def words_of(path, comments=False):
    """The lines of a text file, skipping '#' comment lines when `comments`."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return [line.strip() for line in f if line.strip() and not (comments and line.startswith("#"))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--records", type=int, default=1_000_000)
    parser.add_argument("--seed", type=int, default=17)
    parser.add_argument("--delimiter", choices=["line", "nul"], default="line")
    args = parser.parse_args()

    messages = words_of("Corpora/messages/sample.txt")
    phrases = words_of("Corpora/spam/curated-phrases.txt", comments=True)
    words = sorted({w for m in messages for w in m.split()})
    rng = random.Random(args.seed)
    out = sys.stdout.buffer
    batch = []
    for n in range(args.records):
        parts = [f"#{n}"]
        if rng.random() < 0.5:
            parts.append(rng.choice(messages))
        parts.extend(rng.choice(words) for _ in range(rng.randint(2, 12)))
        if rng.random() < 0.15:
            parts.insert(rng.randint(1, len(parts)), rng.choice(phrases))
        if args.delimiter == "line":
            batch.append(" ".join(parts) + "\n")
        else:
            # A message of a few lines: header-like first line, then the text.
            cut = rng.randint(1, len(parts))
            batch.append(f"Subject: {' '.join(parts[:cut])}\n\n{' '.join(parts[cut:])}\n\0")
        if len(batch) >= 10_000:
            out.write("".join(batch).encode("utf-8"))
            batch.clear()
    out.write("".join(batch).encode("utf-8"))


if __name__ == "__main__":
    main()
