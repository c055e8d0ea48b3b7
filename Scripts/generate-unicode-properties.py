#!/usr/bin/env python3
"""Generates Sources/RegexAutomata/Generated/UnicodeProperties.swift: the code point sets
behind `\\p{…}` / `\\P{…}` and behind `\\w \\d \\s` and the POSIX classes under (*UCP), as
PCRE2 10.42 defines them.

Sources (all on this machine, all Unicode 14.0.0, the version PCRE2 10.42 uses):
- general categories: Python's unicodedata (its unidata_version is recorded);
- scripts (Script and Script_Extensions, long and short names): perl's Unicode::UCD
  (prop_values, prop_value_aliases, prop_invlist);
- the special properties (Any, Xan, Xps, Xsp, Xwd, Xuc) and the (*UCP) classes: built
  from the categories by the rules of pcre2pattern(3) for 10.42 (\\w is L, N and `_`;
  \\s, Xps, Xsp and [:space:] are Z, \\h and \\v; [:graph:] is L M N P S Cf but U+061C, U+180E, U+2066–2069;
  [:print:] adds Zs and U+180E; [:punct:] is P plus S below U+0080; …).

With --check, every set is compared, code point by code point, with what libpcre2-8
matches (Scripts/pcre2-property-ranges.c: `\\p{Name}+` over a haystack of every scalar;
(*UCP) classes with PCRE2_UCP); a disagreement stops the script. Scripts PCRE2 does not
know (Katakana_Or_Hiragana) are left out.

Usage: Scripts/generate-unicode-properties.py [--check]   (from the repository root)
"""
import os, subprocess, sys, tempfile, unicodedata

MAX = 0x110000

def is_scalar(c):
    return not (0xD800 <= c <= 0xDFFF)

def ranges_of(pred):
    out, start = [], None
    for c in range(MAX + 1):
        member = c < MAX and is_scalar(c) and pred(c)
        if member and start is None:
            start = c
        elif not member and start is not None:
            out.append((start, c - 1))
            start = None
    return out

def from_set(s):
    return ranges_of(lambda c: c in s)

def invlist_to_ranges(inv):
    out = []
    for i in range(0, len(inv), 2):
        lo = inv[i]
        hi = (inv[i + 1] - 1) if i + 1 < len(inv) else MAX - 1
        # leave the surrogates out, as in every other set here
        if lo <= 0xDFFF and hi >= 0xD800:
            if lo < 0xD800: out.append((lo, 0xD7FF))
            if hi > 0xDFFF: out.append((0xE000, hi))
        else:
            out.append((lo, hi))
    return out

def fmt(ranges):
    return " ".join("%X-%X" % r for r in ranges)

def categories():
    cat = [None] * MAX
    for c in range(MAX):
        cat[c] = unicodedata.category(chr(c)) if is_scalar(c) else "Cs"
    return cat

H = {0x09, 0x20, 0xA0, 0x1680, 0x180E, 0x202F, 0x205F, 0x3000} | set(range(0x2000, 0x200B))
V = {0x0A, 0x0B, 0x0C, 0x0D, 0x85, 0x2028, 0x2029}

def perl_scripts():
    prog = r'''
use Unicode::UCD qw(prop_values prop_value_aliases prop_invlist);
for my $s (sort(prop_values("sc"))) {
    my @a = prop_value_aliases("sc", $s);
    print join(",", @a), "\t", join(" ", prop_invlist("Script=$s")), "\t",
          join(" ", prop_invlist("Script_Extensions=$s")), "\n";
}
print "VERSION\t", Unicode::UCD::UnicodeVersion(), "\n";
'''
    out = subprocess.run(["perl", "-e", prog], check=True, capture_output=True, text=True).stdout
    scripts, version = [], None
    for line in out.splitlines():
        parts = line.split("\t")
        if parts[0] == "VERSION":
            version = parts[1]
            continue
        if not parts[0]:
            continue  # Katakana_Or_Hiragana: no aliases, no characters, unknown to PCRE2
        names = parts[0].split(","); short, long_ = names[0], names[min(1, len(names) - 1)]
        sc = invlist_to_ranges([int(x) for x in parts[1].split()])
        scx = invlist_to_ranges([int(x) for x in parts[2].split()])
        if short in ("Zyyy", "Zinh", "Zzzz"):
            scx = sc  # PCRE2: Common, Inherited and Unknown mean their Script even as extensions
        scripts.append((long_, short, sc, scx))
    return scripts, version

def main():
    cat = categories()
    subcats = sorted(set(cat))
    gc = {name: ranges_of(lambda c, n=name: cat[c] == n) for name in subcats}
    members = lambda *names: (lambda c: cat[c] in names or cat[c][0] in names)
    specials = {
        "Any": ranges_of(lambda c: True),
        "Xan": ranges_of(members("L", "N")),
        "Xps": ranges_of(lambda c: cat[c][0] == "Z" or c in H or c in V),
        "Xsp": ranges_of(lambda c: cat[c][0] == "Z" or c in H or c in V),
        "Xwd": ranges_of(lambda c: cat[c][0] in "LN" or c == 0x5F),
        "Xuc": ranges_of(lambda c: c in (0x24, 0x40, 0x60) or c >= 0xA0),
    }
    graph_out = {0x061C, 0x180E, 0x2066, 0x2067, 0x2068, 0x2069}
    graph = lambda c: (cat[c][0] in "LMNPS" or cat[c] == "Cf") and c not in graph_out
    ucp = {
        "d": ranges_of(lambda c: cat[c] == "Nd"),
        "s": ranges_of(lambda c: cat[c][0] == "Z" or c in H or c in V),
        "w": ranges_of(lambda c: cat[c][0] in "LN" or c == 0x5F),
        "alnum": ranges_of(lambda c: cat[c][0] in "LN"),
        "alpha": ranges_of(lambda c: cat[c][0] == "L"),
        "blank": from_set(H),
        "cntrl": ranges_of(lambda c: cat[c] == "Cc"),
        "digit": ranges_of(lambda c: cat[c] == "Nd"),
        "lower": ranges_of(lambda c: cat[c] == "Ll"),
        "upper": ranges_of(lambda c: cat[c] == "Lu"),
        "space": ranges_of(lambda c: cat[c][0] == "Z" or c in H or c in V),
        "word": ranges_of(lambda c: cat[c][0] in "LN" or c == 0x5F),
        "graph": ranges_of(graph),
        "print": ranges_of(lambda c: graph(c) or cat[c] == "Zs" or c == 0x180E),
        "punct": ranges_of(lambda c: cat[c][0] == "P" or (cat[c][0] == "S" and c < 0x80)),
    }
    scripts, perl_version = perl_scripts()
    if perl_version != unicodedata.unidata_version:
        sys.exit("perl's Unicode %s is not Python's %s" % (perl_version, unicodedata.unidata_version))

    if "--check" in sys.argv:
        here = os.path.dirname(os.path.abspath(__file__))
        with tempfile.TemporaryDirectory() as tmp:
            exe = os.path.join(tmp, "ranges")
            subprocess.run(["cc", "-O2", "-o", exe, os.path.join(here, "pcre2-property-ranges.c"),
                            "-lpcre2-8"], check=True)
            queries = []  # (flag, pattern, expected ranges or None to probe)
            for name, r in gc.items():
                if name == "Cs": continue  # no surrogate is a UTF-8 character
                queries.append(("-", "\\p{%s}" % name, r))
            for name in "CLMNPSZ":
                queries.append(("-", "\\p{%s}" % name, ranges_of(lambda c, n=name: cat[c][0] == n)))
            queries.append(("-", "\\p{L&}", ranges_of(lambda c: cat[c] in ("Lu", "Ll", "Lt"))))
            for name, r in specials.items():
                queries.append(("-", "\\p{%s}" % name, r))
            for name, r in ucp.items():
                queries.append(("U", "\\%s" % name if len(name) == 1 else "[[:%s:]]" % name, r))
            for long_, short, sc, scx in scripts:
                queries.append(("-", "\\p{%s}" % long_, scx))
                queries.append(("-", "\\p{%s}" % short, scx))
                queries.append(("-", "\\p{sc=%s}" % long_, sc))
                queries.append(("-", "\\p{scx=%s}" % short, scx))
            stdin = "".join("%s %s\n" % (f, p) for f, p, _ in queries)
            out = subprocess.run([exe], input=stdin, check=True, capture_output=True, text=True).stdout.splitlines()
            unknown = set()
            for (f, p, expected), got in zip(queries, out):
                if got.startswith("ERROR"):
                    unknown.add(p)
                    continue
                if got != fmt(expected):
                    sys.exit("PCRE2 disagrees on %s%s:\n ours  %s\n pcre2 %s" % (
                        "(UCP) " if f == "U" else "", p, fmt(expected)[:300], got[:300]))
            kept = []
            for s in scripts:
                probes = {"\\p{%s}" % s[0], "\\p{%s}" % s[1], "\\p{sc=%s}" % s[0], "\\p{scx=%s}" % s[1]}
                if probes & unknown:
                    if not probes <= unknown:
                        sys.exit("PCRE2 knows only some names of %s: %s" % (s[0], sorted(probes - unknown)))
                    print("left out (PCRE2 does not know it): %s/%s" % (s[0], s[1]))
                else:
                    kept.append(s)
            others = [p for p in unknown if not any(p in ("\\p{%s}" % s[0], "\\p{%s}" % s[1], "\\p{sc=%s}" % s[0], "\\p{scx=%s}" % s[1]) for s in scripts)]
            if others:
                sys.exit("PCRE2 refuses %s" % others)
            scripts = kept
            print("checked %d sets against PCRE2: all agree" % (len(queries) - len(unknown)))
    else:
        scripts = [s for s in scripts if s[1] != "Hrkt"]  # PCRE2 10.42 has no Katakana_Or_Hiragana

    out = os.path.join("Sources", "RegexAutomata", "Generated", "UnicodeProperties.swift")
    with open(out, "w") as f:
        f.write("// DO NOT EDIT: generated by Scripts/generate-unicode-properties.py from Python %s's\n"
                % sys.version.split()[0])
        f.write("// unicodedata (general categories) and perl's Unicode::UCD (scripts), Unicode %s;\n"
                % unicodedata.unidata_version)
        f.write("// checked against PCRE2 10.42 in UTF mode for every scalar (--check).\n")
        f.write("// Each set is a string of hex ranges \"lo-hi lo-hi …\" (surrogates left out), read\n")
        f.write("// once when a pattern first names it (a string compiles faster than a large literal).\n\n")
        f.write("/// The Unicode version of ``UnicodeProperties``' tables.\n")
        f.write('let unicodePropertiesVersion = "%s"\n\n' % unicodedata.unidata_version)
        f.write("/// The general categories (two-letter subcategories), by name.\n")
        f.write("let unicodeGeneralCategoryTable: [String: String] = [\n")
        for name in subcats:
            f.write('    "%s": "%s",\n' % (name, fmt(gc[name])))
        f.write("]\n\n")
        f.write("/// PCRE2's special properties (Any, Xan, Xps, Xsp, Xwd, Xuc), by name.\n")
        f.write("let unicodeSpecialPropertyTable: [String: String] = [\n")
        for name, r in specials.items():
            f.write('    "%s": "%s",\n' % (name, fmt(r)))
        f.write("]\n\n")
        f.write("/// Under (*UCP): `\\\\d`, `\\\\s`, `\\\\w` (one letter) and the POSIX classes PCRE2 widens.\n")
        f.write("let unicodeUCPClassTable: [String: String] = [\n")
        for name, r in ucp.items():
            f.write('    "%s": "%s",\n' % (name, fmt(r)))
        f.write("]\n\n")
        f.write("/// The scripts PCRE2 10.42 knows: long name, short name, Script, Script_Extensions.\n")
        f.write("let unicodeScriptTable: [(String, String, String, String)] = [\n")
        for long_, short, sc, scx in scripts:
            f.write('    ("%s", "%s", "%s",\n     "%s"),\n' % (long_, short, fmt(sc), fmt(scx)))
        f.write("]\n")
    print("wrote %s: %d categories, %d scripts, Unicode %s" % (out, len(subcats), len(scripts), unicodedata.unidata_version))

main()
