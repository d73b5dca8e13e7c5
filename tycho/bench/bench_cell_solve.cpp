// tycho_cell_solve_bench: the cost of one cell-angle solve, LD and step, on a real mesh.
//
//   tycho_cell_solve_bench MESH [REPS]      REPS passes, default 11
//
// A pass solves every cell for every S8 direction, direction-major as a sweep would, with
// fixed inflow and source values (no sweep order, no scattering: the solve alone). Three
// passes alternate: the one-group pivoting LD solve and the step solve (ns per cell-angle
// solve = pass time / (cells x 80)), and the sweep's own solve of both groups of a task at
// once (solve_cell_ld_groups, 2 groups: ns per cell-angle-group = pass time / (cells x 80 x
// 2)). Medians over the passes. The checksum keeps the work from being dropped.
#include <chrono>
#include <cstdio>
#include <string>
#include <vector>

#include "instrument/option_number.hpp"
#include "instrument/option_table.hpp"
#include "instrument/run_app.hpp"
#include "instrument/statistics.hpp"
#include "tycho/cell_solve.hpp"
#include "tycho/ld_tet.hpp"
#include "mesh/mesh_reader.hpp"
#include "tycho/quadrature.hpp"

namespace {

using Clock = std::chrono::steady_clock;

template <class Solve>
double pass_ns(const std::vector<tycho::LdTet>& tets, const tycho::Quadrature& q,
               const std::vector<tycho::NodeValues>& source, const std::vector<tycho::FaceValues>& inflow,
               Solve solve, double& checksum) {
  const auto t0 = Clock::now();
  tycho::NodeValues out{};
  for (const mesh::Vec3& omega : q.omega) {
    for (std::size_t c = 0; c < tets.size(); ++c) {
      solve(tets[c], omega, 0.5, source[c], inflow[c], out);
      checksum += out[0] + out[3];
    }
  }
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count();
}

double groups_pass_ns(const std::vector<tycho::LdTet>& tets, const tycho::Quadrature& q,
                      const std::vector<tycho::NodeValues>& source, const std::vector<tycho::FaceValues>& inflow,
                      double& checksum) {
  constexpr int kGroups = 2;
  const double sigma_t[kGroups] = {0.5, 0.75};
  double qg[kGroups * 4], in[4 * kGroups * 3], out[kGroups * 4];
  const auto t0 = Clock::now();
  for (const mesh::Vec3& omega : q.omega) {
    for (std::size_t c = 0; c < tets.size(); ++c) {
      for (int g = 0; g < kGroups; ++g) {
        for (std::size_t n = 0; n < 4; ++n) qg[g * 4 + n] = source[c][n] * (1 + g);
        for (std::size_t f = 0; f < 4; ++f)
          for (std::size_t k = 0; k < 3; ++k) in[(f * kGroups + g) * 3 + k] = inflow[c][f][k] * (1 + g);
      }
      tycho::solve_cell_ld_groups(tets[c], omega, kGroups, sigma_t, qg, in, out);
      checksum += out[0] + out[7];
    }
  }
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / kGroups;
}

}  // namespace

int main(int argc, char** argv) {
  std::string path;
  int reps = 11;
  instrument::OptionTable table("tycho_cell_solve_bench");
  table.notes("The cost of one cell-angle solve, LD and step, on a real mesh (medians over REPS passes).")
      .positional_file("MESH", path, instrument::Arity::required, "the mesh: .smesh or .msh")
      .positional("REPS", instrument::Arity::optional,
                  [&reps](const std::string& n, const std::string& t) {
                    reps = static_cast<int>(instrument::whole_option(n, t, 1, 0x7FFFFFFF, "passes"));
                  },
                  "passes (default: 11)");
  return instrument::run_serial_app(argc, argv, table, [&] {
    const mesh::Mesh mesh = mesh::read_mesh(path);
    const std::vector<tycho::LdTet> tets = tycho::ld_tets(mesh);
    const tycho::Quadrature s8 = tycho::level_symmetric(8, "S8");
    std::vector<tycho::NodeValues> source(tets.size());
    std::vector<tycho::FaceValues> inflow(tets.size());
    for (std::size_t c = 0; c < tets.size(); ++c) {
      const double s = 1.0 + static_cast<double>(c % 7);
      source[c] = {s, 0.5 * s, 1.5, 2.0};
      for (std::size_t f = 0; f < 4; ++f) inflow[c][f] = {s, 1.0 + static_cast<double>(f), 0.25 * s};
    }
    const double solves = static_cast<double>(tets.size() * s8.size());
    std::vector<double> ld, step, groups;
    double checksum = 0;
    for (int r = 0; r < reps; ++r) {
      ld.push_back(pass_ns(tets, s8, source, inflow, tycho::solve_cell_ld, checksum) / solves);
      step.push_back(pass_ns(tets, s8, source, inflow, tycho::solve_cell_step, checksum) / solves);
      groups.push_back(groups_pass_ns(tets, s8, source, inflow, checksum) / solves);
    }
    std::printf("mesh %s: %zu cells x %zu S8 directions, median of %d passes\n", path.c_str(), tets.size(), s8.size(),
                reps);
    std::printf("LD, 1 group, pivoting  ns per cell-angle solve        %.2f\n", instrument::median(ld));
    std::printf("step, 1 group          ns per cell-angle solve        %.2f\n", instrument::median(step));
    std::printf("LD, 2 groups (sweep's) ns per cell-angle-group solve  %.2f\n", instrument::median(groups));
    std::printf("checksum %.6e\n", checksum);
    return 0;
  });
}
