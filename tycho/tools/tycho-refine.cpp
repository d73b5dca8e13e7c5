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
#include <exception>
#include <new>
#include <string>

#include "instrument/error.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_number.hpp"
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
  const char* usage = "usage: tycho-refine MESH OUT.smesh [--times N] (MESH: .smesh or .msh)";
  std::string files[2];  // named by the out-of-memory line
  int n_files = 0;
  try {
    int times = 1;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      if (arg == "--times") {
        if (i + 1 == argc) throw instrument::InputError("command line", "--times", "expected a number after it");
        times = static_cast<int>(instrument::whole_option("--times", argv[++i], 1, 8, "levels"));
      } else if (arg.rfind("--", 0) == 0) {
        throw instrument::InputError("command line", arg, std::string("unknown option; ") + usage);
      } else if (n_files == 2) {
        throw instrument::InputError("command line", arg, std::string("one file too many; ") + usage);
      } else {
        files[n_files++] = arg;
      }
    }
    if (n_files != 2)
      throw instrument::InputError("command line", "", std::string("expected an input and an output mesh; ") + usage);
    run(instrument::file_option("MESH", files[0]), instrument::output_file_option("OUT.smesh", files[1]), times);
  } catch (const std::bad_alloc&) {  // the last resort: the check above refuses what it can foresee
    std::fflush(stdout);
    std::fprintf(stderr, "tycho-refine: error: out of memory (std::bad_alloc) refining %s; %s not written\n",
                 n_files > 0 ? files[0].c_str() : "the mesh", n_files > 1 ? files[1].c_str() : "nothing");
    return 1;
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "tycho-refine: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
