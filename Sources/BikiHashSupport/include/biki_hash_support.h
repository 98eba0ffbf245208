#ifndef BIKI_HASH_SUPPORT_H
#define BIKI_HASH_SUPPORT_H

#include <stddef.h>
#include <stdint.h>

/// 1 when this CPU computes SHA-256 itself (x86-64's SHA extensions, with SSSE3 and SSE4.1),
/// else 0.
int biki_sha256_hardware(void);

/// Compresses `blocks` 64-byte blocks at `data` into `state` (H0 to H7, as FIPS 180-4 numbers
/// them) with the CPU's SHA instructions. Only when `biki_sha256_hardware()` is 1.
void biki_sha256_blocks(uint32_t state[8], const uint8_t *data, size_t blocks);

#endif
