// The seal of a results file: a CRC-32 of everything after HDF5's 512-byte user block,
// written into that user block when the file is complete.
//
// Why: libhdf5 1.10 segfaults, aborts or loops on some damaged files (one random byte
// mutation in ~60 crashes h5dump). Whatever the reader checks afterwards, the library has
// already parsed the bytes. Checking the seal before the library sees a byte turns a
// damaged, truncated or edited file into one error line. HDF5 itself ignores the user
// block, so h5py, h5dump and perf-report read sealed files as any other.
//
// Layout of the user block (bytes 0..511): the text
//   "suite-results-seal-1 crc32 <8 hex digits> bytes <decimal length of the rest>\n"
// followed by NUL bytes up to 512.
// Private to the instrument library (and the fuzz targets).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace instrument::seal {

inline constexpr std::size_t kUserBlockBytes = 512;

// CRC-32 (IEEE 802.3, as zlib's crc32 and Python's zlib.crc32).
std::uint32_t crc32_of(std::string_view bytes);

// The 512-byte user block sealing `body` (the file's bytes after the user block).
std::string user_block_for(std::string_view body);

// Writes the seal into the user block of a closed HDF5 file created with a 512-byte user
// block. Throws std::runtime_error naming the file on an I/O failure.
void seal_file(const std::string& path);

// Checks the seal of a whole file's bytes; throws InputError(name, "", why) when the file
// has no seal (not written by the suite, or by an older version) or when it does not match
// (damaged, truncated or edited after it was written).
void verify(std::string_view file_bytes, const std::string& name);

}  // namespace instrument::seal
