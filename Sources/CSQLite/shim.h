// The system's libsqlite3 (Debian's libsqlite3-dev), for `turnstile learn`'s database.
#include <sqlite3.h>
