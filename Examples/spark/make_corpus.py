#!/usr/bin/env python3
"""Writes a deterministic corpus of records for the Spark example and `make test-spark`.

Each record mixes the words of the sample messages (Corpora/messages/sample.txt, spam
and ham alike) with the curated spam phrases, and carries its own number, so the same
seed always gives the same bytes and a lost or duplicated record changes the sorted
output. Records are lines (`--delimiter line`) or several lines each, ended by NUL
(`--delimiter nul`), like whole messages. `--delimiter mbox` writes e-mail messages,
each in mbox form (its `From ` line first, body lines that start with `From ` quoted
as `>From `), one per NUL-terminated record: Spark reads them as NUL records and
pipes them to `turnstile filter --format mbox`; the same bytes without the NULs are
an mbox file. Messages mix plain text, quoted-printable, base64 and HTML parts.

    make_corpus.py --records 1000000 --seed 17 > corpus.txt
    make_corpus.py --records 20000 --delimiter mbox > corpus.nul   # tr -d '\\0' gives the mbox
"""
import base64
import quopri
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
    parser.add_argument("--delimiter", choices=["line", "nul", "mbox"], default="line")
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
        elif args.delimiter == "mbox":
            batch.append(mail_message(n, parts, rng) + "\0")
        else:
            # A message of a few lines: header-like first line, then the text.
            cut = rng.randint(1, len(parts))
            batch.append(f"Subject: {' '.join(parts[:cut])}\n\n{' '.join(parts[cut:])}\n\0")
        if len(batch) >= 10_000:
            out.write("".join(batch).encode("utf-8"))
            batch.clear()
    out.write("".join(batch).encode("utf-8"))


def mail_message(n, parts, rng):
    """One message in mbox form: the subject from the first words, the rest as the body
    in one of four encodings, and a `From ` body line (quoted) now and then."""
    cut = rng.randint(1, len(parts))
    subject, text = " ".join(parts[:cut]), " ".join(parts[cut:]) or "(empty)"
    if rng.random() < 0.1:
        text += "\n>From the archive: " + text  # mboxrd-quoted body line
    header = (f"From sender{n % 97}@example.org Mon Nov 23 10:{n % 60:02d}:00 2026\n"
              f"From: Sender {n % 97} <sender{n % 97}@example.org>\n"
              f"To: you@example.com\nSubject: {subject}\nMessage-ID: <{n}@example.org>\n"
              "MIME-Version: 1.0\n")
    kind = rng.choice(["plain", "qp", "base64", "html"])
    if kind == "plain":
        return header + f"Content-Type: text/plain; charset=utf-8\n\n{text}\n\n"
    if kind == "qp":
        body = quopri.encodestring(text.encode("utf-8")).decode("ascii")
        return header + ("Content-Type: text/plain; charset=utf-8\n"
                         f"Content-Transfer-Encoding: quoted-printable\n\n{body}\n\n")
    if kind == "base64":
        body = base64.encodebytes(text.encode("utf-8")).decode("ascii")
        return header + ("Content-Type: text/plain; charset=utf-8\n"
                         f"Content-Transfer-Encoding: base64\n\n{body}\n")
    html = text.replace("\n", "<br>").replace(">From", "&gt;From")
    return header + (f'Content-Type: multipart/alternative; boundary="b{n}"\n\n'
                     f"--b{n}\nContent-Type: text/html; charset=utf-8\n\n"
                     f"<html><body><p>{html}</p><a href=\"http://example.net/{n}\">more</a></body></html>\n"
                     f"--b{n}--\n\n")


if __name__ == "__main__":
    main()
