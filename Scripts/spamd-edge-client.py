#!/usr/bin/env python3
"""The edges of spamd's protocol against a running `turnstile serve` (issue 27).

Usage: spamd-edge-client.py HOST PORT SERVER_PID [--read-timeout SECONDS] [--max-size BYTES]

Each case sends what a broken, slow or hostile client sends and checks the answer
spamd's rules give; after every case the server must still answer PING. The server
must be started with the same --read-timeout and --max-size. Prints one line per
failed case and closes with 'N passed, M failed' (exit status 1 on a failure). Every
loop is bounded in count and time; only HOST (loopback) is contacted.
"""
import os
import socket
import sys
import threading
import time

HOST, PORT, PID = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
READ_TIMEOUT = float(sys.argv[sys.argv.index("--read-timeout") + 1]) if "--read-timeout" in sys.argv else 2.0
MAX_SIZE = int(sys.argv[sys.argv.index("--max-size") + 1]) if "--max-size" in sys.argv else 512000

MESSAGE = b"From: a@example.org\r\nSubject: lunch\r\n\r\nSee you at noon.\r\n"
passed, failed = 0, 0


def connect(timeout=30):
    s = socket.create_connection((HOST, PORT), timeout=timeout)
    return s


def read_all(s):
    chunks = []
    while True:
        try:
            b = s.recv(65536)
        except ConnectionResetError:
            chunks.append(b"<reset>")
            break
        if not b:
            break
        chunks.append(b)
    return b"".join(chunks)


def exchange(data, half_close=True, timeout=30):
    s = connect(timeout)
    s.sendall(data)
    if half_close:
        s.shutdown(socket.SHUT_WR)
    out = read_all(s)
    s.close()
    return out


def request(method, body, extra=b""):
    return b"%s SPAMC/1.5\r\nContent-length: %d\r\n%s\r\n" % (method, len(body), extra) + body


def rss_kib():
    with open("/proc/%d/status" % PID) as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


def check(name, ok, detail=""):
    global passed, failed
    alive = exchange(b"PING SPAMC/1.5\r\n\r\n") == b"SPAMD/1.5 0 PONG\r\n"
    if ok and alive:
        passed += 1
    else:
        failed += 1
        print("FAIL %s: %s%s" % (name, detail, "" if alive else " (and the server stopped answering PING)"))


def starts(got, prefix):
    return got.startswith(prefix)


# A well-formed CHECK, for reference.
got = exchange(request(b"CHECK", MESSAGE))
check("check", starts(got, b"SPAMD/1.1 0 EX_OK\r\nSpam: False ; "), got)

# Garbage: an HTTP request, binary bytes, an empty connection.
got = exchange(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n")
check("http", got == b"SPAMD/1.0 76 Bad header line: GET / HTTP/1.1\r\n", got)
got = exchange(bytes(range(256)) * 4)
check("binary", starts(got, b"SPAMD/1.0 76 Bad header line: "), got[:80])
got = exchange(b"")
check("empty", got == b"SPAMD/1.0 76 Bad header line: (closed before headers)\r\n", got)
got = exchange(b"CHECK SPAMC/1.5\r\nContent-length: 1x\r\n\r\n")
check("bad length", got == b"SPAMD/1.0 76 Bad header line: (Content-Length contains non-numeric bytes)\r\n", got)
got = exchange(b"CHECK SPAMC/1.5\r\nno colon\r\n\r\n")
check("bad header", got == b"SPAMD/1.0 76 Bad header line: (header not in 'Name: value' format)\r\n", got)

# Half requests: the input ends inside the headers, or before Content-length bytes.
got = exchange(b"CHECK SPAMC/1.5\r\nContent-length: 10\r\n")
check("eof in headers", got == b"SPAMD/1.0 76 Bad header line: (EOF during headers)\r\n", got)
got = exchange(b"CHECK SPAMC/1.5\r\nContent-length: 100\r\n\r\nshort")
check("short body", got == b"SPAMD/1.0 76 Bad header line: (Content-Length mismatch: Expected 100 bytes, got 5 bytes)\r\n", got)

# Oversized request headers (a header line longer than the limit, sent without end).
got = exchange(b"CHECK SPAMC/1.5\r\nX-Pad: " + b"a" * 100000 + b"\r\n\r\n")
check("long header", starts(got, b"SPAMD/1.0 76 Bad header line: (request header longer than"), got[:100])
got = exchange(b"A" * 100000)
check("long first line", starts(got, b"SPAMD/1.0 76 Bad header line: (request header longer than"), got[:100])

# Slow loris: requests that stall are answered EX_TIMEOUT after the read timeout, and
# a normal request is answered meanwhile.
def stall(results, i):
    try:
        s = connect(READ_TIMEOUT * 4 + 10)
        s.sendall(b"CHECK SPAMC/1.5\r\nContent-len")
        results[i] = read_all(s)
        s.close()
    except OSError as e:
        results[i] = repr(e).encode()

results = [None] * 50
threads = [threading.Thread(target=stall, args=(results, i)) for i in range(50)]
for t in threads:
    t.start()
time.sleep(0.2)
t0 = time.monotonic()
got = exchange(request(b"CHECK", MESSAGE))
quick = time.monotonic() - t0
check("answered beside slow clients", starts(got, b"SPAMD/1.1 0 EX_OK") and quick < READ_TIMEOUT, "%r in %.2fs" % (got, quick))
for t in threads:
    t.join(READ_TIMEOUT * 4 + 15)
timeouts = sum(1 for r in results if r and r.startswith(b"SPAMD/1.0 79 Timeout: "))
check("slow clients timed out", timeouts == 50, "%d of 50 got EX_TIMEOUT: %r" % (timeouts, results[0]))

# Oversized messages: CHECK judges the first MAX_SIZE bytes, the rest is read and dropped;
# PROCESS passes the rest on unchanged, while the client is still sending.
big = MESSAGE + b"x" * (MAX_SIZE * 8) + b"\r\n"
got = exchange(request(b"CHECK", big))
check("oversized check", starts(got, b"SPAMD/1.1 0 EX_OK\r\nSpam: "), got[:80])

def process_streaming(body):
    s = connect()
    out = []
    reader = threading.Thread(target=lambda: out.append(read_all(s)))
    reader.start()
    s.sendall(request(b"PROCESS", body))
    s.shutdown(socket.SHUT_WR)
    reader.join(60)
    s.close()
    return out[0] if out else b""

got = process_streaming(big)
head, _, rest = got.partition(b"\r\n\r\n")
length = int(head.split(b"Content-length: ")[1].split(b"\r\n")[0]) if b"Content-length: " in head else -1
ok = (len(rest) == length and rest.endswith(b"x" * 1000 + b"\r\n") and b"X-Spam-Status: " in rest
      and rest.replace(rest[rest.index(b"X-Spam-"):rest.index(b"\r\n\r\n") + 2], b"") == big)
check("oversized process", ok, "head %r, %d bytes of %d" % (head, len(rest), length))

# Many connections at once, each a whole CHECK.
def many(n):
    socks = []
    for _ in range(n):
        s = connect(60)
        socks.append(s)
    for s in socks:
        s.sendall(request(b"CHECK", MESSAGE))
        s.shutdown(socket.SHUT_WR)
    answers = [read_all(s) for s in socks]
    for s in socks:
        s.close()
    return answers

answers = many(1000)
okc = sum(1 for a in answers if a.startswith(b"SPAMD/1.1 0 EX_OK\r\nSpam: False"))
check("1000 concurrent connections", okc == 1000, "%d of 1000 answered" % okc)

rss = rss_kib()
# Under AddressSanitizer (`make test-asan` sets TURNSTILE_SANITIZER) the server's RSS
# also holds ASan's shadow memory and its 256 MB quarantine of freed blocks: 442 MB
# after the 1,000 connections in the 2026-11-26 run. The bound is then 4 times larger.
limit_kib = 300 * 1024 * (4 if os.environ.get("TURNSTILE_SANITIZER") == "address" else 1)
check("memory bounded", 0 < rss < limit_kib, "VmRSS %d KiB (bound %d KiB)" % (rss, limit_kib))

print("%d passed, %d failed" % (passed, failed))
sys.exit(1 if failed else 0)
