#!/bin/sh
# make test-postfix (not part of `make test`; needs root): mail delivered through a real
# Postfix content filter on loopback into a Maildir, as the README's recipe sets it up
# (Distribution/turnstile-postfix-filter). A private Postfix instance (its own config
# and queue directories under a temporary directory, smtpd on 127.0.0.1 only, virtual(8)
# delivery into a Maildir) so the machine's own mail system is left alone — but
# installing the postfix package, when it is missing, replaces another MTA (exim4).
# Checks, comparing bytes:
#   1. each message (small, and 2 MB: past spamc's default 500 KB) arrives once, tagged
#      with X-Spam-Status as `spamc -c` judges it, and is otherwise the message sent
#      (Postfix's own Received/Return-Path/Delivered-To fields and our X-Spam-* removed);
#   2. with the daemon down, mail is deferred (in the queue, not delivered, not bounced),
#      and delivered tagged once the daemon is back and the queue is flushed.
#   Scripts/test-postfix.sh TURNSTILE
set -eu
turnstile=$(realpath "${1:?usage: test-postfix.sh TURNSTILE}")
here=$(cd "$(dirname "$0")/.." && pwd)
filter=$here/Distribution/turnstile-postfix-filter
[ "$(id -u)" = 0 ] || { echo "test-postfix: needs root (Postfix's master runs as root)" >&2; exit 1; }
[ -x /usr/sbin/postfix ] || {
    echo "postfix postfix/main_mailer_type select No configuration" | debconf-set-selections
    DEBIAN_FRONTEND=noninteractive apt-get install -y postfix
}
command -v spamc >/dev/null || DEBIAN_FRONTEND=noninteractive apt-get install -y spamc

work=$(mktemp -d /tmp/turnstile-postfix.XXXXXX)
chmod 755 "$work"
conf=$work/etc; mail=$work/mail
mkdir -p "$conf" "$work/queue" "$work/data" "$mail"
chown nobody:nogroup "$mail"
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
smtp_port=$(free_port); spamd_port=$(free_port)
server_pid=
start_server() {
    "$turnstile" serve --listen "127.0.0.1:$spamd_port" --user nobody 2>>"$work/serve.log" &
    server_pid=$!
    for _ in $(seq 100); do grep -q "listening on" "$work/serve.log" 2>/dev/null && return 0; sleep 0.1; done
    echo "test-postfix: turnstile serve did not start: $(cat "$work/serve.log")" >&2; exit 1
}
stop_server() { kill "$server_pid"; wait "$server_pid" || true; : >"$work/serve.log"; }
cleanup() {
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null || true
    postfix -c "$conf" stop >/dev/null 2>&1 || true
    if [ -f "$work/default-main.cf" ]; then cp -p "$work/default-main.cf" /etc/postfix/main.cf
    elif [ -f "$work/made-main.cf" ]; then rm -f /etc/postfix/main.cf
    else postconf -X alternate_config_directories 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT

# The instance: main.cf and master.cf written whole (nothing read from /etc/postfix).
cat >"$conf/main.cf" <<CF
compatibility_level = 3.6
queue_directory = $work/queue
data_directory = $work/data
mail_owner = postfix
setgid_group = postdrop
inet_interfaces = loopback-only
inet_protocols = ipv4
myhostname = postfix-test.invalid
mydestination =
mynetworks = 127.0.0.0/8
relayhost =
alias_maps =
alias_database =
maillog_file = $work/postfix.log
virtual_mailbox_domains = test.invalid
virtual_mailbox_base = $mail
virtual_mailbox_maps = inline:{ {inbox@test.invalid=inbox/} }
virtual_uid_maps = static:$(id -u nobody)
virtual_gid_maps = static:$(id -g nobody)
message_size_limit = 10240000
multi_instance_enable = no
CF
cat >"$conf/master.cf" <<CF
127.0.0.1:$smtp_port inet n - n - - smtpd
  -o content_filter=turnstile:dummy
pickup    unix  n       -       n       60      1       pickup
cleanup   unix  n       -       n       -       0       cleanup
qmgr      unix  n       -       n       300     1       qmgr
rewrite   unix  -       -       n       -       -       trivial-rewrite
bounce    unix  -       -       n       -       0       bounce
defer     unix  -       -       n       -       0       bounce
trace     unix  -       -       n       -       0       bounce
verify    unix  -       -       n       -       1       verify
flush     unix  n       -       n       1000?   0       flush
smtp      unix  -       -       n       -       -       smtp
error     unix  -       -       n       -       -       error
retry     unix  -       -       n       -       -       error
discard   unix  -       -       n       -       -       discard
virtual   unix  -       n       n       -       -       virtual
showq     unix  n       -       n       -       -       showq
postlog   unix-dgram n  -       n       -       1       postlogd
turnstile unix  -       n       n       -       -       pipe
  user=nobody argv=/usr/bin/env SPAMD_PORT=$spamd_port { POSTCONF=/usr/sbin/postconf -c $conf } { SENDMAIL=/usr/sbin/sendmail -C $conf } $filter -f \${sender} -- \${recipient}
CF
# postdrop takes another instance's config directory (sendmail -C, run by the filter as
# nobody) only when the default main.cf names it; restored at exit.
mkdir -p /etc/postfix
# A package installed with "No configuration" has no main.cf: one is made for the run
# and removed at exit.
if [ -f /etc/postfix/main.cf ]; then cp -p /etc/postfix/main.cf "$work/default-main.cf"
else : >/etc/postfix/main.cf; : >"$work/made-main.cf"; fi
postconf -e "alternate_config_directories = $conf"
postfix -c "$conf" set-permissions >/dev/null 2>&1 || true
postfix -c "$conf" check || { echo "test-postfix: postfix check failed:" >&2; cat "$work/postfix.log" >&2 2>/dev/null; exit 1; }
start_server
postfix -c "$conf" start

send() { # FILE: sends FILE from sender@test.invalid to inbox@test.invalid over SMTP
    python3 - "$smtp_port" "$1" <<'PY'
import smtplib, sys
with smtplib.SMTP("127.0.0.1", int(sys.argv[1])) as s:
    s.sendmail("sender@test.invalid", ["inbox@test.invalid"], open(sys.argv[2], "rb").read())
PY
}
delivered() { ls "$mail/inbox/new" 2>/dev/null | wc -l; }
wait_delivered() { # N
    for _ in $(seq 300); do [ "$(delivered)" -ge "$1" ] && return 0; sleep 0.1; done
    echo "test-postfix: $1 message(s) expected in the Maildir, $(delivered) there; log:" >&2
    cat "$work/postfix.log" >&2; exit 1
}
# The delivered message without the fields Postfix and the filter add, LF line ends.
strip_added() {
    python3 - "$1" <<'PY'
import re, sys
data = open(sys.argv[1], "rb").read()
head, sep, body = data.partition(b"\n\n")
fields = re.split(rb"\n(?![ \t])", head)
added = (b"return-path:", b"delivered-to:", b"received:", b"x-spam-", b"x-original-to:")
kept = [f for f in fields if not f.lower().startswith(added)]
sys.stdout.buffer.write(b"\n".join(kept) + sep + body)
PY
}

python3 - "$work" <<'PY'
import sys
w = sys.argv[1]
open(w + "/ham.eml", "wb").write(b"From: a@test.invalid\nTo: inbox@test.invalid\nSubject: lunch\nMessage-ID: <ham@test.invalid>\n\nlunch at noon?\n")
open(w + "/spam.eml", "wb").write(b"From: b@test.invalid\nTo: inbox@test.invalid\nSubject: WINNER claim your prize\nMessage-ID: <spam@test.invalid>\n\n"
     + b"Congratulations! You are a winner. Claim your free prize now, click here, act now, limited time offer, 100% free.\n")
line = b"a line of an ordinary long report, nothing to see here, just filler text\n"
open(w + "/big.eml", "wb").write(b"From: c@test.invalid\nTo: inbox@test.invalid\nSubject: report\nMessage-ID: <big@test.invalid>\n\n" + line * 28000)
PY

n=0
for m in ham spam big; do
    send "$work/$m.eml"; n=$((n + 1)); wait_delivered $n
    file=$mail/inbox/new/$(ls -t "$mail/inbox/new" | head -1)
    strip_added "$file" >"$work/$m.got"
    cmp "$work/$m.eml" "$work/$m.got" || { echo "test-postfix: $m arrived changed" >&2; exit 1; }
    expected=No
    spamc -s 10240000 -d 127.0.0.1 -p "$spamd_port" -c <"$work/$m.eml" >/dev/null || expected=Yes
    grep -q "^X-Spam-Status: $expected," "$file" || { echo "test-postfix: $m not tagged X-Spam-Status: $expected" >&2; exit 1; }
    [ "$(grep -c '^X-Spam-Status:' "$file")" = 1 ] || { echo "test-postfix: $m tagged twice" >&2; exit 1; }
    echo "test-postfix: $m delivered, X-Spam-Status: $expected, otherwise byte-identical"
done

# The daemon down: deferred, not delivered and not bounced; delivered once it is back.
stop_server
send "$work/ham.eml"
sleep 3
[ "$(delivered)" = $n ] || { echo "test-postfix: delivered untagged while the daemon was down" >&2; exit 1; }
postqueue -c "$conf" -p | grep -q "inbox@test.invalid" || { echo "test-postfix: not in the queue while the daemon was down (bounced?)" >&2; exit 1; }
start_server
postqueue -c "$conf" -f
n=$((n + 1)); wait_delivered $n
file=$mail/inbox/new/$(ls -t "$mail/inbox/new" | head -1)
grep -q "^X-Spam-Status: No," "$file" || { echo "test-postfix: the deferred message was not tagged" >&2; exit 1; }
echo "test-postfix: deferred while the daemon was down, delivered tagged after"
