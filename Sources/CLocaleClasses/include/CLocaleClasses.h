// The C library's wide-character classes (<wctype.h>), which the Swift module of the C
// library leaves out. Why C: a direct call, so a fully static binary needs no dlsym of
// its own symbols (a static executable has no dynamic symbol table to look them in).
#ifndef CLOCALE_CLASSES_H
#define CLOCALE_CLASSES_H

#include <stdint.h>

/// `wctype(3)`: the locale's class named `name` ("alpha", "digit"…), 0 when unknown.
unsigned long ts_wctype(const char *name);

/// `iswctype(3)`: whether code point `c` is in `type` (from ts_wctype) in this locale.
int ts_iswctype(uint32_t c, unsigned long type);

#endif
