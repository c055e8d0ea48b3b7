#!/usr/bin/env python3
"""The mail hostile set (issue 23) for Fuzz/hostile-cli.sh: makes the messages and
checks what `filter --tag`, `--spam-to` and `--move-spam-to` did with them.

  hostile-mail.py make DIR SCALE        messages as DIR/eml/NAME, DIR/all.mbox, DIR/Maildir
  hostile-mail.py tagged IN OUT [ERR]   OUT is IN plus inserted X-Spam fields only (one message;
                                        or IN unchanged when ERR says it was written untagged)
  hostile-mail.py tagged-mbox IN OUT [ERR]  the same for every message of an mbox
  hostile-mail.py split MBOX JSON OUT PRIOR SPAMTO
                                        OUT is the clean messages and SPAMTO is PRIOR then
                                        the spam messages, by the verdicts of JSON (--json)
  hostile-mail.py moved BEFORE SRC DST  every file of BEFORE (a manifest) is in exactly one
                                        of the Maildirs SRC and DST, byte for byte
"""
import base64, hashlib, json, os, random, re, sys

FROM_LINE = b"From hostile@example.invalid  Thu Jan  1 00:00:00 2002\n"


def messages(scale):
    rng = random.Random(23)
    mib = 1 << 20
    attachment = base64.encodebytes(bytes(rng.getrandbits(8) for _ in range(64 * 1024)) * max(1, (30 * mib // scale * 3 // 4) // (64 * 1024)))
    nested = b"Subject: nested\nContent-Type: multipart/mixed; boundary=b0\n\n"
    for depth in range(1, 21):
        nested += b"--b%d\nContent-Type: multipart/mixed; boundary=b%d\n\n" % (depth - 1, depth)
    nested += b"--b20\nContent-Type: text/plain\n\nbuy viagra at the bottom\n"
    for depth in range(20, -1, -1):
        nested += b"--b%d--\n" % depth
    return {
        "no-header": b"just some text without any header\nsecond line\n",
        "empty": b"",
        "binary": bytes(rng.getrandbits(8) for _ in range(64 * 1024)),
        "attachment": b"Subject: invoice\nContent-Type: multipart/mixed; boundary=zz\n\n--zz\nContent-Type: text/plain\n\nbuy viagra now\n--zz\nContent-Type: application/octet-stream\nContent-Transfer-Encoding: base64\n\n" + attachment + b"--zz--\n",
        "subject-20mb": b"Subject: " + b"x" * (20 * mib // scale) + b"\n\nbody\n",
        "nesting-20": nested,
        "broken-base64": b"Subject: b64\nContent-Transfer-Encoding: base64\n\n!!!not*base64@@@\n====\n",
        "unknown-charset": b"Subject: cs\nContent-Type: text/plain; charset=x-klingon\n\n\xff\xfe viagra \x80\n",
        "cr-only": b"Subject: cr only\rFrom: a@b.example\r\rbuy viagra\rbye\r",
        "crlf": b"Subject: crlf\r\nFrom: a@b.example\r\n\r\nline one\r\nviagra\r\n",
        "nul": b"Subject: n\x00ul\nX-Null: \x00\x00\n\nbody\x00with viagra\x00\n",
        "no-final-newline": b"Subject: last\n\nno newline at the end",
        "from-in-body": b"Subject: from\n\nhello\nFrom the desk of the editor\nbye\n",
    }


def make(folder, scale):
    msgs = messages(scale)
    os.makedirs(os.path.join(folder, "eml"), exist_ok=True)
    for sub in ("cur", "new", "tmp"):
        os.makedirs(os.path.join(folder, "Maildir", sub), exist_ok=True)
    manifest = {}
    for k, (name, body) in enumerate(msgs.items()):
        open(os.path.join(folder, "eml", name), "wb").write(body)
        # Maildir: half new, half seen in cur/ with flags.
        file = "%d.M%dP23.hostile" % (1000 + k, k) + ("" if k % 2 else ":2,S")
        sub = "new" if k % 2 else "cur"
        open(os.path.join(folder, "Maildir", sub, file), "wb").write(body)
        manifest[sub + "/" + file] = hashlib.sha256(body).hexdigest()
    # mbox: each message after its From line and ended by a line end and an empty
    # line; the one without a final newline last, so the mbox ends without one.
    order = [n for n in msgs if n != "no-final-newline"] + ["no-final-newline"]
    mbox = b""
    for name in order:
        body = msgs[name]
        mbox += FROM_LINE + body
        if name != "no-final-newline":
            mbox += b"\n" if body.endswith(b"\n") else b"\n\n"
    open(os.path.join(folder, "all.mbox"), "wb").write(mbox)
    json.dump(manifest, open(os.path.join(folder, "manifest.json"), "w"))
    print(max(len(m) for m in msgs.values()))


def strip_tags(out, start=0):
    """`out` with the first inserted block (X-Spam-Status, its TAB continuations, an
    X-Spam-Flag: YES) at or after `start` removed, and where it was; None if none."""
    pos = out.find(b"X-Spam-Status: ", start)
    if pos < 0 or not (pos == 0 or out[pos - 1:pos] in (b"\n", b"\r")):
        return None
    def line_end(i):
        m = re.compile(rb"\r\n|\n|\r").search(out, i)
        return m.end() if m else len(out)
    end = line_end(pos)
    while out[end:end + 1] == b"\t":
        end = line_end(end)
    if out.startswith(b"X-Spam-Flag: YES", end):
        end = line_end(end)
    return out[:pos] + out[end:], pos


def untagged_warnings(err):
    """How many messages turnstile said it wrote untagged (a header past the limit)."""
    return open(err, "rb").read().count(b"written untagged") if err else 0


def tagged(inp, out, err=None):
    data, result = open(inp, "rb").read(), open(out, "rb").read()
    if result == data and untagged_warnings(err) == 1:
        return 0  # unchanged, with the warning: what a limit must give
    stripped = strip_tags(result)
    if stripped is None:
        return fail("no X-Spam-Status inserted in %s" % inp)
    if stripped[0] != data:
        return fail("%s: output minus the added fields differs from the input" % inp)
    return 0


def tagged_mbox(inp, out, err=None):
    data, result = open(inp, "rb").read(), open(out, "rb").read()
    count, at = 0, 0
    while True:
        stripped = strip_tags(result, at)
        if stripped is None:
            break
        result, at = stripped
        count += 1
    want = len(mbox_records(data)) - untagged_warnings(err)
    if count != want:
        return fail("%d messages tagged of %d" % (count, want))
    if result != data:
        return fail("mbox output minus the added fields differs from the input")
    return 0


def mbox_records(data):
    """(content, terminator) as the reader cuts an mbox."""
    starts = [0] + [m.end() for m in re.finditer(rb"\n(?=From )", data)]
    records = []
    for k, s in enumerate(starts):
        if k + 1 < len(starts):
            records.append((data[s:starts[k + 1] - 1], b"\n"))
        else:
            last = data[s:]
            records.append((last[:-1], b"\n") if last.endswith(b"\n") else (last, b""))
    return records


def split(mbox, verdicts, out, prior, spam_to):
    records = mbox_records(open(mbox, "rb").read())
    spam = [json.loads(line)["spam"] for line in open(verdicts)]
    if len(spam) != len(records):
        return fail("%d verdicts for %d messages" % (len(spam), len(records)))
    clean = b"".join(c + t for (c, t), s in zip(records, spam) if not s)
    held = b"".join(c + (t or b"\n") for (c, t), s in zip(records, spam) if s)
    if open(out, "rb").read() != clean:
        return fail("standard output is not the clean messages byte for byte")
    if open(spam_to, "rb").read() != open(prior, "rb").read() + held:
        return fail("--spam-to is not its earlier content followed by the spam messages")
    if not any(spam):
        return fail("no message was spam: the check proves nothing")
    return 0


def moved(manifest, src, dst):
    want = json.load(open(manifest))
    seen = {}
    for box in (src, dst):
        for sub in ("cur", "new", "tmp"):
            for name in os.listdir(os.path.join(box, sub)):
                key = sub + "/" + name
                if key in seen:
                    return fail("%s is in both Maildirs" % key)
                seen[key] = hashlib.sha256(open(os.path.join(box, sub, name), "rb").read()).hexdigest()
    if seen != want:
        return fail("the Maildirs hold %d files, not the %d messages as they were" % (len(seen), len(want)))
    moved_count = sum(1 for sub in ("cur", "new") for _ in os.listdir(os.path.join(dst, sub)))
    if moved_count == 0:
        return fail("nothing was moved: the check proves nothing")
    return 0


def fail(message):
    print("  FAIL: " + message)
    return 1


if __name__ == "__main__":
    cmd, args = sys.argv[1], sys.argv[2:]
    if cmd == "make":
        make(args[0], int(args[1]))
        sys.exit(0)
    sys.exit({"tagged": tagged, "tagged-mbox": tagged_mbox, "split": split, "moved": moved}[cmd](*args))
