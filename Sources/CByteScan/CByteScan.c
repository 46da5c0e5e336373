#include "CByteScan.h"

#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#if defined(__SSE2__)

/// One bit per byte of the sixteen at `at`, set where the byte is special.
static inline unsigned special_mask(const uint8_t *at) {
    const __m128i chunk = _mm_loadu_si128((const __m128i *)at);
    const __m128i quotes = _mm_cmpeq_epi8(chunk, _mm_set1_epi8('"'));
    const __m128i backslashes = _mm_cmpeq_epi8(chunk, _mm_set1_epi8('\\'));
    const __m128i controls = _mm_cmpeq_epi8(_mm_min_epu8(chunk, _mm_set1_epi8(0x1F)), chunk);
    return (unsigned)_mm_movemask_epi8(_mm_or_si128(_mm_or_si128(quotes, backslashes), controls));
}

size_t agg_first_special_byte(const uint8_t *bytes, size_t count, size_t start) {
    size_t index = start;
    while (index + 16 <= count) {
        unsigned mask = special_mask(bytes + index);
        if (mask != 0) return index + (size_t)__builtin_ctz(mask);
        index += 16;
    }
    if (index >= count) return index;
    if (count >= 16 && count - 16 >= start) {
        // The last sixteen bytes, overlapping bytes already found plain.
        size_t chunk_start = count - 16;
        unsigned mask = special_mask(bytes + chunk_start);
        return mask == 0 ? count : chunk_start + (size_t)__builtin_ctz(mask);
    }
    // Fewer than sixteen bytes left: scan a copy padded with a plain byte.
    uint8_t padded[16];
    memset(padded, 'a', sizeof padded);
    memcpy(padded, bytes + index, count - index);
    unsigned mask = special_mask(padded);
    return mask == 0 ? count : index + (size_t)__builtin_ctz(mask);
}

#else

/// The high bit of each byte of `word` (lowest address lowest) set where the byte may be
/// special: the "has a zero byte" and "has a byte less than n" tests, exact for the lowest
/// flagged byte (a borrow only flags bytes above a special one).
static inline uint64_t special_bytes(const uint8_t *at) {
    uint64_t word;
    memcpy(&word, at, sizeof word);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    word = __builtin_bswap64(word);
#endif
    const uint64_t ones = 0x0101010101010101ull;
    uint64_t quotes = word ^ (ones * 0x22);
    uint64_t backslashes = word ^ (ones * 0x5C);
    uint64_t found = ((quotes - ones) & ~quotes) | ((backslashes - ones) & ~backslashes) | ((word - ones * 0x20) & ~word);
    return found & 0x8080808080808080ull;
}

size_t agg_first_special_byte(const uint8_t *bytes, size_t count, size_t start) {
    size_t index = start;
    while (index + 8 <= count) {
        uint64_t found = special_bytes(bytes + index);
        if (found != 0) return index + (size_t)__builtin_ctzll(found) / 8;
        index += 8;
    }
    while (index < count) {
        uint8_t byte = bytes[index];
        if (byte == '"' || byte == '\\' || byte < 0x20) return index;
        index += 1;
    }
    return index;
}

#endif
