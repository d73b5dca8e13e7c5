// The cell solves (see cell_solve.hpp).
#include "tycho/cell_solve.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

namespace tycho {

namespace {

double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// Two doubles in one SSE2 register (GCC and Clang vector extension; every x86-64 has it).
using Lanes = double __attribute__((vector_size(16)));
constexpr std::size_t kLanes = 2;

// Solves a x = b in place (x returned in b). Partial pivoting: the LD matrix is not
// diagonally dominant when sigma_t V is small against the face terms, so a zero or tiny
// leading pivot cannot be ruled out without it.
void solve4(Matrix4& a, NodeValues& b) {
  for (std::size_t k = 0; k < 4; ++k) {
    std::size_t p = k;
    for (std::size_t i = k + 1; i < 4; ++i)
      if (std::abs(a[i][k]) > std::abs(a[p][k])) p = i;
    if (p != k) {
      std::swap(a[p], a[k]);
      std::swap(b[p], b[k]);
    }
    const double inv = 1 / a[k][k];
    for (std::size_t i = k + 1; i < 4; ++i) {
      const double l = a[i][k] * inv;
      for (std::size_t j = k + 1; j < 4; ++j) a[i][j] -= l * a[k][j];
      b[i] -= l * b[k];
    }
  }
  for (std::size_t k = 4; k-- > 0;) {
    double s = b[k];
    for (std::size_t j = k + 1; j < 4; ++j) s -= a[k][j] * b[j];
    b[k] = s / a[k][k];
  }
}

}  // namespace

void solve_cell_ld(const LdTet& cell, const Vec3& omega, double sigma_t, const NodeValues& q,
                   const FaceValues& inflow, NodeValues& out) {
  const double v20 = cell.volume / 20;
  const double v4 = cell.volume / 4;
  const double q_sum = q[0] + q[1] + q[2] + q[3];
  std::array<double, 4> stream{};  // K_ij does not depend on i
  for (std::size_t j = 0; j < 4; ++j) stream[j] = v4 * dot(omega, ld_gradient(cell, static_cast<int>(j)));
  Matrix4 a;
  for (std::size_t i = 0; i < 4; ++i) {
    for (std::size_t j = 0; j < 4; ++j) a[i][j] = stream[j] + sigma_t * v20 * (i == j ? 2 : 1);
    out[i] = v20 * (q[i] + q_sum);
  }
  for (std::size_t f = 0; f < 4; ++f) {
    const double flow = dot(omega, cell.area_normal[f]);  // Omega . n_f A_f
    if (flow >= 0) continue;
    const double c = -flow / 12;  // |Omega.n| A_f / 12: the face mass matrix's scale
    const auto& nodes = cell.face_nodes[f];
    const auto& up = inflow[f];
    const double up_sum = up[0] + up[1] + up[2];
    for (std::size_t k = 0; k < 3; ++k) {
      const std::size_t i = nodes[k];
      for (std::size_t l = 0; l < 3; ++l) a[i][nodes[l]] += c * (k == l ? 2 : 1);
      out[i] += c * (up[k] + up_sum);
    }
  }
  solve4(a, out);
}

void solve_cell_step(const LdTet& cell, const Vec3& omega, double sigma_t, const NodeValues& q,
                     const FaceValues& inflow, NodeValues& out) {
  double loss = sigma_t * cell.volume;
  double gain = cell.volume * (q[0] + q[1] + q[2] + q[3]) / 4;
  for (std::size_t f = 0; f < 4; ++f) {
    const double flow = dot(omega, cell.area_normal[f]);
    if (flow >= 0) {
      loss += flow;
    } else {
      gain -= flow * (inflow[f][0] + inflow[f][1] + inflow[f][2]) / 3;
    }
  }
  // loss > 0: sum_f A_f n_f = 0, so some face has Omega.n_f A_f > 0.
  const double psi = gain / loss;
  out = {psi, psi, psi, psi};
}

namespace {

// solve_cell_ld_groups with kGroups groups when kGroups > 0 (its loops then unroll: the
// sweep's default 2 groups are one pass of two lanes), else `groups`.
template <std::size_t kGroups>
void solve_ld_groups(const LdTet& cell, const Vec3& omega, int groups, const double* sigma_t, const double* q,
                     const double* inflow, double* psi) {
  const double v20 = cell.volume / 20;
  // Omega . n_f A_f / 12 per face f: the streaming term K_ij = V/4 Omega . grad b_j is
  // -flow_f / 12 for f the face opposite node j, and an inflow face's mass matrix scale is
  // |flow_f| / 12.
  double flow12[4], stream[4];
  for (std::size_t f = 0; f < 4; ++f) flow12[f] = dot(omega, cell.area_normal[f]) / 12;
  for (std::size_t j = 0; j < 4; ++j) stream[j] = -flow12[cell.face_opposite[j]];
  double a0[4][4];
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) a0[i][j] = stream[j];
  double c[4];
  for (std::size_t f = 0; f < 4; ++f) {
    c[f] = flow12[f] < 0 ? -flow12[f] : 0.0;
    if (c[f] == 0) continue;
    const auto& nodes = cell.face_nodes[f];
    for (std::size_t k = 0; k < 3; ++k)
      for (std::size_t l = 0; l < 3; ++l) a0[nodes[k]][nodes[l]] += c[f] * (k == l ? 2 : 1);
  }
  // Groups go through the elimination kLanes at a time, one per vector lane: the solve is a
  // chain of dependent divides and multiplies, and the lanes share its latency. Each lane
  // does the scalar solve's operations in its order, so a group's result does not depend on
  // its lane. A missing last group's lane solves a harmless stand-in (sigma_t 1, no source)
  // that is not stored.
  const std::size_t G = kGroups != 0 ? kGroups : static_cast<std::size_t>(groups);
  for (std::size_t g0 = 0; g0 < G; g0 += kLanes) {
    const std::size_t n = std::min(kLanes, G - g0);
    // Each vector made whole from its two values (kLanes = 2), never lane by lane in memory:
    // two 8-byte stores read back as one 16-byte load cannot be forwarded and wait for the
    // stores to retire (measured: the loads of these held ~a fifth of the solve's samples).
    static_assert(kLanes == 2, "the lane pairs below");
    const bool two = n == 2;
    const Lanes m = Lanes{sigma_t[g0], two ? sigma_t[g0 + 1] : 1.0} * v20;
    Lanes qn[4], up[4][3]{};
    for (std::size_t i = 0; i < 4; ++i) qn[i] = Lanes{q[g0 * 4 + i], two ? q[(g0 + 1) * 4 + i] : 0.0};
    for (std::size_t f = 0; f < 4; ++f) {
      if (c[f] == 0) continue;
      const double* lo = &inflow[(f * G + g0) * 3];
      for (std::size_t k = 0; k < 3; ++k) up[f][k] = Lanes{lo[k], two ? lo[3 + k] : 0.0};
    }
    Lanes a[4][4], b[4];
    const Lanes q_sum = qn[0] + qn[1] + qn[2] + qn[3];
    for (std::size_t i = 0; i < 4; ++i) {
      for (std::size_t j = 0; j < 4; ++j) a[i][j] = a0[i][j] + m;
      a[i][i] += m;
      b[i] = v20 * (qn[i] + q_sum);
    }
    for (std::size_t f = 0; f < 4; ++f) {
      if (c[f] == 0) continue;
      const Lanes up_sum = up[f][0] + up[f][1] + up[f][2];
      const auto& nodes = cell.face_nodes[f];
      for (std::size_t k = 0; k < 3; ++k) b[nodes[k]] += c[f] * (up[f][k] + up_sum);
    }
    for (std::size_t k = 0; k < 4; ++k) {
      const Lanes inv = 1 / a[k][k];
      for (std::size_t i = k + 1; i < 4; ++i) {
        const Lanes l = a[i][k] * inv;
        for (std::size_t j = k + 1; j < 4; ++j) a[i][j] -= l * a[k][j];
        b[i] -= l * b[k];
      }
    }
    Lanes out[4];
    for (std::size_t k = 4; k-- > 0;) {
      Lanes s = b[k];
      for (std::size_t j = k + 1; j < 4; ++j) s -= a[k][j] * out[j];
      out[k] = s / a[k][k];
    }
    for (std::size_t l = 0; l < n; ++l)
      for (std::size_t k = 0; k < 4; ++k) psi[(g0 + l) * 4 + k] = out[k][l];
  }
}

}  // namespace

void solve_cell_ld_groups(const LdTet& cell, const Vec3& omega, int groups, const double* sigma_t, const double* q,
                          const double* inflow, double* psi) {
  switch (groups) {
    case 1: solve_ld_groups<1>(cell, omega, groups, sigma_t, q, inflow, psi); break;
    case 2: solve_ld_groups<2>(cell, omega, groups, sigma_t, q, inflow, psi); break;
    default: solve_ld_groups<0>(cell, omega, groups, sigma_t, q, inflow, psi); break;
  }
}

}  // namespace tycho
