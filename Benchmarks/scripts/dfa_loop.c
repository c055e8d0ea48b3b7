// A plain C loop over a dense Aho-Corasick DFA in Turnstile's table layout:
// pre-multiplied uint32 state ids, a 256-entry byte -> class map, rows of
// stride = next power of two >= classes, dead state 0, match states next.
// Builds the (leftmost-free, standard) automaton from a word file, then counts
// the match-state entries over a haystack: the baseline for instructions per
// byte (valgrind --tool=callgrind) of Turnstile's step loop.
//
//   cc -O2 -o /tmp/dfa_loop Benchmarks/scripts/dfa_loop.c
//   valgrind --tool=callgrind --toggle-collect=scan /tmp/dfa_loop words haystack
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb");
    if (!f) { perror(path); exit(2); }
    fseek(f, 0, SEEK_END); *n = ftell(f); fseek(f, 0, SEEK_SET);
    unsigned char *b = malloc(*n + 1);
    if (fread(b, 1, *n, f) != *n) exit(2);
    fclose(f);
    return b;
}

__attribute__((noinline)) size_t scan(const uint32_t *t, const uint8_t *cls, uint32_t start, uint32_t maxMatch,
                                      const uint8_t *h, size_t n) {
    size_t count = 0;
    uint32_t s = start;
    for (size_t i = 0; i < n; i++) {
        s = t[s + cls[h[i]]];
        if (s <= maxMatch) count++;  // no dead state in a standard unanchored DFA
    }
    return count;
}

int main(int argc, char **argv) {
    size_t wn, hn;
    unsigned char *w = slurp(argv[1], &wn), *h = slurp(argv[2], &hn);
    // Byte classes: bytes used by patterns get their own class, the rest class 0.
    uint8_t cls[256] = {0}; int nc = 1;
    for (size_t i = 0; i < wn; i++) if (w[i] != '\n' && !cls[w[i]]) cls[w[i]] = nc++;
    int stride = 1; while (stride < nc) stride <<= 1;
    // Trie with goto over classes.
    size_t cap = wn + 2; int *go = calloc(cap * stride, sizeof(int)), *fail = calloc(cap, sizeof(int));
    char *acc = calloc(cap, 1); int ns = 1;  // state 0 = root (trie numbering)
    for (size_t i = 0; i < wn;) {
        int s = 0; size_t j = i;
        for (; j < wn && w[j] != '\n'; j++) {
            int c = cls[w[j]];
            if (!go[s * stride + c]) go[s * stride + c] = ns++;
            s = go[s * stride + c];
        }
        if (j > i) acc[s] = 1;
        i = j + 1;
    }
    int *q = malloc(ns * sizeof(int)), qh = 0, qt = 0;
    for (int c = 0; c < stride; c++) if (go[c]) { fail[go[c]] = 0; q[qt++] = go[c]; }
    while (qh < qt) {
        int s = q[qh++];
        acc[s] |= acc[fail[s]];
        for (int c = 0; c < stride; c++) {
            int u = go[s * stride + c];
            if (u) { fail[u] = go[fail[s] * stride + c]; q[qt++] = u; }
            else go[s * stride + c] = go[fail[s] * stride + c];
        }
    }
    // Renumber: dead 0, match states 1..m, others after; pre-multiply.
    int *id = malloc(ns * sizeof(int)), next = 1;
    for (int s = 0; s < ns; s++) if (acc[s]) id[s] = next++;
    uint32_t maxMatch = (uint32_t)(next - 1) * stride;
    for (int s = 0; s < ns; s++) if (!acc[s]) id[s] = next++;
    uint32_t *t = calloc((size_t)next * stride, 4);
    for (int s = 0; s < ns; s++)
        for (int c = 0; c < stride; c++) t[(size_t)id[s] * stride + c] = (uint32_t)id[go[s * stride + c]] * stride;
    size_t count = scan(t, cls, (uint32_t)id[0] * stride, maxMatch, h, hn);
    printf("%zu match ends, %d states, %d classes (stride %d)\n", count, next, nc, stride);
    return 0;
}
