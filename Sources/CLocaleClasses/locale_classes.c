// See include/CLocaleClasses.h.
#include "CLocaleClasses.h"

#include <wctype.h>

unsigned long ts_wctype(const char *name) { return (unsigned long)wctype(name); }

int ts_iswctype(uint32_t c, unsigned long type) { return iswctype((wint_t)c, (wctype_t)type); }
