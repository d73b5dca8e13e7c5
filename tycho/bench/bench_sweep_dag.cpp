// tycho_sweep_dag_bench: the set-up cost of the sweep's order, per direction.
//
//   tycho_sweep_dag_bench MESH [PASSES [P]]     PASSES default 5, P (METIS parts) default 4
//
// A pass calls direction_order for every S8 direction, then boundary_depth for every S8
// direction (with that direction's lagged faces, on a METIS partition into P parts).
// Printed: ms per direction = pass time / 80, median over the passes, the two alternating;
// face_area_normals once per mesh (ms, median); the lagged faces summed over the 80
// directions (the same every pass: the order is deterministic).
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "instrument/option_number.hpp"
#include "instrument/option_table.hpp"
#include "instrument/run_app.hpp"
#include "instrument/statistics.hpp"
#include "mesh/mesh_reader.hpp"
#include "mesh/partition.hpp"
#include "tycho/quadrature.hpp"
#include "tycho/sweep_dag.hpp"
#include "tycho/sweep_partition.hpp"

namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point t0) {
  return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  int passes = 5, parts = 4;
  instrument::OptionTable table("tycho_sweep_dag_bench");
  table.notes("The set-up cost of the sweep's order, per S8 direction (medians over PASSES passes).")
      .positional_file("MESH", path, instrument::Arity::required, "the mesh: .smesh or .msh")
      .positional("PASSES", instrument::Arity::optional,
                  [&passes](const std::string& n, const std::string& t) {
                    passes = static_cast<int>(instrument::whole_option(n, t, 1, 0x7FFFFFFF, "passes"));
                  },
                  "passes (default: 5)")
      .positional("P", instrument::Arity::optional,
                  [&parts](const std::string& n, const std::string& t) {
                    parts = static_cast<int>(instrument::whole_option(n, t, 1, 0x7FFFFFFF, "parts"));
                  },
                  "METIS parts of the partition boundary_depth lags faces on (default: 4)");
  return instrument::run_serial_app(argc, argv, table, [&] {
    const mesh::Mesh mesh = mesh::read_mesh(path);
    const mesh::Partition partition = tycho::sweep_partition(mesh, parts, "P");
    const tycho::Quadrature s8 = tycho::level_symmetric(8, "S8");
    const double dirs = static_cast<double>(s8.size());
    std::vector<double> normals_ms, order_ms, depth_ms;
    std::vector<std::vector<mesh::Index>> lagged(s8.size());
    std::size_t lagged_total = 0, checksum = 0;
    for (int p = 0; p < passes; ++p) {
      auto t0 = Clock::now();
      const std::vector<mesh::Vec3> normals = tycho::face_area_normals(mesh);
      normals_ms.push_back(ms_since(t0));
      t0 = Clock::now();
      lagged_total = 0;
      for (std::size_t d = 0; d < s8.size(); ++d) {
        tycho::DirectionOrder o = tycho::direction_order(mesh, normals, s8.omega[d]);
        lagged_total += o.lagged.size();
        checksum += o.order[0] + o.blevel[o.order[0]];
        lagged[d] = std::move(o.lagged);
      }
      order_ms.push_back(ms_since(t0) / dirs);
      t0 = Clock::now();
      for (std::size_t d = 0; d < s8.size(); ++d)
        checksum += tycho::boundary_depth(mesh, normals, s8.omega[d], partition, lagged[d])[0];
      depth_ms.push_back(ms_since(t0) / dirs);
    }
    std::printf("mesh %s: %zu cells, %zu faces, S8 (%zu directions), P = %d, median of %d passes\n", path.c_str(),
                mesh.cells.size(), mesh.faces.size(), s8.size(), parts, passes);
    std::printf("face_area_normals ms per mesh       %.3f\n", instrument::median(normals_ms));
    std::printf("direction_order   ms per direction  %.3f\n", instrument::median(order_ms));
    std::printf("boundary_depth    ms per direction  %.3f\n", instrument::median(depth_ms));
    std::printf("lagged faces over the S8 directions %zu\n", lagged_total);
    std::printf("checksum %zu\n", checksum);
    return 0;
  });
}
