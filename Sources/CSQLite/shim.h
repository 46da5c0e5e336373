#ifndef AGG_CSQLITE_SHIM_H
#define AGG_CSQLITE_SHIM_H
#include <sqlite3.h>

/// `SQLITE_TRANSIENT` is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type agg_sqlite_transient(void) {
    return SQLITE_TRANSIENT;
}

#if defined(__linux__)
/* Declared here because glibc declares it only under _GNU_SOURCE. */
extern int sync_file_range(int fd, long long offset, long long count, unsigned int flags);
#endif

/// Starts writing the file's dirty pages to disk without waiting for them, so that a later
/// fsync has little left to do. A snapshot file is written once and fsynced before it is
/// committed; starting the write-back while it is still being filled overlaps the disk with
/// the rest of the sync. Does nothing where the system has no such call.
static inline void agg_start_writeback(int fd) {
#if defined(__linux__)
    sync_file_range(fd, 0, 0, 2 /* SYNC_FILE_RANGE_WRITE */);
#else
    (void)fd;
#endif
}
#endif
