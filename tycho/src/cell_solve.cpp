// The cell solves (see cell_solve.hpp).
#include "tycho/cell_solve.hpp"

#include <cmath>
#include <utility>

namespace tycho {

namespace {

double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

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
  for (std::size_t j = 0; j < 4; ++j) stream[j] = v4 * dot(omega, cell.gradient[j]);
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

}  // namespace tycho

namespace tycho {

void solve_cell_ld_groups(const LdTet& cell, const Vec3& omega, int groups, const double* sigma_t, const double* q,
                          const double* inflow, double* psi) {
  const double v20 = cell.volume / 20;
  const double v4 = cell.volume / 4;
  double a0[4][4];
  for (std::size_t j = 0; j < 4; ++j) {
    const double s = v4 * dot(omega, cell.gradient[j]);
    for (std::size_t i = 0; i < 4; ++i) a0[i][j] = s;
  }
  double c[4];
  for (std::size_t f = 0; f < 4; ++f) {
    const double flow = dot(omega, cell.area_normal[f]);
    c[f] = flow < 0 ? -flow / 12 : 0.0;
    if (c[f] == 0) continue;
    const auto& nodes = cell.face_nodes[f];
    for (std::size_t k = 0; k < 3; ++k)
      for (std::size_t l = 0; l < 3; ++l) a0[nodes[k]][nodes[l]] += c[f] * (k == l ? 2 : 1);
  }
  const std::size_t G = static_cast<std::size_t>(groups);
  for (std::size_t g = 0; g < G; ++g) {
    const double m = sigma_t[g] * v20;
    double a[4][4], b[4];
    const double* qg = q + g * 4;
    const double q_sum = qg[0] + qg[1] + qg[2] + qg[3];
    for (std::size_t i = 0; i < 4; ++i) {
      for (std::size_t j = 0; j < 4; ++j) a[i][j] = a0[i][j] + m;
      a[i][i] += m;
      b[i] = v20 * (qg[i] + q_sum);
    }
    for (std::size_t f = 0; f < 4; ++f) {
      if (c[f] == 0) continue;
      const double* up = inflow + (f * G + g) * 3;
      const double up_sum = up[0] + up[1] + up[2];
      const auto& nodes = cell.face_nodes[f];
      for (std::size_t k = 0; k < 3; ++k) b[nodes[k]] += c[f] * (up[k] + up_sum);
    }
    for (std::size_t k = 0; k < 4; ++k) {
      const double inv = 1 / a[k][k];
      for (std::size_t i = k + 1; i < 4; ++i) {
        const double l = a[i][k] * inv;
        for (std::size_t j = k + 1; j < 4; ++j) a[i][j] -= l * a[k][j];
        b[i] -= l * b[k];
      }
    }
    double* out = psi + g * 4;
    for (std::size_t k = 4; k-- > 0;) {
      double s = b[k];
      for (std::size_t j = k + 1; j < 4; ++j) s -= a[k][j] * out[j];
      out[k] = s / a[k][k];
    }
  }
}

}  // namespace tycho
