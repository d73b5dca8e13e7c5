// Structure-aware input for the HDF5 readers: the fuzz input read as a short program of HDF5
// calls that builds a file of groups, attributes, datasets and links, so the fuzzer explores
// what a reader meets in a well-formed HDF5 file (wrong types and shapes, arrays where a
// scalar is expected, cycles of hard and soft links, huge extents, missing parts) rather
// than mostly files HDF5 itself refuses.
//
// The program: one flags byte (bit 0: start from a complete results-file skeleton, bit 1:
// with a sweep3d calibration), then operations until the input ends: create a group, an
// attribute or a dataset (of a type and dataspace the input chooses), a hard, soft or
// external link, or delete a link. Names come from the results layout's own names or from
// the input, so changes land where the readers look.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace fuzz {

// Writes the file the program builds to `path` (replacing it), with a 512-byte user block
// for the results seal (left empty). Calls HDF5 refuses (a name
// taken, a link to nothing) are skipped; a file is always written.
void build_h5_file(const std::uint8_t* data, std::size_t size, const std::string& path);

}  // namespace fuzz
