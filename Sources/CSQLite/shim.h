// The system SQLite (Debian libsqlite3-dev): bench-invalidation's live mode uses it in WAL mode.
#include <sqlite3.h>
