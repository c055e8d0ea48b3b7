// Windows of a regular file mapped read-only, with a guard for a file that shrinks
// while it is searched. Why C: the guard is a SIGBUS handler, which must touch nothing
// but async-signal-safe calls and plain memory — no Swift runtime, no lazy globals.
#ifndef CMAPPED_INPUT_H
#define CMAPPED_INPUT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/// Maps `length` bytes of `fd` from `offset` (a multiple of the page size) read-only,
/// registers the window with the guard and returns its address; NULL (errno set) when
/// the file cannot be mapped or every guard slot is taken. `*slot` receives the
/// window's guard slot for ts_window_unmap and ts_window_shrank.
const uint8_t *ts_window_map(int fd, off_t offset, size_t length, int *slot);

/// Unmaps a window made by ts_window_map and frees its guard slot.
void ts_window_unmap(const uint8_t *address, size_t length, int slot);

/// Whether a read of the window at `slot` met a page past the file's end since it
/// was mapped (the file shrank): the guard mapped zeros there instead of the process
/// dying of SIGBUS.
int ts_window_shrank(int slot);

/// The page size mapping offsets are multiples of.
size_t ts_page_size(void);

#endif
