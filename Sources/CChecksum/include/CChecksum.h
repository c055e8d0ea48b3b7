// CRC-32C for AutomatonCore's saved-file checksum (AutomatonCore/Util/CRC32C.swift).
// In C because the fast path is one instruction Swift cannot name: SSE4.2's crc32
// on x86_64 and the CRC extension's crc32cx on arm64, 8 bytes per step. Loading the
// saved built-in list checks 1.8 MB; byte-at-a-time in Swift that was 15 % of the
// load, the instruction makes it noise. A portable slicing-by-8 version runs where
// the instruction is missing and in the tests that compare the two.
#ifndef CCHECKSUM_H
#define CCHECKSUM_H

#include <stddef.h>
#include <stdint.h>

/// The CRC-32C of `n` bytes at `p`, continuing from `crc` (0 to start): the fastest
/// version this CPU runs.
uint32_t tc_crc32c(uint32_t crc, const uint8_t *p, size_t n);

/// The same with the portable slicing-by-8 tables (every CPU).
uint32_t tc_crc32c_portable(uint32_t crc, const uint8_t *p, size_t n);

/// 1 when `tc_crc32c` uses the CPU's CRC-32C instruction.
int tc_crc32c_hardware(void);

#endif
