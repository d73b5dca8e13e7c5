// A partition of the cells into P parts: METIS k-way on the cell dual graph, or a vector
// read from a text file (one part per line, line c the part of cell c).
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "mesh/mesh.hpp"

namespace mesh {

struct Partition {
  int parts = 0;
  std::vector<std::int32_t> part_of_cell;  // in [0, parts)
};

// METIS's own default load imbalance, in thousandths: no part above 1.03 x the mean.
inline constexpr int kMetisDefaultUfactor = 30;

// METIS_PartGraphKway on cell_dual_graph(mesh), edge-cut objective, a fixed seed (the same
// mesh and P give the same parts on every run and rank), no part above (1 + ufactor / 1000)
// x the mean as METIS aims for (METIS's ufactor; default its own 30). P = 1 puts every cell
// in part 0 without calling METIS. P < 1 or P above the cell count: InputError(name, "P",
// ...); ufactor < 1: std::invalid_argument. METIS may leave a part empty on a graph of a
// few cells (2 cells into 2 parts does); summarize_parts shows it.
Partition metis_partition(const Mesh& mesh, int parts, const std::string& name, int ufactor = kMetisDefaultUfactor);

// The partition vector of `text` for a mesh of `cells` cells into `parts` parts: exactly
// `cells` lines, each a whole number in [0, parts) (spaces around it allowed); the last line
// may end with a newline. Errors: InputError(name, "line N", what was expected and found).
Partition parse_partition(std::string_view text, std::size_t cells, int parts, const std::string& name);

// parse_partition of the file at `path` (read with instrument's read_input_file).
Partition read_partition_file(const std::string& path, std::size_t cells, int parts);

// The partition file's text for `partition`: one part per line, newline-terminated.
std::string format_partition(const Partition& partition);

// Writes format_partition through instrument's OutputFile (no partial file on failure).
void write_partition_file(const Partition& partition, const std::string& path);

// Refuses P < 1 and P above the cell count: InputError(name, "P", ...).
void check_part_count(int parts, std::size_t cells, const std::string& name);

}  // namespace mesh
