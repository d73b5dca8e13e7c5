// tycho_mesh_bench: how long reading a mesh takes, by stage (median of N reads).
//
//   tycho_mesh_bench MESH.smesh [N]     N reads, default 21
//
// Stages: map the file (MappedInputFile, as read_smesh: a 5 GB file is never read whole),
// parse and range-check (parse_smesh, which pages the file in as it goes), check_mesh,
// compute_geometry; and the whole read_smesh. Prints one line per stage, in milliseconds.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "instrument/input_file.hpp"
#include "instrument/option_number.hpp"
#include "instrument/option_table.hpp"
#include "instrument/run_app.hpp"
#include "instrument/statistics.hpp"
#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_geometry.hpp"
#include "mesh/smesh_reader.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// read_smesh's own limit (smesh_reader.cpp).
constexpr std::size_t kMostMeshBytes = std::size_t{8} << 30;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  int n = 21;
  instrument::OptionTable table("tycho_mesh_bench");
  table.notes("How long reading a Tycho2 serial mesh takes, by stage (median of N reads, in ms).")
      .positional_file("MESH.smesh", path, instrument::Arity::required, "the serial mesh to read")
      .positional("N", instrument::Arity::optional,
                  [&n](const std::string& name, const std::string& t) {
                    n = static_cast<int>(instrument::whole_option(name, t, 1, 10000));
                  },
                  "reads, in [1, 10000] (default: 21)");
  return instrument::run_serial_app(argc, argv, table, [&] {
    std::vector<double> file_ms, parse_ms, check_ms, geometry_ms, whole_ms;
    std::size_t cells = 0;
    for (int i = 0; i < n; ++i) {
      auto t = Clock::now();
      const instrument::MappedInputFile file(path, "serial mesh", kMostMeshBytes);
      file_ms.push_back(ms_since(t));
      t = Clock::now();
      mesh::Mesh mesh = mesh::parse_smesh(file.bytes(), path);
      parse_ms.push_back(ms_since(t));
      t = Clock::now();
      mesh::check_mesh(mesh, path);
      check_ms.push_back(ms_since(t));
      t = Clock::now();
      mesh::compute_geometry(mesh);
      geometry_ms.push_back(ms_since(t));
      // The whole read, alternating with the stages above.
      t = Clock::now();
      cells = mesh::read_smesh(path).cells.size();
      whole_ms.push_back(ms_since(t));
    }
    std::printf("mesh %s: %zu cells, median of %d reads (ms)\n", path.c_str(), cells, n);
    std::printf("map file         %.3f\n", instrument::median(file_ms));
    std::printf("parse + ranges   %.3f\n", instrument::median(parse_ms));
    std::printf("check_mesh       %.3f\n", instrument::median(check_ms));
    std::printf("compute_geometry %.3f\n", instrument::median(geometry_ms));
    std::printf("read_smesh       %.3f\n", instrument::median(whole_ms));
    return 0;
  });
}
