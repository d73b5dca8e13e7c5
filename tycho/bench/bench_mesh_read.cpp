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
#include <exception>
#include <string>
#include <vector>

#include "instrument/input_file.hpp"
#include "instrument/option_number.hpp"
#include "instrument/statistics.hpp"
#include "tycho/mesh_checks.hpp"
#include "tycho/mesh_geometry.hpp"
#include "tycho/smesh_reader.hpp"

namespace {

using Clock = std::chrono::steady_clock;

// read_smesh's own limit (smesh_reader.cpp).
constexpr std::size_t kMostMeshBytes = std::size_t{8} << 30;

double ms_since(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2 || argc > 3) {
    std::fprintf(stderr, "tycho_mesh_bench: error: usage: tycho_mesh_bench MESH.smesh [N]\n");
    return 1;
  }
  const std::string path = argv[1];
  try {
    const int n = argc == 3 ? static_cast<int>(instrument::whole_option("N", argv[2], 1, 10000)) : 21;
    std::vector<double> file_ms, parse_ms, check_ms, geometry_ms, whole_ms;
    std::size_t cells = 0;
    for (int i = 0; i < n; ++i) {
      auto t = Clock::now();
      const instrument::MappedInputFile file(path, "serial mesh", kMostMeshBytes);
      file_ms.push_back(ms_since(t));
      t = Clock::now();
      tycho::Mesh mesh = tycho::parse_smesh(file.bytes(), path);
      parse_ms.push_back(ms_since(t));
      t = Clock::now();
      tycho::check_mesh(mesh, path);
      check_ms.push_back(ms_since(t));
      t = Clock::now();
      tycho::compute_geometry(mesh);
      geometry_ms.push_back(ms_since(t));
      // The whole read, alternating with the stages above.
      t = Clock::now();
      cells = tycho::read_smesh(path).cells.size();
      whole_ms.push_back(ms_since(t));
    }
    std::printf("mesh %s: %zu cells, median of %d reads (ms)\n", path.c_str(), cells, n);
    std::printf("map file         %.3f\n", instrument::median(file_ms));
    std::printf("parse + ranges   %.3f\n", instrument::median(parse_ms));
    std::printf("check_mesh       %.3f\n", instrument::median(check_ms));
    std::printf("compute_geometry %.3f\n", instrument::median(geometry_ms));
    std::printf("read_smesh       %.3f\n", instrument::median(whole_ms));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "tycho_mesh_bench: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
