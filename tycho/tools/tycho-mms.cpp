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
#include <exception>
#include <string>

#include "instrument/error.hpp"
#include "instrument/option_file.hpp"
#include "instrument/option_number.hpp"
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
  const char* usage =
      "usage: tycho-mms MESH [--levels N] [--scheme ld|step] [--source projected|nodal] [--sn N] [--sigma-t S]";
  try {
    Options o;
    for (int i = 1; i < argc; ++i) {
      const std::string arg = argv[i];
      const auto value = [&]() -> std::string {
        if (i + 1 == argc) throw instrument::InputError("command line", arg, "expected a value after it");
        return argv[++i];
      };
      if (arg == "--levels") {
        o.levels = static_cast<int>(instrument::whole_option(arg, value(), 0, 5, "refinements"));
      } else if (arg == "--scheme") {
        const std::string s = value();
        if (s == "ld") o.scheme = tycho::Scheme::linear_discontinuous;
        else if (s == "step") o.scheme = tycho::Scheme::step;
        else throw instrument::InputError("command line", arg, "expected ld or step, got \"" + s + "\"");
      } else if (arg == "--source") {
        const std::string s = value();
        if (s == "projected") o.source = tycho::SourceModel::projected;
        else if (s == "nodal") o.source = tycho::SourceModel::nodal;
        else throw instrument::InputError("command line", arg, "expected projected or nodal, got \"" + s + "\"");
      } else if (arg == "--sn") {
        o.sn = static_cast<int>(instrument::whole_option(arg, value(), 2, 16, "(even)"));
      } else if (arg == "--sigma-t") {
        o.sigma_t = instrument::real_option(arg, value(), 1e-6, 1e6, "per unit length");
      } else if (arg.rfind("--", 0) == 0) {
        throw instrument::InputError("command line", arg, std::string("unknown option; ") + usage);
      } else if (!o.mesh.empty()) {
        throw instrument::InputError("command line", arg, std::string("one file too many; ") + usage);
      } else {
        o.mesh = instrument::file_option("MESH", arg);
      }
    }
    if (o.mesh.empty()) throw instrument::InputError("command line", "", std::string("expected a mesh; ") + usage);
    run(o);
  } catch (const std::exception& e) {
    std::fflush(stdout);
    std::fprintf(stderr, "tycho-mms: error: %s\n", e.what());
    return 1;
  }
  return 0;
}
