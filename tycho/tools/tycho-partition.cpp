// tycho-partition: partitions a mesh into P parts (METIS k-way on the cell dual graph, or a
// partition file) and prints what each part holds and how long the sweep's pipeline is.
//
//   tycho-partition MESH.smesh|MESH.msh P [--parts FILE] [--out FILE]
//
// --parts FILE reads the partition (one part per line, line c the part of cell c) instead
// of calling METIS; --out FILE writes the partition used in that format. Prints per part
// its cells, neighbour parts, faces shared with other parts and faces on the mesh boundary;
// the balance; and per octant diagonal the chain of parts the sweep crosses, whose maximum
// less one is the pipeline term of eq. 8 (Kerbyson, Hoisie & Pautz). A bad mesh, P or
// file: one line `tycho-partition: error: ...`, exit status 1.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>

#include "instrument/error.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_number.hpp"
#include "instrument/option_table.hpp"
#include "instrument/run_app.hpp"
#include "mesh/partition.hpp"
#include "mesh/partition_report.hpp"
#include "mesh/mesh_reader.hpp"
#include "mesh/smesh_reader.hpp"
#include "tycho/sweep_chain.hpp"
#include "tycho/sweep_partition.hpp"

namespace {

struct Options {
  std::string mesh, parts_file, out;
  int parts = 0;
};

std::string join(const std::vector<int>& values) {
  std::string s;
  for (int v : values) {
    if (!s.empty()) s += ',';
    s += std::to_string(v);
  }
  return s.empty() ? "-" : s;
}

void run(const Options& o) {
  // An output path that cannot be written (a symbolic link, a device) refused before the work.
  if (!o.out.empty()) instrument::check_output_file(o.out, "partition file");
  const mesh::Mesh mesh = mesh::read_mesh(o.mesh);
  mesh::check_part_count(o.parts, mesh.cells.size(), o.mesh);
  const auto start = std::chrono::steady_clock::now();
  const mesh::Partition partition = o.parts_file.empty() ? tycho::sweep_partition(mesh, o.parts, o.mesh)
                                                          : mesh::read_partition_file(o.parts_file, mesh.cells.size(), o.parts);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("mesh %s: cells %zu, faces %zu\n", o.mesh.c_str(), mesh.cells.size(), mesh.faces.size());
  if (o.parts_file.empty())
    std::printf("partition: METIS k-way into %d parts (%.3f s)\n", o.parts, seconds);
  else
    std::printf("partition: read from %s, %d parts\n", o.parts_file.c_str(), o.parts);

  const auto summary = mesh::summarize_parts(mesh, partition);
  std::printf("%6s %10s %10s %13s %14s  %s\n", "part", "cells", "neighbours", "shared faces", "boundary faces",
              "neighbour parts");
  std::size_t largest = 0, shared = 0;
  for (std::size_t p = 0; p < summary.size(); ++p) {
    const auto& s = summary[p];
    std::printf("%6zu %10zu %10zu %13zu %14zu  %s\n", p, s.cells, s.neighbours.size(), s.partition_faces,
                s.mesh_boundary_faces, join(s.neighbours).c_str());
    largest = std::max(largest, s.cells);
    shared += s.partition_faces;
  }
  const double mean = static_cast<double>(mesh.cells.size()) / o.parts;
  std::printf("balance: largest part %zu cells = %.4f x the mean %.1f; faces between parts %zu\n", largest,
              static_cast<double>(largest) / mean, mean, shared / 2);

  std::printf("sweep chain per octant diagonal: parts on the longest path of the graph of parts (net flow per\n"
              "pair, cycles broken); and parts entered along the longest path of cells (re-entries counted)\n");
  const auto cells = tycho::octant_sweep_chains(mesh, partition);
  const auto graph = tycho::octant_part_graph_chains(mesh, partition);
  int longest_graph = 0, longest_cells = 0;
  for (std::size_t d = 0; d < cells.size(); ++d) {
    const mesh::Vec3& v = cells[d].direction;
    std::printf("  direction (%c,%c,%c): parts graph %d (%zu edges dropped), cells %d (%zu faces lagged)\n",
                v.x > 0 ? '+' : '-', v.y > 0 ? '+' : '-', v.z > 0 ? '+' : '-', graph[d].parts_crossed,
                graph[d].dropped_edges, cells[d].parts_crossed, cells[d].lagged_faces);
    longest_graph = std::max(longest_graph, graph[d].parts_crossed);
    longest_cells = std::max(longest_cells, cells[d].parts_crossed);
  }
  std::printf("pipeline length (eq. 8, chain - 1): %d over the graph of parts, %d along the cells\n",
              longest_graph - 1, longest_cells - 1);
  if (!o.out.empty()) {
    mesh::write_partition_file(partition, o.out);
    std::printf("wrote %s\n", o.out.c_str());
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  instrument::OptionTable table("tycho-partition");
  table.notes("Partitions a mesh into P parts and prints what each part holds and how long the sweep's\n"
              "pipeline is (eq. 8).")
      .positional_file("MESH", o.mesh, instrument::Arity::required, "the mesh: .smesh or .msh")
      .positional("P", instrument::Arity::required,
                  [&o](const std::string& n, const std::string& t) {
                    o.parts = static_cast<int>(instrument::whole_option(n, t, 1, 0x7FFFFFFF, "parts"));
                  },
                  "the part count, in [1, the mesh's cells]")
      .input_file("--parts", "FILE", o.parts_file,
                  "read the partition (line c: the part of cell c) instead of calling METIS")
      .output_file("--out", "FILE", o.out, "write the partition used, in that format");
  return instrument::run_serial_app(argc, argv, table, [&] {
    run(o);
    return 0;
  });
}
