/* Prints, for each pattern read from stdin, the scalars PCRE2 matches with it, as ranges.
 * Used by generate-unicode-properties.py --check. Input: one line per pattern, a flag
 * ('U' = PCRE2_UCP, 'I' = PCRE2_CASELESS, 'J' = both, '-' = none) and a space first; the pattern is matched as `P+` (P a single item)
 * over one haystack holding every scalar in order (surrogates left out), so each match
 * is a maximal run of consecutive scalars. Output: one line per pattern, "lo-hi" hex
 * ranges separated by spaces, a range never crossing the surrogate gap, or
 * "ERROR <message>" when PCRE2 refuses the pattern. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAXS 0x110000
static unsigned char hay[MAXS * 4];
static size_t hay_len;

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
static size_t back(size_t end) { /* start of the scalar that ends at end */
    size_t s = end - 1;
    while ((hay[s] & 0xC0) == 0x80) s--;
    return s;
}

int main(void) {
    for (unsigned c = 0; c < MAXS; c++) {
        if (c >= 0xD800 && c <= 0xDFFF) continue;
        hay_len += enc(c, hay + hay_len);
    }
    char line[4096], pat[4200];
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    while (fgets(line, sizeof line, stdin)) {
        line[strcspn(line, "\n")] = 0;
        uint32_t opts = PCRE2_UTF | PCRE2_DOTALL | (line[0] == 'U' || line[0] == 'J' ? PCRE2_UCP : 0)
            | (line[0] == 'I' || line[0] == 'J' ? PCRE2_CASELESS : 0);
        snprintf(pat, sizeof pat, "%s+", line + 2);
        int err; PCRE2_SIZE eo;
        pcre2_code *re = pcre2_compile((PCRE2_SPTR)pat, PCRE2_ZERO_TERMINATED, opts, &err, &eo, NULL);
        if (!re) {
            PCRE2_UCHAR msg[256];
            pcre2_get_error_message(err, msg, sizeof msg);
            printf("ERROR %s\n", (char *)msg);
            fflush(stdout);
            continue;
        }
        pcre2_jit_compile(re, PCRE2_JIT_COMPLETE);
        size_t at = 0;
        int first = 1;
        while (at < hay_len && pcre2_match(re, hay, hay_len, at, PCRE2_NO_UTF_CHECK, md, NULL) > 0) {
            PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
            if (ov[1] == ov[0]) { fprintf(stderr, "empty match\n"); return 2; }
            unsigned lo = dec(hay + ov[0]), hi = dec(hay + back(ov[1]));
            if (lo < 0xD800 && hi > 0xDFFF) { /* a run across the surrogate gap */
                printf("%s%X-D7FF E000-%X", first ? "" : " ", lo, hi);
            } else {
                printf("%s%X-%X", first ? "" : " ", lo, hi);
            }
            first = 0;
            at = ov[1];
        }
        printf("\n");
        fflush(stdout);
        pcre2_code_free(re);
    }
    return 0;
}
