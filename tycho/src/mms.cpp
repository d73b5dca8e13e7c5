// The manufactured-solution sweep and its errors (see mms.hpp).
//
// The error on a cell splits without cancellation: with f_lin the L2 projection of the
// spatial factor f onto the cell's linear basis and r = f - f_lin (orthogonal to it),
//   int (psi_h - a f)^2 = (psi_h - a f_lin)^T M (psi_h - a f_lin) + a^2 int r^2,
// the first term exact with the LD mass matrix, the second computed once per cell by
// quadrature. So a solution reproduced to round-off shows an error of round-off, not of
// its square root, and no angle needs the quadrature points.
#include "tycho/mms.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>
#include <stdexcept>
#include <vector>

#include "tycho/cell_solve.hpp"
#include "tycho/ld_tet.hpp"
#include "tycho/sweep_dag.hpp"
#include "mesh/tet_quadrature.hpp"

namespace tycho {

namespace {

double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// The rule for the source moments and int r^2: 4 points per axis, exact to degree 5, so
// its own error (h^6 against h^4 for the squared LD error) does not show in the order.
constexpr int kPointsPerAxis = 4;

// What a cell keeps for every direction.
struct CellData {
  LdTet tet;                         // area normals replaced by the faces' canonical ones
  std::array<Index, 4> upwind{};     // the cell across each local face, kBoundary if none
  std::array<std::uint8_t, 4> upwind_face{};  // that cell's local face number
  NodeValues f_lin{};                // L2 projection of the spatial factor
  NodeValues source_f{};             // nodal values given to the solve: f's and grad f's
  std::array<Vec3, 4> source_grad{};  //   projections (projected) or node values (nodal)
  double residual2 = 0;              // int (f - f_lin)^2
};

// M^-1 b for the LD mass matrix M = V/20 (I + 1 1^T): M^-1 = 20/V (I - 1 1^T / 5).
NodeValues inverse_mass_times(double volume, const NodeValues& b) {
  const double fifth = (b[0] + b[1] + b[2] + b[3]) / 5;
  NodeValues out;
  for (std::size_t i = 0; i < 4; ++i) out[i] = 20 / volume * (b[i] - fifth);
  return out;
}

// d^T M d = V/20 (sum d_i^2 + (sum d_i)^2).
double mass_norm2(double volume, const NodeValues& d) {
  const double sum = d[0] + d[1] + d[2] + d[3];
  return volume / 20 * (d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + d[3] * d[3] + sum * sum);
}

int local_face_of(const Cell& cell, Index face) {
  for (int f = 0; f < 4; ++f)
    if (cell.faces[static_cast<std::size_t>(f)] == face) return f;
  return -1;
}

std::vector<CellData> cell_data(const Mesh& mesh, const ManufacturedSolution& solution, SourceModel source) {
  const std::vector<Vec3> normals = face_area_normals(mesh);
  const mesh::TetQuadrature rule = mesh::conical_product_rule(kPointsPerAxis);
  std::vector<CellData> cells(mesh.cells.size());
  for (Index c = 0; c < mesh.cells.size(); ++c) {
    const Cell& cell = mesh.cells[c];
    CellData& d = cells[c];
    d.tet = ld_tet(mesh, c);
    for (std::size_t f = 0; f < 4; ++f) {
      const Face& face = mesh.faces[cell.faces[f]];
      const bool first = face.cells[0] == c;
      const Vec3& n = normals[cell.faces[f]];
      d.tet.area_normal[f] = first ? n : Vec3{-n.x, -n.y, -n.z};
      d.upwind[f] = first ? face.cells[1] : face.cells[0];
      if (d.upwind[f] != kBoundary)
        d.upwind_face[f] = static_cast<std::uint8_t>(local_face_of(mesh.cells[d.upwind[f]], cell.faces[f]));
    }
    std::array<Vec3, 4> x;
    for (std::size_t k = 0; k < 4; ++k) x[k] = mesh.nodes[cell.nodes[k]];
    // Moments int b_i f and int b_i grad f, and f at the points for the residual.
    const double volume = d.tet.volume;
    NodeValues moment_f{};
    std::array<NodeValues, 3> moment_g{};
    std::vector<double> f_at(rule.weight.size());
    for (std::size_t p = 0; p < rule.weight.size(); ++p) {
      const auto& b = rule.bary[p];
      const Vec3 point{b[0] * x[0].x + b[1] * x[1].x + b[2] * x[2].x + b[3] * x[3].x,
                       b[0] * x[0].y + b[1] * x[1].y + b[2] * x[2].y + b[3] * x[3].y,
                       b[0] * x[0].z + b[1] * x[1].z + b[2] * x[2].z + b[3] * x[3].z};
      f_at[p] = solution.spatial(point);
      const Vec3 g = solution.spatial_gradient(point);
      const double w = volume * rule.weight[p];
      for (std::size_t i = 0; i < 4; ++i) {
        moment_f[i] += w * b[i] * f_at[p];
        moment_g[0][i] += w * b[i] * g.x;
        moment_g[1][i] += w * b[i] * g.y;
        moment_g[2][i] += w * b[i] * g.z;
      }
    }
    d.f_lin = inverse_mass_times(volume, moment_f);
    for (std::size_t p = 0; p < rule.weight.size(); ++p) {
      const auto& b = rule.bary[p];
      const double r = f_at[p] - (b[0] * d.f_lin[0] + b[1] * d.f_lin[1] + b[2] * d.f_lin[2] + b[3] * d.f_lin[3]);
      d.residual2 += volume * rule.weight[p] * r * r;
    }
    if (source == SourceModel::projected) {
      d.source_f = d.f_lin;
      const NodeValues gx = inverse_mass_times(volume, moment_g[0]);
      const NodeValues gy = inverse_mass_times(volume, moment_g[1]);
      const NodeValues gz = inverse_mass_times(volume, moment_g[2]);
      for (std::size_t i = 0; i < 4; ++i) d.source_grad[i] = {gx[i], gy[i], gz[i]};
    } else {
      for (std::size_t i = 0; i < 4; ++i) {
        d.source_f[i] = solution.spatial(x[i]);
        d.source_grad[i] = solution.spatial_gradient(x[i]);
      }
    }
  }
  return cells;
}

// One pass over the cells in `order`; returns the largest change of a nodal value.
double sweep_pass(const Mesh& mesh, const std::vector<CellData>& cells, const std::vector<Index>& order,
                  const Vec3& omega, double a, double sigma_t, Scheme scheme, const ManufacturedSolution& solution,
                  std::vector<NodeValues>& psi) {
  double change = 0;
  for (const Index c : order) {
    const CellData& d = cells[c];
    FaceValues inflow{};
    for (std::size_t f = 0; f < 4; ++f) {
      if (!(dot(omega, d.tet.area_normal[f]) < 0)) continue;
      const auto& nodes = d.tet.face_nodes[f];
      if (d.upwind[f] == kBoundary) {
        for (std::size_t k = 0; k < 3; ++k)
          inflow[f][k] = a * solution.spatial(mesh.nodes[mesh.cells[c].nodes[nodes[k]]]);
      } else {
        const NodeValues& up = psi[d.upwind[f]];
        const auto& pick = cells[d.upwind[f]].tet.face_nodes[d.upwind_face[f]];
        inflow[f] = {up[pick[0]], up[pick[1]], up[pick[2]]};
      }
    }
    NodeValues q, out;
    for (std::size_t i = 0; i < 4; ++i) q[i] = a * (dot(omega, d.source_grad[i]) + sigma_t * d.source_f[i]);
    if (scheme == Scheme::linear_discontinuous) solve_cell_ld(d.tet, omega, sigma_t, q, inflow, out);
    else solve_cell_step(d.tet, omega, sigma_t, q, inflow, out);
    for (std::size_t i = 0; i < 4; ++i) change = std::max(change, std::abs(out[i] - psi[c][i]));
    psi[c] = out;
  }
  return change;
}

}  // namespace

ManufacturedSolution sine_cube_solution(double side) {
  const double k = std::numbers::pi / side;
  ManufacturedSolution m;
  m.name = "(1 + Omega_x/2) sin(pi x/L) sin(pi y/L) sin(pi z/L), L = " + std::to_string(side);
  m.angular = [](const Vec3& omega) { return 1 + 0.5 * omega.x; };
  m.spatial = [k](const Vec3& x) { return std::sin(k * x.x) * std::sin(k * x.y) * std::sin(k * x.z); };
  m.spatial_gradient = [k](const Vec3& x) {
    const double sx = std::sin(k * x.x), sy = std::sin(k * x.y), sz = std::sin(k * x.z);
    return Vec3{k * std::cos(k * x.x) * sy * sz, k * sx * std::cos(k * x.y) * sz, k * sx * sy * std::cos(k * x.z)};
  };
  return m;
}

ManufacturedSolution linear_solution(double a, const Vec3& b) {
  ManufacturedSolution m;
  m.name = "a + b . x";
  m.angular = [](const Vec3&) { return 1.0; };
  m.spatial = [a, b](const Vec3& x) { return a + dot(b, x); };
  m.spatial_gradient = [b](const Vec3&) { return b; };
  return m;
}

MmsErrors manufactured_errors(const Mesh& mesh, const Quadrature& quadrature, const ManufacturedSolution& solution,
                              double sigma_t, Scheme scheme, SourceModel source) {
  const std::vector<CellData> cells = cell_data(mesh, solution, source);
  const std::vector<Vec3> normals = face_area_normals(mesh);
  const std::size_t n = mesh.cells.size();
  std::vector<NodeValues> psi(n), phi(n, NodeValues{});
  MmsErrors e;
  double psi_err2 = 0, psi_norm2 = 0, phi_angular = 0;
  double f_norm2 = 0;  // int f^2 = sum over cells of f_lin^T M f_lin + int r^2
  for (Index c = 0; c < n; ++c) f_norm2 += mass_norm2(cells[c].tet.volume, cells[c].f_lin) + cells[c].residual2;
  for (std::size_t dir = 0; dir < quadrature.size(); ++dir) {
    const Vec3& omega = quadrature.omega[dir];
    const double w = quadrature.weight[dir];
    const double a = solution.angular(omega);
    const DirectionOrder order = direction_order(mesh, normals, omega);
    e.lagged += order.lagged.size();
    std::fill(psi.begin(), psi.end(), NodeValues{});
    double largest = 0;
    int passes = 0;
    for (;;) {
      const double change = sweep_pass(mesh, cells, order.order, omega, a, sigma_t, scheme, solution, psi);
      ++passes;
      for (const NodeValues& v : psi)
        for (const double x : v) largest = std::max(largest, std::abs(x));
      if (order.lagged.empty() || change <= 1e-14 * largest) break;
      if (passes == 200)
        throw std::runtime_error("manufactured_errors: direction " + std::to_string(dir) + " with " +
                                 std::to_string(order.lagged.size()) + " lagged faces did not converge in 200 passes");
    }
    e.passes = std::max(e.passes, passes);
    double err2 = 0;
    for (Index c = 0; c < n; ++c) {
      const CellData& d = cells[c];
      NodeValues diff;
      for (std::size_t i = 0; i < 4; ++i) {
        diff[i] = psi[c][i] - a * d.f_lin[i];
        phi[c][i] += w * psi[c][i];
      }
      err2 += mass_norm2(d.tet.volume, diff) + a * a * d.residual2;
    }
    psi_err2 += w * err2;
    psi_norm2 += w * a * a * f_norm2;
    phi_angular += w * a;
  }
  double phi_err2 = 0;
  for (Index c = 0; c < n; ++c) {
    const CellData& d = cells[c];
    NodeValues diff;
    for (std::size_t i = 0; i < 4; ++i) diff[i] = phi[c][i] - phi_angular * d.f_lin[i];
    phi_err2 += mass_norm2(d.tet.volume, diff) + phi_angular * phi_angular * d.residual2;
  }
  e.psi_l2 = std::sqrt(psi_err2);
  e.phi_l2 = std::sqrt(phi_err2);
  e.psi_norm = std::sqrt(psi_norm2);
  e.phi_norm = std::abs(phi_angular) * std::sqrt(f_norm2);
  return e;
}

}  // namespace tycho
