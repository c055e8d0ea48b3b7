/* Checks a simple-case-folding orbit table against PCRE2 (UTF mode, caseless) for every
 * scalar; used by generate-case-folding.py --check. Input: one orbit per line, hex
 * scalars. Exact by three checks (U = scalars in some orbit, B = a 256-scalar block):
 *  E: for each c in U, (?i)\x{c} over all scalars matches exactly c's orbit;
 *  D: for each c, (?i)\x{c} over c's block matches exactly (orbit of c) within the block;
 *  C: for each block, (?i)[block] over all scalars matches exactly the block's closure.
 * A scalar outside U that PCRE2 folds with some d is caught by E (d in U), D (d in its
 * block) or C (d outside U and outside the block). Exit 1 on the first disagreement. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXS 0x110000
static int orbit_of[MAXS];          /* orbit index + 1, 0 when alone */
static int orbit_start[4000], orbit_len[4000], members[10000], norbits;
static unsigned char hay[MAXS * 4];
static size_t hay_len, offset_of[MAXS + 1];
static unsigned char *hit;

static int enc(unsigned c, unsigned char *o) {
    if (c < 0x80) { o[0] = c; return 1; }
    if (c < 0x800) { o[0] = 0xC0 | c >> 6; o[1] = 0x80 | (c & 63); return 2; }
    if (c < 0x10000) { o[0] = 0xE0 | c >> 12; o[1] = 0x80 | (c >> 6 & 63); o[2] = 0x80 | (c & 63); return 3; }
    o[0] = 0xF0 | c >> 18; o[1] = 0x80 | (c >> 12 & 63); o[2] = 0x80 | (c >> 6 & 63); o[3] = 0x80 | (c & 63); return 4;
}
static unsigned dec(const unsigned char *p) {
    if (p[0] < 0x80) return p[0];
    if (p[0] < 0xE0) return (p[0] & 31) << 6 | (p[1] & 63);
    if (p[0] < 0xF0) return (p[0] & 15) << 12 | (p[1] & 63) << 6 | (p[2] & 63);
    return (p[0] & 7) << 18 | (p[1] & 63) << 12 | (p[2] & 63) << 6 | (p[3] & 63);
}
static int scalar(unsigned c) { return c < 0xD800 || (c > 0xDFFF && c < MAXS); }

/* Marks in hit[] every scalar the pattern matches in hay[from, to). */
static void run(const char *pat, size_t from, size_t to) {
    int err; PCRE2_SIZE eo;
    pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, PCRE2_UTF | PCRE2_CASELESS | PCRE2_NEVER_UCP, &err, &eo, NULL);
    if (!re) { fprintf(stderr, "compile failed: %s\n", pat); exit(2); }
    int big = to - from > 100000;
    if (big) pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(re, NULL);
    size_t at = from;
    while (at < to) {
        int rc = pcre2_match(re, hay, to, at, PCRE2_NO_UTF_CHECK, md, NULL);
        if (rc < 0) break;
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        hit[dec(hay + ov[0])] = 1;
        at = ov[1] > ov[0] ? ov[1] : ov[0] + 1;
    }
    pcre2_match_data_free(md); pcre2_code_free(re);
}
static void expect_class(const char *what, unsigned c, const unsigned char *want, unsigned lo, unsigned hi) {
    for (unsigned d = lo; d < hi; d++) if (scalar(d) && hit[d] != want[d]) {
        fprintf(stderr, "MISMATCH (%s) for U+%04X: U+%04X PCRE2 %d, table %d\n", what, c, d, hit[d], want[d]);
        exit(1);
    }
}

int main(int argc, char **argv) {
    FILE *f = fopen(argv[1], "r"); char line[4096];
    int nm = 0;
    while (fgets(line, sizeof line, f)) {
        orbit_start[norbits] = nm; char *p = line, *e;
        for (unsigned long v; (v = strtoul(p, &e, 16)), e != p; p = e) { members[nm++] = v; orbit_of[v] = norbits + 1; }
        orbit_len[norbits] = nm - orbit_start[norbits]; norbits++;
    }
    for (unsigned c = 0; c < MAXS; c++) { offset_of[c] = hay_len; if (scalar(c)) hay_len += enc(c, hay + hay_len); }
    offset_of[MAXS] = hay_len;
    hit = calloc(MAXS, 1); unsigned char *want = calloc(MAXS, 1);
    char pat[64];
    /* E */
    for (int o = 0; o < norbits; o++) for (int k = 0; k < orbit_len[o]; k++) {
        unsigned c = members[orbit_start[o] + k];
        memset(hit, 0, MAXS); memset(want, 0, MAXS);
        for (int j = 0; j < orbit_len[o]; j++) want[members[orbit_start[o] + j]] = 1;
        snprintf(pat, sizeof pat, "\\x{%X}", c); run(pat, 0, hay_len);
        expect_class("E", c, want, 0, MAXS);
    }
    fprintf(stderr, "E: %d orbits agree\n", norbits);
    /* D */
    for (unsigned c = 0; c < MAXS; c++) if (scalar(c)) {
        unsigned lo = c & ~255u, hi = lo + 256;
        memset(hit + lo, 0, 256); memset(want + lo, 0, 256);
        want[c] = 1;
        if (orbit_of[c]) { int o = orbit_of[c] - 1; for (int j = 0; j < orbit_len[o]; j++) want[members[orbit_start[o] + j]] = 1; }
        snprintf(pat, sizeof pat, "\\x{%X}", c); run(pat, offset_of[lo], offset_of[hi]);
        for (unsigned d = lo; d < hi; d++) if (scalar(d) && hit[d] != want[d]) {
            fprintf(stderr, "MISMATCH (D) for U+%04X: U+%04X PCRE2 %d, table %d\n", c, d, hit[d], want[d]); return 1; }
    }
    fprintf(stderr, "D: every scalar agrees within its block\n");
    /* C */
    for (unsigned lo = 0; lo < MAXS; lo += 256) {
        if (lo >= 0xD800 && lo < 0xE000) continue;
        memset(hit, 0, MAXS); memset(want, 0, MAXS);
        for (unsigned c = lo; c < lo + 256; c++) {
            want[c] = 1;
            if (orbit_of[c]) { int o = orbit_of[c] - 1; for (int j = 0; j < orbit_len[o]; j++) want[members[orbit_start[o] + j]] = 1; }
        }
        snprintf(pat, sizeof pat, "[\\x{%X}-\\x{%X}]", lo, lo + 255); run(pat, 0, hay_len);
        expect_class("C", lo, want, 0, MAXS);
    }
    fprintf(stderr, "C: every 256-scalar block's closure agrees\n");
    printf("PCRE2 %s agrees with the table on every scalar\n", "10.42");
    return 0;
}
