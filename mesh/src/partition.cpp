// METIS k-way partitions and partition files (partition.hpp).
#include "mesh/partition.hpp"

#include <metis.h>

#include <charconv>
#include <stdexcept>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/output_file.hpp"
#include "mesh/dual_graph.hpp"

namespace mesh {

namespace {

// METIS's fixed seed: a partition must not change between runs or ranks.
constexpr idx_t kMetisSeed = 11;

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

}  // namespace

void check_part_count(int parts, std::size_t cells, const std::string& name) {
  if (parts < 1 || static_cast<std::size_t>(parts) > cells)
    throw instrument::InputError(name, "P", "expected a part count in [1, " + std::to_string(cells) +
                                                "] (at most one part per cell), found " + std::to_string(parts));
}

Partition metis_partition(const Mesh& mesh, int parts, const std::string& name, int ufactor) {
  check_part_count(parts, mesh.cells.size(), name);
  if (ufactor < 1) throw std::invalid_argument("metis_partition: ufactor must be >= 1, got " + std::to_string(ufactor));
  Partition p{parts, std::vector<std::int32_t>(mesh.cells.size(), 0)};
  if (parts == 1) return p;
  const DualGraph g = cell_dual_graph(mesh);
  // idx_t is 32-bit in Debian's METIS; our indices are below 2^31, so they fit.
  std::vector<idx_t> xadj(g.offsets.begin(), g.offsets.end());
  std::vector<idx_t> adjncy(g.adjacent.begin(), g.adjacent.end());
  idx_t n = static_cast<idx_t>(mesh.cells.size()), ncon = 1, nparts = parts, objval = 0;
  idx_t options[METIS_NOPTIONS];
  METIS_SetDefaultOptions(options);
  options[METIS_OPTION_NUMBERING] = 0;
  options[METIS_OPTION_SEED] = kMetisSeed;
  options[METIS_OPTION_UFACTOR] = ufactor;
  std::vector<idx_t> part(mesh.cells.size());
  const int status = METIS_PartGraphKway(&n, &ncon, xadj.data(), adjncy.data(), nullptr, nullptr, nullptr, &nparts,
                                         nullptr, nullptr, options, &objval, part.data());
  if (status != METIS_OK)
    throw instrument::InputError(name, "P", "METIS_PartGraphKway failed (status " + std::to_string(status) +
                                                ") partitioning " + std::to_string(n) + " cells into " +
                                                std::to_string(parts) + " parts");
  for (std::size_t c = 0; c < part.size(); ++c) p.part_of_cell[c] = static_cast<std::int32_t>(part[c]);
  return p;
}

Partition parse_partition(std::string_view text, std::size_t cells, int parts, const std::string& name) {
  check_part_count(parts, cells, name);
  Partition p{parts, {}};
  p.part_of_cell.reserve(cells);
  if (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  if (text.empty())
    throw instrument::InputError(name, "line 1",
                                 "expected " + std::to_string(cells) + " lines, one part per cell, found an empty file");
  std::size_t line = 0;
  for (std::size_t from = 0; from <= text.size();) {
    std::size_t end = text.find('\n', from);
    if (end == std::string_view::npos) end = text.size();
    ++line;
    if (line > cells)
      throw instrument::InputError(name, "line " + std::to_string(line),
                                   "expected " + std::to_string(cells) + " lines, one part per cell, found more");
    const std::string_view field = trim(text.substr(from, end - from));
    std::int64_t value = -1;
    const auto [ptr, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
    if (field.empty() || ec != std::errc() || ptr != field.data() + field.size() || value < 0 || value >= parts)
      throw instrument::InputError(name, "line " + std::to_string(line),
                                   "expected the part of cell " + std::to_string(line - 1) + ", a whole number in [0, " +
                                       std::to_string(parts) + "), found " + instrument::quote_token(field));
    p.part_of_cell.push_back(static_cast<std::int32_t>(value));
    from = end + 1;
  }
  if (p.part_of_cell.size() != cells)
    throw instrument::InputError(name, "line " + std::to_string(line + 1),
                                 "expected " + std::to_string(cells) + " lines, one part per cell, found " +
                                     std::to_string(line));
  return p;
}

Partition read_partition_file(const std::string& path, std::size_t cells, int parts) {
  return parse_partition(instrument::read_input_file(path, "partition file"), cells, parts, path);
}

std::string format_partition(const Partition& partition) {
  std::string text;
  text.reserve(4 * partition.part_of_cell.size());
  for (std::int32_t part : partition.part_of_cell) (text += std::to_string(part)) += '\n';
  return text;
}

void write_partition_file(const Partition& partition, const std::string& path) {
  instrument::write_text_output(path, "partition file", format_partition(partition));
}

}  // namespace mesh
