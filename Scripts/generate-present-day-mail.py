#!/usr/bin/env python3
"""Writes Corpora/present-day/ham-generated.mbox and spam-generated.mbox: present-day ham
of many kinds and present-day spam, written for Turnstile (issue 43) from the templates
below, so that the mail list is trained and checked on the mail people get today, not
only on the 2002 SpamAssassin corpus. The spam uses the same vocabulary as the ham
(security notices, parcels, invoices, newsletters, German and Portuguese), so that a
list learns what tells them apart, not which words a generator happened to use.

Kinds: mailing-list posts with patches and quoted replies, code-review and CI
notifications, receipts and shipping notices, bank and card notices, security and
sign-in notices from the real sender's domain, newsletters (HTML and text, some
base64), calendar and travel, school, work, personal mail, and mail in German,
Portuguese, French, Spanish and Dutch. Deterministic (fixed seed): run it again and the
file is the same, byte for byte.

usage: Scripts/generate-present-day-mail.py [HAM_OUT [SPAM_OUT]]
"""
import base64, random, sys, textwrap

rng = random.Random(43)
FIRST = ["Sam", "Priya", "Jonas", "Mei", "Lucas", "Ana", "Tom", "Fatima", "Kenji", "Elena", "Omar", "Sofia",
         "Noah", "Chloe", "Mateo", "Ines", "Ravi", "Hannah", "Diego", "Leila", "Marta", "Felix", "Aisha", "Bruno"]
LAST = ["Carter", "Raman", "Becker", "Chen", "Silva", "Costa", "Nguyen", "Haddad", "Tanaka", "Rossi", "Kowalski",
        "Moreau", "Garcia", "Jansen", "Okafor", "Lindqvist", "Ferreira", "Schmidt", "Dubois", "Patel"]
FREEMAIL = ["gmail.com", "outlook.com", "yahoo.com", "icloud.com", "proton.me", "gmx.de", "hotmail.com", "web.de"]
DAYS = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

def person():
    f, l = rng.choice(FIRST), rng.choice(LAST)
    return f, l, "%s.%s@%s" % (f.lower(), l.lower(), rng.choice(FREEMAIL))

def date():
    return "%s, %02d %s 2026 %02d:%02d:%02d %s" % (rng.choice(DAYS), rng.randint(1, 28), rng.choice(MONTHS),
        rng.randint(6, 22), rng.randint(0, 59), rng.randint(0, 59), rng.choice(["+0000", "-0500", "+0100", "-0800", "-0300", "+0200"]))

def msgid(domain):
    return "<%x.%d@%s>" % (rng.getrandbits(48), rng.randint(1000, 99999), domain)

def received(domain):
    ip = "%d.%d.%d.%d" % (rng.choice([209, 40, 52, 198, 185, 17, 140]), rng.randint(0, 255), rng.randint(0, 255), rng.randint(1, 254))
    return ("Received: from mail-%s.%s (mail-%s.%s [%s])\n\tby mx.example.net (Postfix) with ESMTPS id %X\n\tfor <%s>; %s\n"
            % (rng.randint(1, 99), domain, rng.randint(1, 99), domain, ip, rng.getrandbits(40), "me@example.net", date()))

def auth(domain):
    return ("Authentication-Results: mx.example.net; dkim=pass header.d=%s; spf=pass smtp.mailfrom=%s; dmarc=pass header.from=%s\n"
            % (domain, domain, domain))

def header(frm, domain, to, subject, extra=""):
    h = received(domain) + auth(domain)
    h += "Date: %s\nFrom: %s\nTo: %s\nSubject: %s\nMessage-ID: %s\nMIME-Version: 1.0\n" % (date(), frm, to, subject, msgid(domain))
    return h + extra

def plain(text, charset="utf-8", b64=False):
    if b64:
        body = base64.encodebytes(text.encode("utf-8")).decode()
        return "Content-Type: text/plain; charset=%s\nContent-Transfer-Encoding: base64\n\n%s" % (charset, body)
    return "Content-Type: text/plain; charset=%s\nContent-Transfer-Encoding: 8bit\n\n%s\n" % (charset, text)

def alternative(text, html, b64=False):
    b = "----=_alt_%x" % rng.getrandbits(40)
    enc = "base64" if b64 else "8bit"
    def part(ct, s):
        body = base64.encodebytes(s.encode()).decode() if b64 else s + "\n"
        return "--%s\nContent-Type: %s; charset=utf-8\nContent-Transfer-Encoding: %s\n\n%s" % (b, ct, enc, body)
    return ('Content-Type: multipart/alternative; boundary="%s"\n\n%s%s--%s--\n'
            % (b, part("text/plain", text), part("text/html", html), b))

def html_only(html):
    return "Content-Type: text/html; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n%s\n" % html

def with_attachment(text, filename, ctype, payload):
    b = "----=_mix_%x" % rng.getrandbits(40)
    data = base64.encodebytes(payload).decode()
    return ('Content-Type: multipart/mixed; boundary="%s"\n\n--%s\nContent-Type: text/plain; charset=utf-8\n\n%s\n'
            '--%s\nContent-Type: %s; name="%s"\nContent-Disposition: attachment; filename="%s"\nContent-Transfer-Encoding: base64\n\n%s--%s--\n'
            % (b, b, text, b, ctype, filename, filename, data, b))

def html_page(title, paragraphs, links, footer):
    ps = "".join("<p>%s</p>" % p for p in paragraphs)
    ls = "".join('<p><a href="%s">%s</a></p>' % (u, t) for u, t in links)
    return ('<html><head><style>p{font-family:sans-serif}</style></head><body><h2>%s</h2>%s%s'
            '<p style="color:#888;font-size:11px">%s</p></body></html>' % (title, ps, ls, footer))

messages = []
def add(head, body):
    messages.append(head + body)

me_first, me_last, me = "Sam", "Carter", "sam.carter@example.net"

# 1. Mailing-list posts with patches and quoted replies.
PROJECTS = [("linux-mm", "lists.kernel.org", "mm"), ("netdev", "vger.kernel.org", "net"), ("git", "vger.kernel.org", "git"),
            ("python-dev", "python.org", "cpython"), ("postgres-hackers", "lists.postgresql.org", "pg"),
            ("rust-internals", "lists.rust-lang.org", "rustc"), ("dev", "lists.apache.org", "kafka"),
            ("openbsd-tech", "openbsd.org", "sys"), ("llvm-dev", "lists.llvm.org", "llvm"), ("ffmpeg-devel", "ffmpeg.org", "avcodec")]
FUNCS = ["alloc_pages", "tcp_sendmsg", "refresh_index", "PyDict_SetItem", "heap_insert", "resolve_path", "poll_once",
         "uvm_fault", "emit_call", "decode_frame", "flush_queue", "parse_header"]
for i in range(34):
    name, dom, sub = PROJECTS[i % len(PROJECTS)]
    f, l, addr = person()
    fn = rng.choice(FUNCS)
    n = rng.randint(2, 9)
    if i % 2 == 0:
        subject = "[PATCH v%d %d/%d] %s: fix %s when the %s is empty" % (rng.randint(1, 4), rng.randint(1, n), n, sub, fn, rng.choice(["queue", "list", "buffer", "table", "cache"]))
        text = ("%s() can be called with an empty %s after the last reference is dropped,\n"
                "which dereferences a stale pointer. Check for it before taking the lock.\n\n"
                "Reported-by: %s %s <%s>\nSigned-off-by: %s %s <%s>\n---\n"
                " %s/core.c | %d ++++-\n 1 file changed, %d insertions(+), 1 deletion(-)\n\n"
                "diff --git a/%s/core.c b/%s/core.c\nindex 3f2a1b9..8e41c07 100644\n--- a/%s/core.c\n+++ b/%s/core.c\n"
                "@@ -%d,7 +%d,10 @@ static int %s(struct ctx *c)\n \tint err;\n \n+\tif (!c->head)\n+\t\treturn -EINVAL;\n+\n \tspin_lock(&c->lock);\n-\terr = __%s(c);\n+\terr = __%s(c, 0);\n \tspin_unlock(&c->lock);\n \treturn err;\n }\n--\n2.4%d.0\n"
                % (fn, rng.choice(["queue", "list"]), rng.choice(FIRST), rng.choice(LAST), person()[2], f, l, addr,
                   sub, n + 3, n, sub, sub, sub, sub, rng.randint(100, 900), rng.randint(100, 900), fn, fn, fn, rng.randint(1, 9)))
    else:
        q1, q2 = rng.choice(FIRST), rng.choice(LAST)
        subject = "Re: [RFC] %s: rework %s locking" % (sub, fn)
        text = ("On %s, %s %s wrote:\n> I measured this on a %d-core machine and the contention goes away,\n"
                "> but I am not sure the ordering is right when %s() races with teardown.\n>\n"
                "> Thoughts?\n\nI think the ordering is fine as long as teardown takes the lock first;\n"
                "we did the same in %s last year. Could you add a comment saying so, and\n"
                "split the refactoring from the behaviour change? That makes bisecting easier.\n\n"
                "Also, nit: the commit message says 'mutex' but the code uses a spinlock.\n\n"
                "Reviewed-by: %s %s <%s>\n\nThanks,\n%s\n"
                % (date(), q1, q2, rng.choice([8, 16, 64, 128]), fn, rng.choice(FUNCS), f, l, addr, f))
    extra = "List-Id: <%s.%s>\nList-Unsubscribe: <mailto:%s+unsubscribe@%s>\n" % (name, dom, name, dom)
    add(header("%s %s <%s>" % (f, l, addr), addr.split("@")[1], "%s@%s" % (name, dom), subject, extra), plain(text))

# 2. Code review and CI notifications.
REPOS = ["acme/api", "acme/web", "tools/cli", "infra/terraform", "data/pipeline", "mobile/app"]
for i in range(16):
    repo = rng.choice(REPOS)
    f, l, _ = person()
    pr = rng.randint(100, 4000)
    kind = i % 4
    if kind == 0:
        subject = "Re: [%s] Add retry budget to webhook sender (PR #%d)" % (repo, pr)
        text = ("@%s commented on this pull request.\n\nThe backoff looks right, but can we cap the jitter at the\n"
                "configured maximum? Otherwise a slow consumer could wait longer than the timeout.\n\n"
                "--\nReply to this email directly, view it on GitHub:\nhttps://github.com/%s/pull/%d#discussion_r%d\n"
                "You are receiving this because you were mentioned.\n" % (f.lower(), repo, pr, rng.randint(10**8, 10**9)))
        frm, dom = "%s %s <notifications@github.com>" % (f, l), "github.com"
    elif kind == 1:
        subject = "[%s] Run failed: tests - main (%07x)" % (repo, rng.getrandbits(28))
        text = ("Run failed for main (%07x)\n\nRepository: %s\nWorkflow: tests\nDuration: %d minutes\n\n"
                "Failed jobs:\n  unit (ubuntu-latest, 3.12): exit code 1\n\nView results: https://github.com/%s/actions/runs/%d\n"
                % (rng.getrandbits(28), repo, rng.randint(2, 30), repo, rng.randint(10**9, 10**10)))
        frm, dom = "GitHub <notifications@github.com>", "github.com"
    elif kind == 2:
        subject = "%s | Pipeline #%d has failed for %s" % (repo, rng.randint(10**5, 10**6), rng.choice(["main", "release-2.3", "feature/search"]))
        text = ("Pipeline #%d has failed!\n\nProject: %s\nBranch: main\nCommit: %07x  Merge branch 'fix-timeouts' into 'main'\n"
                "Commit author: %s %s\n\nStage: test\nName: integration\n\nhttps://gitlab.com/%s/-/pipelines\n"
                % (rng.randint(10**5, 10**6), repo, rng.getrandbits(28), f, l, repo))
        frm, dom = "GitLab <gitlab@mg.gitlab.com>", "mg.gitlab.com"
    else:
        subject = "[JIRA] (OPS-%d) %s" % (rng.randint(100, 3000), rng.choice(["Disk usage alert on db-3", "Rotate staging certificates", "Flaky test in checkout flow", "Upgrade Postgres to 17"]))
        text = ("%s %s updated an issue\n\nStatus: In Progress -> In Review\nAssignee: %s %s\n\n"
                "Comment: the migration ran on staging without errors; production is scheduled for Thursday.\n\n"
                "https://acme.atlassian.net/browse/OPS\n" % (f, l, me_first, me_last))
        frm, dom = "%s %s (Jira) <jira@acme.atlassian.net>" % (f, l), "acme.atlassian.net"
    add(header(frm, dom, me, subject), plain(text))

# 3. Receipts and shipping notices, from the shop's own domain.
SHOPS = [("Apple", "email.apple.com", "apple.com"), ("Amazon.com", "amazon.com", "amazon.com"), ("Etsy", "mail.etsy.com", "etsy.com"),
         ("IKEA", "ikea.com", "ikea.com"), ("Uber Receipts", "uber.com", "uber.com"), ("Steam", "steampowered.com", "store.steampowered.com"),
         ("Zalando", "zalando.de", "zalando.de"), ("DoorDash", "doordash.com", "doordash.com"), ("Best Buy", "bestbuy.com", "bestbuy.com"),
         ("Bandcamp", "bandcamp.com", "bandcamp.com")]
ITEMS = ["USB-C cable (2 m)", "Ceramic mug", "Noise-cancelling headphones", "Desk lamp", "Running shoes", "Paperback: The Dispossessed",
         "Coffee beans 1 kg", "Bike light set", "Wool socks (3 pairs)", "Phone case", "Board game", "Vinyl record"]
for i in range(24):
    shop, dom, site = SHOPS[i % len(SHOPS)]
    item = rng.choice(ITEMS)
    price = "%d.%02d" % (rng.randint(4, 240), rng.randint(0, 99))
    order = "%d-%07d" % (rng.randint(100, 999), rng.randint(10**6, 10**7))
    if i % 3 == 0:
        subject = "Your order %s has shipped" % order
        text = ("Hi %s,\n\nGood news: your order %s is on its way.\n\n  %s\n\nCarrier: %s\nTracking number: %s%d\n"
                "Estimated delivery: %s %d\n\nTrack your package: https://www.%s/orders/%s\n\nThanks for shopping with us.\n"
                % (me_first, order, item, rng.choice(["UPS", "DHL", "USPS", "FedEx", "Royal Mail"]), rng.choice(["1Z", "JD", "94"]),
                   rng.randint(10**9, 10**10), rng.choice(MONTHS), rng.randint(1, 28), site, order))
    else:
        subject = rng.choice(["Your receipt from %s" % shop, "Order confirmation #%s" % order, "Thanks for your order"])
        text = ("Order %s\nDate: %s %d\n\n%-40s %s\nTax%37s %.2f\nTotal%35s %.2f\n\nPaid with Visa ending in %04d.\n\n"
                "Questions about your order? Visit https://www.%s/help\n" % (order, rng.choice(MONTHS), rng.randint(1, 28), item, price,
                "", float(price) * 0.08, "", float(price) * 1.08, rng.randint(0, 9999), site))
    html = html_page(subject, text.split("\n\n"), [("https://www.%s/orders/%s" % (site, order), "View your order")],
                     "%s, privacy policy: https://www.%s/privacy" % (shop, site))
    body = alternative(text, html, b64=(i % 4 == 1)) if i % 5 != 4 else html_only(html)
    add(header("%s <%s@%s>" % (shop, rng.choice(["no-reply", "orders", "receipts", "shipment-tracking"]), dom), dom, me, subject), body)

# 4. Bank, card, utility and insurance notices from their own domains.
BANKS = [("Chase", "chase.com"), ("Wells Fargo", "wellsfargo.com"), ("Nubank", "nubank.com.br"), ("ING", "ing.de"),
         ("Monzo", "monzo.com"), ("American Express", "welcome.americanexpress.com"), ("Revolut", "revolut.com"), ("Itaú", "itau.com.br")]
for i in range(16):
    bank, dom = BANKS[i % len(BANKS)]
    kind = i % 4
    if kind == 0:
        subject, text = "Your statement is ready", ("Your %s statement for the account ending in %04d is available. Sign in to the app or at %s to view it.\n\nWe will never ask for your password or a one-time code by email.\n" % (rng.choice(MONTHS), rng.randint(0, 9999), dom))
    elif kind == 1:
        subject, text = "Payment received - thank you", ("We received your card payment of $%d.%02d on %s %d. Your new balance is $%d.%02d.\n\nThis is a service message about your account.\n" % (rng.randint(20, 900), rng.randint(0, 99), rng.choice(MONTHS), rng.randint(1, 28), rng.randint(0, 2000), rng.randint(0, 99)))
    elif kind == 2:
        subject, text = "Your direct debit is set up", ("Hello %s,\n\nYour direct debit to %s for %d.%02d a month starts on the %dth. You can change or cancel it any time in the app.\n" % (me_first, rng.choice(["City Water", "Greenpower Energy", "Fibre Broadband", "Riverside Gym"]), rng.randint(10, 90), rng.randint(0, 99), rng.randint(1, 28)))
    else:
        subject, text = "New sign-in to your account", ("We noticed a new sign-in to your account from %s on %s. If this was you, there is nothing to do.\n\nIf not, open the app and go to Settings > Security to review your devices. We will never ask for your password by email.\n" % (rng.choice(["Firefox on Linux", "the iOS app", "Chrome on Windows", "Safari on macOS"]), date()))
    add(header("%s <alerts@%s>" % (bank, dom), dom, me, subject), alternative(text, html_page(subject, [text], [], "%s, member FDIC" % bank)) if i % 2 else plain(text))

# 5. Security notices from the real sender (the kind phishing imitates).
SEC = [("Google", "accounts.google.com", "Security alert", "A new sign-in on Linux\n\nWe noticed a new sign-in to your Google Account on a Linux device. If this was you, you don't need to do anything. If not, we'll help you secure your account.\n\nCheck activity: https://myaccount.google.com/notifications\n"),
       ("Microsoft account team", "accountprotection.microsoft.com", "Microsoft account security code", "Please use the following security code for the Microsoft account sa***@example.net.\n\nSecurity code: %06d\n\nIf you don't recognize the Microsoft account, you can click https://account.live.com/dp to remove your email address from that account.\n"),
       ("GitHub", "github.com", "[GitHub] A new SSH authentication public key was added to your account", "The following SSH key was added to your account:\n\n  laptop-2026\n  SHA256:Jm3...\n\nIf you believe this key was added in error, you can remove the key and disable access at https://github.com/settings/keys\n"),
       ("Dropbox", "dropbox.com", "Your Dropbox verification code", "Your verification code is %06d. It expires in 10 minutes.\n\nIf you didn't try to sign in, change your password at https://www.dropbox.com/account/security\n"),
       ("PayPal", "paypal.com", "You sent a payment", "You sent $%d.00 USD to %s.\n\nTransaction ID: %dXY\n\nDetails in your PayPal account: https://www.paypal.com/myaccount/transactions\n"),
       ("Apple", "id.apple.com", "Your Apple Account was used to sign in to iCloud via a web browser", "Dear %s,\n\nYour Apple Account was used to sign in to iCloud via a web browser.\n\nIf you recently signed in, you can disregard this email. If you have not, go to https://account.apple.com to change your password.\n")]
for i in range(12):
    who, dom, subject, text = SEC[i % len(SEC)]
    if "%06d" in text: text = text % rng.randint(0, 999999)
    elif "%d.00" in text: text = text % (rng.randint(5, 300), person()[2], rng.randint(10**8, 10**9))
    elif "%s" in text: text = text % me_first
    add(header("%s <%s@%s>" % (who, rng.choice(["no-reply", "noreply", "account-security-noreply", "service"]), dom), dom, me, subject), plain(text))

# 6. Newsletters and digests (HTML, some base64, with unsubscribe links on their own domain).
NEWS = [("The Morning Brew", "morningbrew.com"), ("Hacker Newsletter", "hackernewsletter.com"), ("Stratechery", "stratechery.com"),
        ("Bon Appétit", "condenast.com"), ("LWN.net weekly", "lwn.net"), ("Substack", "substack.com"), ("Strava", "strava.com"),
        ("Duolingo", "duolingo.com"), ("The Guardian", "theguardian.com"), ("Patagonia", "patagonia.com")]
TOPICS = ["a faster allocator for small objects", "how cities are redesigning bus networks", "three soups for cold evenings",
          "the state of open-source funding", "what we learned from a year of four-day weeks", "training for your first half marathon",
          "why database indexes slow down writes", "a guide to winter layering", "ten books our readers loved this year",
          "the history of the humble spreadsheet"]
for i in range(20):
    name, dom = NEWS[i % len(NEWS)]
    t1, t2 = rng.sample(TOPICS, 2)
    subject = rng.choice(["This week: %s", "%s, and more", "Issue #%d: " % rng.randint(50, 700) + "%s"]) % t1
    paras = ["Hi %s, here is what we read this week." % me_first, "First, %s. It turns out the answer is less obvious than it looks." % t1,
             "Also worth your time: %s." % t2, "Thanks for reading. Forward this to a friend who might like it."]
    links = [("https://%s/p/%d" % (dom, rng.randint(1000, 9999)), "Read the full story"), ("https://%s/archive" % dom, "Past issues")]
    html = html_page(subject, paras, links, 'You are receiving this because you subscribed. <a href="https://%s/unsubscribe">Unsubscribe</a> or <a href="https://%s/preferences">manage preferences</a>.' % (dom, dom))
    text = "\n\n".join(paras) + "\n\nUnsubscribe: https://%s/unsubscribe\n" % dom
    extra = "List-Unsubscribe: <https://%s/unsubscribe>\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\n" % dom
    body = alternative(text, html, b64=(i % 3 == 0)) if i % 4 else html_only(html)
    add(header("%s <newsletter@%s>" % (name, dom), dom, me, subject, extra), body)

# 7. Calendar, travel, appointments, school, work.
for i in range(16):
    f, l, addr = person()
    kind = i % 4
    if kind == 0:
        subject = "Invitation: %s @ %s %d, %d:00 - %d:30" % (rng.choice(["Design review", "1:1", "Quarterly planning", "Team lunch"]), rng.choice(MONTHS), rng.randint(1, 28), rng.randint(9, 16), rng.randint(9, 16))
        ics = ("BEGIN:VCALENDAR\nVERSION:2.0\nPRODID:-//Google Inc//Google Calendar 70.9054//EN\nMETHOD:REQUEST\nBEGIN:VEVENT\n"
               "DTSTART:20261201T100000Z\nDTEND:20261201T103000Z\nSUMMARY:%s\nORGANIZER:mailto:%s\nEND:VEVENT\nEND:VCALENDAR\n" % (subject, addr))
        body = with_attachment("%s %s has invited you to an event.\n\nJoin with Google Meet: https://meet.google.com/abc-defg-hij\n" % (f, l), "invite.ics", "text/calendar", ics.encode())
        add(header("%s %s <%s>" % (f, l, addr), addr.split("@")[1], me, subject), body)
    elif kind == 1:
        code = "".join(rng.choice("ABCDEFGHJKLMNPQRSTUVWXYZ23456789") for _ in range(6))
        air, dom = rng.choice([("Lufthansa", "lufthansa.com"), ("KLM", "klm.com"), ("Delta", "delta.com"), ("TAP Air Portugal", "flytap.com")])
        subject = "Your booking confirmation - %s" % code
        text = "Booking reference: %s\n\nOutbound: %s %d, %s -> %s, departs %02d:%02d\nPassenger: %s %s\n\nManage your booking at https://www.%s/manage\n" % (code, rng.choice(MONTHS), rng.randint(1, 28), rng.choice(["BER", "AMS", "JFK", "LIS", "GRU"]), rng.choice(["MUC", "CDG", "SFO", "OPO", "MAD"]), rng.randint(6, 21), rng.choice([0, 15, 30, 45]), me_first, me_last, dom)
        add(header("%s <noreply@%s>" % (air, dom), dom, me, subject), alternative(text, html_page(subject, text.split("\n\n"), [("https://www.%s/manage" % dom, "Manage booking")], air)))
    elif kind == 2:
        subject = rng.choice(["Oakridge Weekly: book fair, early release, lost and found", "Reminder: parent-teacher conferences next week", "Field trip permission slip due Friday"])
        text = "Dear families,\n\n%s\n\nThe library needs volunteers on Thursday afternoon; sign up at the front office.\n\nMs. %s\nOakridge Elementary\n" % (rng.choice(["Thank you for a great first term.", "Please remember coats: it is getting cold.", "Pictures from the science fair are on the class page."]), rng.choice(LAST))
        add(header("Oakridge Elementary <office@oakridge.k12.ca.us>", "oakridge.k12.ca.us", me, subject), plain(text))
    else:
        subject = rng.choice(["Draft of the Q4 planning doc", "Notes from today's incident review", "Re: hiring loop for the SRE role", "Offsite agenda"])
        text = "Hi team,\n\nI put the %s in the shared drive. Main points:\n\n- we keep the current on-call rotation until January\n- the migration moves to the week after next\n- %s owns the runbook update\n\nComments by Thursday, please.\n\n%s\n" % (rng.choice(["draft", "notes", "agenda"]), rng.choice(FIRST), f)
        body = with_attachment(text, "planning-notes.pdf", "application/pdf", b"%PDF-1.7\n% not a real pdf, a fixture\n") if i % 8 == 3 else plain(text)
        add(header("%s %s <%s@acme-corp.com>" % (f, l, f.lower()), "acme-corp.com", "team@acme-corp.com", subject), body)

# 8. Personal mail.
PERSONAL = [("Thanksgiving plans", "Are you still coming on Thursday? Mom wants to know how many chairs to borrow. Bring the pie you made last year, everyone asked about it."),
            ("photos from the lake", "Here are the photos from the weekend. The one of the dog jumping off the dock is my favourite. Let me know if you want the originals."),
            ("hike saturday?", "Weather looks dry for Saturday. Want to do the ridge loop? I can drive, leaving around 8."),
            ("Re: the computer again", "Did you try turning off the automatic updates? If it still freezes I can come over on Sunday and have a look."),
            ("book club", "We're reading the new one next month. I have a spare copy if you want it, just tell me when you're around."),
            ("dinner on Friday", "We booked the Thai place for 7. Can you let me know if you're bringing anyone?"),
            ("moving boxes", "Do you still have the moving boxes from last spring? We're packing next weekend and could use them."),
            ("Happy birthday!", "Happy birthday! Hope you have a lovely day. Let's get coffee next week to celebrate properly.")]
for i in range(16):
    f, l, addr = person()
    subject, text = PERSONAL[i % len(PERSONAL)]
    text = "Hi %s,\n\n%s\n\n%s\n" % (me_first, text, rng.choice([f, f + " x", "love, " + f, "cheers,\n" + f]))
    if i % 4 == 1:
        text = "On %s, %s %s <%s> wrote:\n> %s\n\n" % (date(), me_first, me_last, me, "sounds good, which day works?") + text
    body = with_attachment(text, "IMG_%04d.jpg" % rng.randint(1000, 9999), "image/jpeg", bytes(rng.getrandbits(8) for _ in range(300))) if i % 5 == 2 else plain(text)
    add(header("%s %s <%s>" % (f, l, addr), addr.split("@")[1], me, subject), body)

# 9. Non-English mail: notices and personal mail in German, Portuguese, French, Spanish, Dutch.
FOREIGN = [
    ("DHL Paket <noreply@dhl.de>", "dhl.de", "Ihre Sendung %s wird heute zugestellt", "Guten Tag,\n\nIhre Sendung %s wird heute zwischen 10:00 und 14:00 Uhr zugestellt. Den aktuellen Status finden Sie unter https://www.dhl.de/sendungsverfolgung\n\nIhr DHL Team\n"),
    ("Deutsche Bahn <buchungsbestaetigung@bahn.de>", "bahn.de", "Ihre Buchungsbestätigung (Auftrag %s)", "Vielen Dank für Ihre Buchung.\n\nAuftragsnummer: %s\nHinfahrt: Berlin Hbf -> Hamburg Hbf, ICE 702\n\nIhr Ticket finden Sie in der App DB Navigator.\n"),
    ("Nubank <todomundo@nubank.com.br>", "nubank.com.br", "Sua fatura fechou - código %s", "Olá, %s\n\nA fatura do seu cartão fechou. O pagamento vence no dia 10. Você pode pagar pelo app com Pix ou boleto.\n\nQualquer dúvida, fale com a gente pelo app.\n"),
    ("Mercado Livre <info@mercadolivre.com.br>", "mercadolivre.com.br", "Seu pacote %s está a caminho", "Olá!\n\nSeu pacote %s saiu para entrega e chega amanhã. Acompanhe a entrega no app do Mercado Livre.\n"),
    ("SNCF Connect <noreply@sncf-connect.com>", "sncf-connect.com", "Confirmation de votre réservation %s", "Bonjour,\n\nVotre réservation %s est confirmée : Paris Gare de Lyon -> Lyon Part-Dieu, TGV INOUI.\n\nRetrouvez vos billets dans l'application SNCF Connect.\n"),
    ("Correos <notificaciones@correos.es>", "correos.es", "Su envío %s ha sido entregado", "Hola,\n\nSu envío %s ha sido entregado en su domicilio. Gracias por confiar en Correos.\n"),
    ("Bol.com <klantenservice@bol.com>", "bol.com", "Je bestelling %s is verzonden", "Hoi,\n\nJe bestelling %s is onderweg en wordt morgen bezorgd. Volg je pakket in de app.\n\nGroeten,\nbol.com\n"),
]
FOREIGN_PERSONAL = [("Wochenende", "Hallo %s,\n\nhast du am Samstag Zeit? Wir wollen grillen, bring gern jemanden mit.\n\nLiebe Grüße\n%s\n"),
                    ("almoço no domingo", "Oi %s,\n\nvamos almoçar no domingo na casa da minha mãe? Ela perguntou por você.\n\nBeijos,\n%s\n"),
                    ("photos de vacances", "Salut %s,\n\nvoici enfin les photos de vacances. La plage était magnifique, on y retourne l'an prochain ?\n\nBises,\n%s\n"),
                    ("cena del viernes", "Hola %s,\n\n¿te viene bien cenar el viernes a las nueve? Reservo en el sitio de siempre.\n\nUn abrazo,\n%s\n"),
                    ("verjaardag", "Hoi %s,\n\nvolgende week is het feestje van oma. Kun jij een taart meenemen?\n\nGroetjes,\n%s\n")]
for i in range(21):
    if i % 3 == 2:
        subject, text = FOREIGN_PERSONAL[i % len(FOREIGN_PERSONAL)]
        f, l, addr = person()
        add(header("%s %s <%s>" % (f, l, addr), addr.split("@")[1], me, subject), plain(text % (me_first, f), b64=(i % 2 == 0)))
    else:
        frm, dom, subject, text = FOREIGN[i % len(FOREIGN)]
        ref = "%d" % rng.randint(10**8, 10**10)
        text = text % ((ref,) if text.count("%s") == 1 else (me_first,)) if "%s" in text else text
        subject = subject % ref
        body = alternative(text, html_page(subject, text.split("\n\n"), [], dom), b64=(i % 2 == 1)) if i % 2 else plain(text)
        add(header(frm, dom, me, subject), body)

# 10. Service notices: password reset requested by the user, subscription and account changes.
SERVICE = [("Netflix <info@account.netflix.com>", "account.netflix.com", "Your plan price is changing", "Hi %s,\n\nStarting with your next billing date, the price of your plan changes to $17.99 a month. No action is needed to keep watching.\n\nQuestions? Visit the Help Center at https://help.netflix.com\n"),
           ("Spotify <no-reply@spotify.com>", "spotify.com", "Your Spotify Premium receipt", "Hi %s,\n\nThanks for your payment of $11.99 for Spotify Premium Individual. Your next bill is on the 5th.\n\nManage your plan: https://www.spotify.com/account\n"),
           ("Slack <feedback@slack.com>", "slack.com", "[Slack] New messages in #incidents", "Hi %s,\n\nYou have 3 new messages in #incidents from Priya and Jonas.\n\nOpen Slack: https://acme.slack.com/archives/C024\n"),
           ("Zoom <no-reply@zoom.us>", "zoom.us", "Cloud recording is now available", "Hi %s,\n\nYour cloud recording of 'Weekly sync' is now available.\n\nShare it with viewers: https://zoom.us/rec/share\n"),
           ("Namecheap <support@namecheap.com>", "namecheap.com", "Domain renewal receipt", "Hi %s,\n\nThanks for renewing carterfamily.net for 1 year. Order total: $13.98. Auto-renew stays on.\n"),
           ("LinkedIn <messages-noreply@linkedin.com>", "linkedin.com", "You appeared in 9 searches this week", "Hi %s,\n\nYou appeared in 9 searches this week. See who is looking: https://www.linkedin.com/me/search-appearances\n"),
           ("Airbnb <automated@airbnb.com>", "airbnb.com", "Reservation confirmed - Porto", "Hi %s,\n\nYour reservation in Porto is confirmed. Check-in is after 3 PM; your host will send directions a few days before.\n"),
           ("MyChart <mychart@healthpartners.org>", "healthpartners.org", "You have a new message in MyChart", "Hi %s,\n\nYou have a new message from your care team. Log in to MyChart to read it.\n")]
for i in range(16):
    frm, dom, subject, text = SERVICE[i % len(SERVICE)]
    text = text % me_first
    body = alternative(text, html_page(subject, text.split("\n\n"), [("https://www.%s/" % dom, "Open")], dom)) if i % 2 else plain(text)
    add(header(frm, dom, me, subject), body)


def write(path, msgs):
    with open(path, "w", encoding="utf-8") as f:
        for m in msgs:
            f.write("From generated@example.invalid  Thu Jan  1 00:00:00 2026\n")
            for line in m.split("\n"):
                if line.lstrip(">").startswith("From "):
                    line = ">" + line
                f.write(line + "\n")
            f.write("\n")
    print("wrote %d messages to %s" % (len(msgs), path))

ham = messages
messages = []

# ---- Spam ----
JUNK_TLD = ["xyz", "top", "online", "shop", "info", "site", "click", "com", "net", "ru", "live", "store", "com.br"]
def junk_domain():
    syl = ["mail", "sec", "acc", "ver", "srv", "notif", "info", "upd", "cloud", "box", "link", "pay", "track", "go", "web", "data"]
    return "%s%s%d.%s" % (rng.choice(syl), rng.choice(syl), rng.randint(1, 999), rng.choice(JUNK_TLD))

def spam_header(display, subject, reply=False, fail=False, extra=""):
    dom = junk_domain()
    frm = '"%s" <%s@%s>' % (display, rng.choice(["info", "noreply", "support", "service", "admin", "contato", "kundenservice", "team"]), dom)
    h = received(dom)
    if fail:
        h += "Authentication-Results: mx.example.net; spf=%s smtp.mailfrom=%s; dkim=none; dmarc=fail header.from=%s\n" % (rng.choice(["fail", "softfail"]), dom, dom)
    else:
        h += auth(dom)
    h += "Date: %s\nFrom: %s\nTo: %s\nSubject: %s\nMessage-ID: %s\nMIME-Version: 1.0\n" % (date(), frm, me, subject, msgid(dom))
    if reply:
        h += "Reply-To: %s\n" % person()[2]
    return h + extra, dom

def lure_link(dom):
    r = rng.random()
    if r < 0.2: return "http://%d.%d.%d.%d/%s" % (rng.randint(23, 220), rng.randint(0, 255), rng.randint(0, 255), rng.randint(1, 254), rng.choice(["login", "verify", "secure", "pay"]))
    if r < 0.4: return "https://%s/%x" % (rng.choice(["bit.ly", "tinyurl.com", "cutt.ly", "rb.gy"]), rng.getrandbits(32))
    if r < 0.6: return "https://%s-%x.%s/%s" % (rng.choice(["secure", "login", "verify", "portal"]), rng.getrandbits(20), rng.choice(["web.app", "pages.dev", "netlify.app", "r2.dev"]), rng.choice(["index.html", "auth", ""]))
    return "https://%s/%s?id=%x" % (junk_domain(), rng.choice(["login", "account", "verify", "track", "pay", "claim"]), rng.getrandbits(40))

def spam_html(paras, link, shown):
    ps = "".join("<p>%s</p>" % p for p in paras)
    return ('<html><body><table width="600"><tr><td>%s<p><a href="%s" style="background:#0070ba;color:#fff;padding:12px">%s</a></p>'
            '<p style="font-size:10px;color:#999">%s</p></td></tr></table></body></html>' % (ps, link, shown, rng.choice(["&copy; All rights reserved.", "This is an automated message.", "Please do not reply to this email."])))

BRANDS = [("Microsoft account team", "Microsoft"), ("PayPal", "PayPal"), ("Apple Support", "Apple"), ("Netflix", "Netflix"),
          ("Google", "Google"), ("Amazon", "Amazon"), ("DHL Express", "DHL"), ("Chase Online", "Chase"), ("Coinbase", "Coinbase"),
          ("Norton", "Norton"), ("DocuSign", "DocuSign"), ("Wells Fargo", "Wells Fargo"), ("USPS", "USPS"), ("Itau", "Itau"), ("Bradesco", "Bradesco")]
CRED = ["We detected an unusual sign-in to your %s account from a new device in %s.",
        "Your %s account has been temporarily suspended because we could not verify your information.",
        "Your %s mailbox storage is almost full and new messages will be rejected.",
        "Your %s password expires today. Keep your current password by confirming your account.",
        "We were unable to process your last %s payment. Your subscription will be cancelled."]
ACTION = ["Please verify your account within 24 hours to avoid permanent suspension.", "Confirm your identity now to restore access.",
          "Failure to update your billing information will result in the closure of your account.", "Click the link below to secure your account.",
          "Sign in and review the activity to keep your account safe."]
for i in range(40):
    display, brand = BRANDS[i % len(BRANDS)]
    where = rng.choice(["Moscow, Russia", "Lagos, Nigeria", "Jakarta", "an unknown location", "Minsk, Belarus"])
    line = rng.choice(CRED)
    line = line % ((brand, where) if line.count("%s") == 2 else brand)
    paras = ["Dear %s," % rng.choice(["Customer", "User", "Client", me_first, "Valued Member"]), line, rng.choice(ACTION),
             "Reference: %s-%d" % (brand[:2].upper(), rng.randint(10**5, 10**7)), "Thank you,<br>%s Security Team" % brand]
    subject = rng.choice(["Action required: verify your %s account", "%s: unusual sign-in activity", "Your %s account has been suspended",
                          "Final notice: %s payment failed", "Security alert for your %s account", "[%s] Password expires today"]) % brand
    hdr, dom = spam_header(display, subject, reply=(i % 3 == 0), fail=(i % 2 == 0))
    link = lure_link(dom)
    shown = rng.choice(["Verify now", "Restore access", "Update payment", "https://www.%s.com/signin" % brand.lower().replace(" ", ""), "Secure my account", "Sign in"])
    html = spam_html(paras, link, shown)
    text = "\n\n".join(p.replace("<br>", "\n") for p in paras) + "\n\n" + link + "\n"
    body = html_only(html) if i % 2 else alternative(text, html, b64=(i % 4 == 1))
    if i % 7 == 3:
        body = with_attachment(text, "Secure_Message_%d.html" % rng.randint(100, 999), "text/html", html.encode())
    messages.append(hdr + body)

# Parcels, tolls, tax refunds, invoices and renewals.
PARCEL = [("Your package could not be delivered", "We attempted to deliver your package today but no one was available. A redelivery fee of $%d.%02d is required. Schedule your redelivery here."),
          ("Unpaid toll notice", "Our records show an unpaid toll balance of $%d.%02d on your vehicle. Pay within 48 hours to avoid a late fee and suspension of your registration."),
          ("Tax refund notification", "After the last annual calculation of your fiscal activity we have determined that you are eligible to receive a tax refund of $%d.%02d. Submit the form to receive it."),
          ("Invoice #%d overdue" % rng.randint(1000, 9999), "Please find attached the overdue invoice for $%d.%02d. Kindly settle the outstanding invoice today by wire transfer to avoid legal action."),
          ("Your subscription has expired", "Your antivirus subscription has expired and your computer is unprotected. Renew now with 80%% off: only $%d.%02d for 3 years."),
          ("Customs fee required for your parcel", "Your parcel is held at customs. A customs fee of $%d.%02d must be paid before delivery."),
          ("Ihre Sendung konnte nicht zugestellt werden", "Ihr Paket liegt zur Abholung bereit. Bitte bestätigen Sie die Zustellung und zahlen Sie die Gebühr von %d,%02d EUR. Klicken Sie hier, um die Zustellung zu planen."),
          ("Sua encomenda foi taxada", "Sua encomenda foi taxada e aguarda o pagamento da taxa de R$ %d,%02d. Regularize agora para evitar a devolução ao remetente. Clique aqui para pagar com Pix."),
          ("Seus pontos expiram hoje", "Prezado cliente, seus pontos expiram hoje. Resgate agora %d.%02d pontos e troque por produtos. Acesse o link abaixo.")]
for i in range(36):
    subject, text = PARCEL[i % len(PARCEL)]
    text = text % (rng.randint(1, 400), rng.randint(0, 99))
    brand = rng.choice(["USPS", "DHL", "Royal Mail", "E-ZPass", "IRS", "HMRC", "Norton", "McAfee", "Correios", "Livelo", "Receita Federal", "FedEx"])
    hdr, dom = spam_header(brand, subject + (" - %s" % rng.randint(10**5, 10**8) if i % 2 else ""), reply=(i % 4 == 0), fail=(i % 3 != 0))
    link = lure_link(dom)
    paras = [rng.choice(["Dear customer,", "Hello,", "Olá,", "Sehr geehrter Kunde,"]), text, "Reference number: %d" % rng.randint(10**8, 10**10)]
    html = spam_html(paras, link, rng.choice(["Pay now", "Schedule delivery", "Claim refund", "Renew now", "Clique aqui", "Jetzt bezahlen"]))
    body = html_only(html) if i % 3 else alternative("\n\n".join(paras) + "\n\n" + link + "\n", html)
    if subject.startswith("Invoice"):
        body = with_attachment("\n\n".join(paras), "Invoice_%d.zip" % rng.randint(100, 999), "application/zip", b"PK\x03\x04 fixture")
    messages.append(hdr + body)

# Prizes, gift cards, casinos, crypto, sextortion, advance fee, health.
OTHER = [("Congratulations! You have won a $1000 gift card", "You have been selected as the winner of our monthly prize draw. Claim your gift card now, the offer is limited to 24 hours."),
         ("WINNER free cash prize claim now", "urgent winner claim your free cash prize now, guaranteed"),
         ("Gewinnen Sie einen Gutschein im Wert von 500 Euro", "Herzlichen Glückwunsch! Sie wurden ausgewählt. Nehmen Sie jetzt an unserer Umfrage teil und gewinnen Sie einen Gutschein. Jetzt kostenlos teilnehmen."),
         ("200% Willkommensbonus + 100 Freispiele", "Melden Sie sich heute im Casino an und erhalten Sie 100 Freispiele und einen Bonus bis zu 500 EUR."),
         ("Your crypto wallet has been suspended", "Your wallet has been flagged. To withdraw your 0.75 BTC you must verify your recovery phrase within 24 hours."),
         ("I hacked your device", "I hacked your device months ago and recorded you visiting adult websites through your webcam. Send $1450 in Bitcoin to the BTC wallet below or the video goes to all your contacts."),
         ("URGENT BUSINESS PROPOSAL", "I am a barrister representing the estate of a late client who died without next of kin. Kindly reply so that the inheritance of 8.5 million dollars can be transferred to you as beneficiary."),
         ("Lose 12 kg in 4 weeks", "Doctors hate this one weird trick for weight loss. Order today with free shipping, guaranteed results or your money back."),
         ("Investment opportunity: 300% returns", "Join our trading platform today. Our AI robot made our members thousands of dollars in crypto last month. Limited time, act now."),
         ("Parabéns! Você ganhou um prêmio", "Você foi selecionado no nosso sorteio. Resgate seu prêmio agora, clique aqui. Oferta válida só hoje, totalmente grátis.")]
for i in range(40):
    subject, text = OTHER[i % len(OTHER)]
    hdr, dom = spam_header(rng.choice(["Rewards Center", "Customer Rewards", "Casino Royal", "Wallet Support", "Anonymous", "Barrister James Cole", "Health News", "Crypto Profit", "Promo"]),
                           subject, reply=(i % 2 == 0), fail=(i % 3 == 1))
    link = lure_link(dom)
    if i % 10 == 1:
        messages.append(hdr + plain(text))
        continue
    paras = [rng.choice(["Hello,", "Dear friend,", "Hi there,", "Hallo,"]), text]
    html = spam_html(paras, link, rng.choice(["Claim now", "Jetzt teilnehmen", "Start trading", "Order now", "Resgatar"]))
    body = html_only(html) if i % 2 else plain("\n\n".join(paras) + "\n\n" + link + "\n", b64=(i % 4 == 0))
    messages.append(hdr + body)

ham_out = sys.argv[1] if len(sys.argv) > 1 else "Corpora/present-day/ham-generated.mbox"
spam_out = sys.argv[2] if len(sys.argv) > 2 else "Corpora/present-day/spam-generated.mbox"
write(ham_out, ham)
write(spam_out, messages)
