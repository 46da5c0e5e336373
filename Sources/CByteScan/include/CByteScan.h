#ifndef AGG_CBYTESCAN_H
#define AGG_CBYTESCAN_H

#include <stddef.h>
#include <stdint.h>

/// The index of the first byte of `bytes[start..<count]` that JSON strings treat specially
/// (a quote, a backslash or a control character below 0x20), or `count` when there is none.
/// Sixteen bytes a step with SSE2 where the compiler targets it, eight otherwise.
size_t agg_first_special_byte(const uint8_t *bytes, size_t count, size_t start);

#endif
