// libpcre2-8, for the test oracle only. PCRE2_CODE_UNIT_WIDTH must be set before
// the header is included.
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
