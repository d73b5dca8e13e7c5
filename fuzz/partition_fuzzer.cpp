// The mesh library's partition-file reader (mesh::parse_partition). The input's first line names
// the mesh it is read for, "cells parts" (cells in [1, 4096], parts in [1, 300]: small enough that
// a line count is reached often); the rest is the partition file. Bad input must be an InputError
// whose message is one line; an accepted file must give one part per cell, each in [0, parts), and
// formatting it must give a file that reads back the same.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "fuzz_input.hpp"
#include "instrument/error.hpp"
#include "mesh/partition.hpp"

using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input = fuzz::as_text(data, size);
  const std::size_t header_end = input.find('\n');
  if (header_end == std::string_view::npos) return 0;
  unsigned long cells = 0;
  int parts = 0;
  if (std::sscanf(std::string(input.substr(0, header_end)).c_str(), "%lu %d", &cells, &parts) != 2) return 0;
  if (cells < 1 || cells > 4096 || parts < 1 || parts > 300) return 0;
  const std::string_view text = input.substr(header_end + 1);

  mesh::Partition p;
  try {
    p = mesh::parse_partition(text, cells, parts, "fuzz.part");
  } catch (const instrument::InputError& e) {
    const std::string message = e.what();
    require(message.find('\n') == std::string::npos, "a one-line error");
    require(message.find("fuzz.part") != std::string::npos, "the error names the file");
    return 0;
  }
  require(p.parts == parts, "the part count kept");
  require(p.part_of_cell.size() == cells, "one part per cell");
  for (const std::int32_t part : p.part_of_cell) require(part >= 0 && part < parts, "parts in [0, P)");
  const mesh::Partition again = mesh::parse_partition(mesh::format_partition(p), cells, parts, "formatted");
  require(again.part_of_cell == p.part_of_cell, "format then parse gives the same partition");
  return 0;
}
