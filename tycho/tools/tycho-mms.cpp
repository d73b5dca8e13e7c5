// tycho-mms: verifies the transport discretisation by a manufactured solution (mms.hpp).
// Reads a mesh of LANL's cube [0, L]^3, refines it uniformly level after level, sweeps
// psi_m = (1 + Omega_x/2) sin(pi x/L) sin(pi y/L) sin(pi z/L) (zero on the boundary, so
// vacuum inflow is exact) in a pure absorber, and prints per level the L2 errors of psi and
// phi and the observed order log2(e_coarse / e_fine) (h halves from level to level).
//
//   tycho-mms MESH [--levels N] [--scheme ld|step] [--source projected|nodal]
//             [--sn N] [--sigma-t S]
//
// Defaults: 3 refinements, ld, projected, S8, sigma_t 0.05 (5 mean free paths across the
// cube of side 100). Expected orders: 2 for LD, 1 for step.
// A bad mesh or option: one line `tycho-mms: error: ...`, exit status 1.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <string>

#include "instrument/error.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_number.hpp"
#include "instrument/option_table.hpp"
#include "instrument/run_app.hpp"
#include "mesh/mesh_reader.hpp"
#include "tycho/mms.hpp"
#include "tycho/quadrature.hpp"
#include "mesh/refine.hpp"

namespace {

struct Options {
  std::string mesh;
  int levels = 3;
  tycho::Scheme scheme = tycho::Scheme::linear_discontinuous;
  tycho::SourceModel source = tycho::SourceModel::projected;
  int sn = 8;
  double sigma_t = 0.05;
};

// The side L of the cube the mesh fills, from its bounding box; refused if it is not a cube
// with a corner at the origin (psi_m would not vanish on its boundary).
double cube_side(const mesh::Mesh& mesh, const std::string& name) {
  mesh::Vec3 lo = mesh.nodes.at(0), hi = lo;
  for (const mesh::Vec3& p : mesh.nodes) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  const double side = hi.x;
  const double tol = 1e-9 * side;
  if (!(side > 0) || std::abs(lo.x) > tol || std::abs(lo.y) > tol || std::abs(lo.z) > tol ||
      std::abs(hi.y - side) > tol || std::abs(hi.z - side) > tol)
    throw instrument::InputError(name, "bounding box",
                                 "expected a cube [0, L]^3 (the manufactured solution vanishes on its boundary)");
  return side;
}

void run(const Options& o) {
  mesh::Mesh mesh = mesh::read_mesh(o.mesh);
  const double side = cube_side(mesh, o.mesh);
  const tycho::Quadrature quadrature = tycho::level_symmetric(o.sn, "--sn");
  const tycho::ManufacturedSolution solution = tycho::sine_cube_solution(side);
  const bool ld = o.scheme == tycho::Scheme::linear_discontinuous;
  std::printf("manufactured solution: psi_m = (1 + Omega_x/2) sin(pi x/L) sin(pi y/L) sin(pi z/L), L = %g\n", side);
  std::printf("pure absorber sigma_t = %g, q = Omega . grad psi_m + sigma_t psi_m; %s, %zu directions; scheme %s, "
              "source %s\n",
              o.sigma_t, quadrature.name.c_str(), quadrature.size(), ld ? "ld" : "step",
              o.source == tycho::SourceModel::projected ? "projected (L2 onto the linear basis)" : "nodal");
  std::printf("errors: L2 over the mesh, psi summed over directions with the weights; order = log2(e_prev / e)\n");
  std::printf("%5s %9s %9s %12s %10s %6s %12s %10s %6s %7s %8s\n", "level", "cells", "h", "psi L2 err", "relative",
              "order", "phi L2 err", "relative", "order", "lagged", "time s");
  double prev_psi = 0, prev_phi = 0;
  for (int level = 0; level <= o.levels; ++level) {
    if (level > 0) mesh = mesh::refine_uniform(mesh, o.mesh + " refined " + std::to_string(level) + "x");
    const auto start = std::chrono::steady_clock::now();
    const tycho::MmsErrors e = tycho::manufactured_errors(mesh, quadrature, solution, o.sigma_t, o.scheme, o.source);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    double volume = 0;
    for (const mesh::CellGeometry& g : mesh.geometry) volume += g.volume;
    const double h = std::cbrt(volume / static_cast<double>(mesh.cells.size()));
    char psi_order[16] = "-", phi_order[16] = "-";
    if (level > 0) {
      std::snprintf(psi_order, sizeof psi_order, "%.3f", std::log2(prev_psi / e.psi_l2));
      std::snprintf(phi_order, sizeof phi_order, "%.3f", std::log2(prev_phi / e.phi_l2));
    }
    std::printf("%5d %9zu %9.4f %12.5e %10.3e %6s %12.5e %10.3e %6s %7zu %8.2f\n", level, mesh.cells.size(), h,
                e.psi_l2, e.psi_l2 / e.psi_norm, psi_order, e.phi_l2, e.phi_l2 / e.phi_norm, phi_order, e.lagged,
                seconds);
    std::fflush(stdout);
    prev_psi = e.psi_l2;
    prev_phi = e.phi_l2;
  }
}

}  // namespace

int main(int argc, char** argv) {
  Options o;
  instrument::OptionTable table("tycho-mms");
  table.notes("Verifies the transport discretisation by a manufactured solution on a mesh of the cube\n"
              "[0, L]^3, refined level after level. Expected orders: 2 for ld, 1 for step.")
      .positional_file("MESH", o.mesh, instrument::Arity::required, "a mesh of the cube [0, L]^3: .smesh or .msh")
      .whole("--levels", "N", o.levels, 0, 5, "refinements", "uniform refinements after the mesh as read")
      .choice("--scheme", "ld|step", o.scheme,
              {{"ld", tycho::Scheme::linear_discontinuous}, {"step", tycho::Scheme::step}},
              "the spatial scheme (linear discontinuous or step)")
      .choice("--source", "projected|nodal", o.source,
              {{"projected", tycho::SourceModel::projected}, {"nodal", tycho::SourceModel::nodal}},
              "the source: L2-projected onto the linear basis, or nodal values")
      .whole("--sn", "N", o.sn, 2, 16, "(even)", "level-symmetric S_N quadrature")
      .real("--sigma-t", "S", o.sigma_t, 1e-6, 1e6, "per unit length",
            "the pure absorber's sigma_t (0.05: 5 mean free paths across the cube of side 100)");
  return instrument::run_serial_app(argc, argv, table, [&] {
    run(o);
    return 0;
  });
}
