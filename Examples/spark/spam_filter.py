#!/usr/bin/env python3
"""Splits a corpus into spam and clean records with `turnstile filter` on Spark.

The rules are compiled once (`turnstile compile -o rules.tsa`); the saved automaton is
the only thing the executors share, a read-only file shipped with `--files` (or
`SparkContext.addFile`) and found on each executor with `SparkFiles.get`. Every
partition pipes its records through one `turnstile filter --automaton rules.tsa`
process, which is stateless, so partitions can run anywhere in any order.

    spark-submit --master 'local[4]' --files rules.tsa spam_filter.py \\
        --input corpus.txt --output out --partitions 4
    # out/spam/part-*   the spam records     out/clean/part-*   the clean ones

`--delimiter line` (the default) reads one record per line; `--delimiter nul` reads
NUL-terminated records (whole messages of several lines) and pipes them NUL-delimited.
`--delimiter mbox` reads NUL-terminated e-mail messages, each in mbox form (its `From `
line first), pipes them as one mbox stream to `turnstile filter --format mbox` (which
decodes MIME and passes every message through byte for byte), and cuts the output back
into messages at its `From ` lines.
"""
import re
import argparse
import os
import subprocess
import threading

from pyspark import SparkContext, SparkFiles

NEWLINE_HADOOP_FORMAT = "org.apache.hadoop.mapreduce.lib.input.TextInputFormat"
# The start of an mbox message: `From ` at the start of a line (the newline before it).
MBOX_FROM_LINE = re.compile(rb"\nFrom ")


def pipe_through_turnstile(turnstile, ship_binary, automaton_name, mode_args, delimiter):
    """A mapPartitions function: one `turnstile filter` process per partition.

    Like `RDD.pipe`, but it finds the automaton with `SparkFiles.get` on the executor,
    frames records with the delimiter turnstile reads (newline or NUL), and accepts
    exit status 1 ("no spam in this partition") while any other failure fails the task.
    """
    sep = {"line": "\n", "nul": "\0", "mbox": ""}[delimiter]
    framing = ["--format", "mbox"] if delimiter == "mbox" else ["--delimiter", delimiter]

    def run(records):
        automaton = SparkFiles.get(automaton_name)
        binary = SparkFiles.get(turnstile) if ship_binary else turnstile
        command = [binary, "filter", "--automaton", automaton, *framing, *mode_args]
        process = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        failure = []

        def feed():
            try:
                for record in records:
                    process.stdin.write((record + sep).encode("utf-8"))
            except BrokenPipeError as error:  # turnstile died; its exit status says why
                failure.append(error)
            finally:
                try:
                    process.stdin.close()
                except BrokenPipeError:
                    pass

        writer = threading.Thread(target=feed, daemon=True)
        writer.start()
        pending = b""
        for chunk in iter(lambda: process.stdout.read(1 << 16), b""):
            pending += chunk
            if delimiter == "mbox":
                # A message ends where the next one's `From ` line starts.
                starts = [m.start() + 1 for m in MBOX_FROM_LINE.finditer(pending)]
                complete = [pending[a:b] for a, b in zip([0] + starts, starts)] if starts else []
                pending = pending[starts[-1]:] if starts else pending
                complete = [m for m in complete if m]
            else:
                *complete, pending = pending.split(sep.encode())
            for record in complete:
                yield record.decode("utf-8")
        if delimiter == "mbox" and pending:
            yield pending.decode("utf-8")
            pending = b""
        writer.join()
        status = process.wait()
        if status not in (0, 1) or failure or pending:
            raise RuntimeError(f"{' '.join(command)} exited with status {status}")

    return run


def read_records(sc, path, delimiter, partitions):
    """The records of `path`: lines, or NUL-terminated records (Hadoop's own splitter
    keeps every record whole across partition boundaries)."""
    if delimiter == "line":
        return sc.textFile(path, minPartitions=partitions)
    records = sc.newAPIHadoopFile(
        path, NEWLINE_HADOOP_FORMAT, "org.apache.hadoop.io.LongWritable", "org.apache.hadoop.io.Text",
        conf={"textinputformat.record.delimiter": "\0"})
    return records.map(lambda pair: pair[1]).repartition(partitions)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--input", required=True, help="the corpus (any path Spark can read)")
    parser.add_argument("--output", required=True, help="writes OUTPUT/spam and OUTPUT/clean")
    parser.add_argument("--automaton", default="rules.tsa",
                        help="the saved automaton; a local path is shipped with addFile, "
                             "a bare name is taken from spark-submit --files (default rules.tsa)")
    parser.add_argument("--turnstile", default="turnstile",
                        help="the turnstile binary on every executor, or the name of one shipped with --files")
    parser.add_argument("--partitions", type=int, default=4)
    parser.add_argument("--delimiter", choices=["line", "nul", "mbox"], default="line")
    parser.add_argument("--threshold", help="passed to turnstile filter (default: the automaton's)")
    args = parser.parse_args()

    sc = SparkContext(appName="turnstile-filter")
    name = os.path.basename(args.automaton)
    shipped = [os.path.basename(f) for f in sc.getConf().get("spark.files", "").split(",") if f]
    if name not in shipped:
        sc.addFile(os.path.abspath(args.automaton))  # not given to spark-submit --files
    records = read_records(sc, args.input, args.delimiter, args.partitions).cache()
    out_sep = "\n" if args.delimiter == "line" else "\0"  # mbox: one message per NUL record
    threshold = ["--threshold", args.threshold] if args.threshold else []
    for mode, mode_args in (("spam", ["--spam"]), ("clean", [])):
        judged = records.mapPartitions(
            pipe_through_turnstile(args.turnstile, args.turnstile in shipped, name, mode_args + threshold, args.delimiter))
        if args.delimiter == "line":
            judged.saveAsTextFile(os.path.join(args.output, mode))
        else:
            # One NUL-terminated record after another, so multi-line records stay whole.
            judged.map(lambda r: r + out_sep).saveAsTextFile(os.path.join(args.output, mode))
    print(f"partitions {records.getNumPartitions()}, records {records.count()}")
    sc.stop()


if __name__ == "__main__":
    main()
