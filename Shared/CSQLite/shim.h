#include <sqlite3.h>

/// Turns off SQLite's count of the memory it holds (`SQLITE_CONFIG_MEMSTATUS`): with it on, every
/// allocation takes a global mutex and updates the count, and nothing here reads it. Must run
/// before the first connection opens (SQLite answers SQLITE_MISUSE after, changing nothing).
/// Written here because `sqlite3_config` is variadic, which Swift cannot call.
static inline int fuelboard_sqlite3_skip_memory_count(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
