// tycho-refine: splits every tetrahedron of a mesh into eight, N times, and writes the
// result as a Tycho2 serial mesh; the benchmarks' large meshes come from the small ones so.
//
//   tycho-refine IN.smesh|IN.msh OUT.smesh [--times N]      (N in [1, 8], default 1)
//
// Prints the cells before and after, the volume-length quality (smallest over the cells)
// before and after, and the time of each level (the refinement alone; reading and writing
// timed apart). A bad mesh or option: one line `tycho-refine: error: ...`, exit status 1.
#include <chrono>
#include <cstdio>
#include <new>
#include <string>

#include "instrument/error.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_number.hpp"
#include "instrument/option_table.hpp"
#include "instrument/run_app.hpp"
#include "mesh/refine.hpp"
#include "mesh/refine_quality.hpp"
#include "mesh/mesh_reader.hpp"
#include "mesh/smesh_reader.hpp"
#include "tycho/tool_memory.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

void run(const std::string& in, const std::string& out, int times) {
  // An output path that cannot be written (a symbolic link, a device) refused before the work.
  instrument::check_output_file(out, "serial mesh");
  auto start = Clock::now();
  mesh::Mesh mesh = mesh::read_mesh(in);
  // The result's size is known now: refused before minutes of refining (tool_memory.hpp).
  const std::uint64_t cells = tycho::refined_cell_count(mesh.cells.size(), times);
  instrument::require_node_memory(tycho::refine_tool_peak_bytes(cells), 1, "command line",
                                  "--times " + std::to_string(times),
                                  "refining " + in + " (" + std::to_string(mesh.cells.size()) + " cells) into " + out +
                                      " (" + std::to_string(cells) + " cells)");
  std::printf("read %s: cells %zu, faces %zu, nodes %zu, min quality %.4f (%.3f s)\n", in.c_str(), mesh.cells.size(),
              mesh.faces.size(), mesh.nodes.size(), mesh::min_cell_quality(mesh), seconds_since(start));
  for (int level = 1; level <= times; ++level) {
    start = Clock::now();
    mesh = mesh::refine_uniform(mesh, in + " refined " + std::to_string(level) + "x");
    const double elapsed = seconds_since(start);
    std::printf("level %d: cells %zu, faces %zu, nodes %zu, min quality %.4f (refine, check, geometry: %.3f s)\n",
                level, mesh.cells.size(), mesh.faces.size(), mesh.nodes.size(), mesh::min_cell_quality(mesh),
                elapsed);
  }
  start = Clock::now();
  mesh::write_smesh(mesh, out);
  std::printf("wrote %s (%.3f s)\n", out.c_str(), seconds_since(start));
}

}  // namespace

int main(int argc, char** argv) {
  std::string in, out;
  int times = 1;
  instrument::OptionTable table("tycho-refine");
  table.notes("Splits every tetrahedron of a mesh into eight, N times, and writes the result as a Tycho2\n"
              "serial mesh.")
      .positional_file("MESH", in, instrument::Arity::required, "the mesh to refine: .smesh or .msh")
      .positional("OUT.smesh", instrument::Arity::required,
                  [&out](const std::string& n, const std::string& t) { out = instrument::output_file_option(n, t); },
                  "the refined mesh to write")
      .whole("--times", "N", times, 1, 8, "levels", "refine N times");
  return instrument::run_serial_app(argc, argv, table, [&] {
    try {
      run(in, out, times);
    } catch (const std::bad_alloc&) {  // the last resort: the check in run refuses what it can foresee
      std::fflush(stdout);
      std::fprintf(stderr, "tycho-refine: error: out of memory (std::bad_alloc) refining %s; %s not written\n",
                   in.c_str(), out.c_str());
      return 1;
    }
    return 0;
  });
}
