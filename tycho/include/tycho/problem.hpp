// The transport problem tycho solves: the mesh, the angular quadrature, the energy groups
// and each material's cross sections, the spatial scheme, and the iteration's stopping rule.
//
//   Omega . grad psi_g + sigma_t,g psi_g = (sigma_s,g->g phi_g + sigma_s,g-1->g phi_g-1 + Q_g) / 4 pi
//
// isotropic scattering within a group and down by one group (a two-group problem has the
// fast group feed the thermal one), vacuum boundaries, phi = sum_d w_d psi_d (weights sum
// to 4 pi). Units are the mesh's length unit (cross sections per unit length).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "tycho/mesh_types.hpp"
#include "tycho/quadrature.hpp"

namespace tycho {

enum class Scheme { linear_discontinuous, step };

// One material's data per group g (size groups each).
struct MaterialData {
  std::vector<double> sigma_t;      // total, > 0
  std::vector<double> scatter;      // sigma_s g -> g, in [0, sigma_t]
  std::vector<double> downscatter;  // sigma_s g-1 -> g (entry 0 unused, 0)
  std::vector<double> source;       // Q_g, particles per unit volume per unit time, >= 0
};

// The default problem's data: every material the same, group g: sigma_t = 0.05 (g + 1),
// scattering ratio 0.5 within the group, 0.2 sigma_t of group g-1 scattered down into g,
// Q = 1 in group 0 only. On LANL's [0,100]^3 cubes that is 5 (fast) to 10 (thermal) mean
// free paths across, about a quarter of one across a cell of cube-10717: a problem in which
// both transport and scattering matter and a few iterations converge to 1e-4.
MaterialData default_material(int groups);

struct Problem {
  int groups = 2;
  Scheme scheme = Scheme::linear_discontinuous;
  Quadrature quadrature;
  // Cross sections by the mesh's material number; a material of the mesh without an entry
  // takes `fallback`.
  std::map<std::uint32_t, MaterialData> materials;
  MaterialData fallback;
  double tolerance = 1e-4;  // stop when max relative change of a cell's mean phi is below
  int max_iterations = 5;   // and never do more than this many
};

// Refuses data of the wrong size or out of range, and a group that scatters out more than
// collides in it (scatter + downscatter to the next group > sigma_t): InputError(source,
// "material M group G", ...).
void check_material(const MaterialData& m, int groups, std::uint32_t material, const std::string& source);

}  // namespace tycho
