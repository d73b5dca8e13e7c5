// The LD cell solve: the reference tetrahedron's matrices worked by hand, then on every cell
// of an unstructured mesh (the jittered cube of ../mesh/jittered_cube.hpp, 1296 cells) and
// every S8 direction: constants and linear fields reproduced, the void carrying a linear
// inflow field unchanged, and the particle balance to round-off.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "tycho/cell_solve.hpp"
#include "tycho/ld_tet.hpp"
#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/mesh_from_cells.hpp"
#include "mesh/mesh_geometry.hpp"
#include "tycho/quadrature.hpp"

#include "../mesh/jittered_cube.hpp"

using namespace tycho;
using namespace mesh;

namespace {

double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

Vec3 node_of(const Mesh& m, Index c, std::size_t i) { return m.nodes[m.cells[c].nodes[i]]; }

// A tetrahedron with no symmetry, its nodes listed in a scrambled order, so that face and
// node orders of the record differ from the reference tet's.
Mesh skewed_tet_mesh() {
  Mesh m = mesh_from_cells({{0.3, 0.1, 0.2}, {2.1, 0.4, -0.3}, {0.5, 1.7, 0.1}, {0.2, 0.6, 1.9}}, {{{2, 0, 3, 1}, 0}},
                           "skewed tet");
  check_mesh(m, "skewed tet");
  compute_geometry(m);
  return m;
}

// Inflow values of psi(x) = a + b.x on every face of cell c (read only where inflow).
FaceValues linear_inflow(const Mesh& m, const LdTet& t, Index c, double a, const Vec3& b) {
  FaceValues in{};
  for (std::size_t f = 0; f < 4; ++f)
    for (std::size_t k = 0; k < 3; ++k) in[f][k] = a + dot(b, node_of(m, c, t.face_nodes[f][k]));
  return in;
}

// outflow - inflow + sigma_t int psi - int q, and the largest of its terms (for the scale).
std::pair<double, double> balance(const LdTet& t, const Vec3& omega, double sigma_t, const NodeValues& q,
                                  const FaceValues& in, const NodeValues& psi) {
  double net = 0, scale = 0;
  for (std::size_t f = 0; f < 4; ++f) {
    const double flow = dot(omega, t.area_normal[f]);
    const auto& n = t.face_nodes[f];
    const double mean = flow >= 0 ? (psi[n[0]] + psi[n[1]] + psi[n[2]]) / 3 : (in[f][0] + in[f][1] + in[f][2]) / 3;
    net += flow * mean;
    scale = std::max(scale, std::abs(flow * mean));
  }
  const double absorbed = sigma_t * t.volume / 4 * (psi[0] + psi[1] + psi[2] + psi[3]);
  const double source = t.volume / 4 * (q[0] + q[1] + q[2] + q[3]);
  return {net + absorbed - source, std::max({scale, std::abs(absorbed), std::abs(source)})};
}

std::vector<Mesh> test_meshes() {
  std::vector<Mesh> ms;
  ms.push_back(corner_tet_mesh());
  ms.push_back(skewed_tet_mesh());
  ms.push_back(kuhn_cube_mesh(1, 2.0));
  ms.push_back(meshtest::jittered_cube(6, 100.0));
  return ms;
}

}  // namespace

TEST_CASE("the reference tetrahedron's LD matrices worked by hand", "[cell_solve]") {
  const Mesh m = corner_tet_mesh();
  const LdTet t = ld_tet(m, 0);
  CHECK(t.volume == Approx(1.0 / 6).epsilon(1e-15));
  // b0 = 1 - x - y - z, b1 = x, b2 = y, b3 = z.
  const std::array<Vec3, 4> grad = {Vec3{-1, -1, -1}, Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}};
  for (std::size_t i = 0; i < 4; ++i) {
    const Vec3 g = ld_gradient(t, static_cast<int>(i));
    CHECK(g.x == Approx(grad[i].x).margin(1e-14));
    CHECK(g.y == Approx(grad[i].y).margin(1e-14));
    CHECK(g.z == Approx(grad[i].z).margin(1e-14));
  }
  const Matrix4 mass = ld_mass_matrix(t);  // V/20 (1 + delta): 1/60 and 1/120
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = 0; j < 4; ++j) CHECK(mass[i][j] == Approx(i == j ? 1.0 / 60 : 1.0 / 120).epsilon(1e-14));
  // Local face 0 is the slanted one (area sqrt(3)/2) on nodes 1, 2, 3; face 1 on x = 0, area 1/2.
  CHECK(t.face_nodes[0] == std::array<std::uint8_t, 3>{1, 2, 3});
  CHECK(t.face_nodes[1] == std::array<std::uint8_t, 3>{0, 2, 3});
  const Matrix3 slanted = ld_face_mass_matrix(t, 0);
  const Matrix3 side = ld_face_mass_matrix(t, 1);
  for (std::size_t i = 0; i < 3; ++i)
    for (std::size_t j = 0; j < 3; ++j) {
      CHECK(slanted[i][j] == Approx(std::sqrt(3.0) / 24 * (i == j ? 2 : 1)).epsilon(1e-14));
      CHECK(side[i][j] == Approx(i == j ? 1.0 / 12 : 1.0 / 24).epsilon(1e-14));
    }
  // Omega = x: K_ij = V/4 grad b_j . x = (-1, 1, 0, 0)_j / 24.
  const Matrix4 k = ld_streaming_matrix(t, {1, 0, 0});
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(k[i][0] == Approx(-1.0 / 24).epsilon(1e-14));
    CHECK(k[i][1] == Approx(1.0 / 24).epsilon(1e-14));
    CHECK(k[i][2] == Approx(0).margin(1e-15));
    CHECK(k[i][3] == Approx(0).margin(1e-15));
  }
}

TEST_CASE("LD on the reference tet with Omega = x, worked by hand", "[cell_solve]") {
  // Inflow only through x = 0 (face 1: nodes 0, 2, 3), psi_up = 1 there, sigma_t = 0, q = 0:
  // the solution is psi = 1 everywhere (nothing changes along x).
  const Mesh m = corner_tet_mesh();
  const LdTet t = ld_tet(m, 0);
  FaceValues in{};
  in[1] = {1, 1, 1};
  NodeValues out{};
  solve_cell_ld(t, {1, 0, 0}, 0.0, {0, 0, 0, 0}, in, out);
  for (double v : out) CHECK(v == Approx(1).epsilon(1e-14));
  // sigma_t = 3, q = 3, zero inflow. Times 120 the system is (K: 5 (-1, 1, 0, 0)_j; sigma M:
  // 3 (1 + delta); the x = 0 face: 5 (1 + delta) on nodes 0, 2, 3; right side 15 each):
  //   11 a + 8 b + 16 s = 15,  -2 a + 11 b + 6 s = 15,  3 a + 8 b + 24 s = 15
  // with psi_0 = a, psi_1 = b, psi_2 = psi_3 = s: a = s = 9/53, b = 69/53 (LD overshoots the
  // exact 1 - exp(-3x) at x = 1, as it does in optically thick cells).
  FaceValues none{};
  solve_cell_ld(t, {1, 0, 0}, 3.0, {3, 3, 3, 3}, none, out);
  CHECK(out[0] == Approx(9.0 / 53).epsilon(1e-14));
  CHECK(out[1] == Approx(69.0 / 53).epsilon(1e-14));
  CHECK(out[2] == Approx(9.0 / 53).epsilon(1e-14));
  CHECK(out[3] == Approx(9.0 / 53).epsilon(1e-14));
  const auto [net, scale] = balance(t, {1, 0, 0}, 3.0, {3, 3, 3, 3}, none, out);
  CHECK(std::abs(net) <= 1e-14 * scale);
}

TEST_CASE("LD reproduces a constant, a linear field, and a void's unchanged linear inflow on every cell and S8 direction",
          "[cell_solve]") {
  const Quadrature s8 = level_symmetric(8, "test");
  for (const Mesh& m : test_meshes()) {
    const std::vector<LdTet> tets = ld_tets(m);
    double worst_constant = 0, worst_linear = 0, worst_void = 0;
    for (Index c = 0; c < m.cells.size(); ++c) {
      const LdTet& t = tets[c];
      const Vec3 x0 = node_of(m, c, 0);
      for (const Vec3& omega : s8.omega) {
        NodeValues out{};
        // Constant psi0 = 2.5 with q = sigma_t psi0.
        const double sigma = 0.7, psi0 = 2.5;
        FaceValues in{};
        for (auto& f : in) f = {psi0, psi0, psi0};
        solve_cell_ld(t, omega, sigma, {sigma * psi0, sigma * psi0, sigma * psi0, sigma * psi0}, in, out);
        for (double v : out) worst_constant = std::max(worst_constant, std::abs(v - psi0) / psi0);
        // Linear psi = a + b.(x - x0), q = Omega.b + sigma psi at the nodes.
        const Vec3 b{0.3, -1.1, 0.6};
        const double a = 4 - dot(b, x0);
        NodeValues q{};
        for (std::size_t i = 0; i < 4; ++i) q[i] = dot(omega, b) + sigma * (a + dot(b, node_of(m, c, i)));
        solve_cell_ld(t, omega, sigma, q, linear_inflow(m, t, c, a, b), out);
        for (std::size_t i = 0; i < 4; ++i) {
          const double exact = a + dot(b, node_of(m, c, i));
          worst_linear = std::max(worst_linear, std::abs(out[i] - exact) / (1 + std::abs(exact)));
        }
        // Void: psi = a + g.x with g perpendicular to Omega is carried unchanged.
        const Vec3 g{omega.y * 0.8 - omega.z * 0.5, omega.z * 1.3 - omega.x * 0.8, omega.x * 0.5 - omega.y * 1.3};
        const double av = 3 - dot(g, x0);
        solve_cell_ld(t, omega, 0.0, {0, 0, 0, 0}, linear_inflow(m, t, c, av, g), out);
        for (std::size_t i = 0; i < 4; ++i) {
          const double exact = av + dot(g, node_of(m, c, i));
          worst_void = std::max(worst_void, std::abs(out[i] - exact) / (1 + std::abs(exact)));
        }
      }
    }
    INFO(m.cells.size() << " cells");
    CHECK(worst_constant < 1e-12);
    CHECK(worst_linear < 1e-11);
    CHECK(worst_void < 1e-11);
  }
}

TEST_CASE("LD balances particles in every cell to round-off: outflow - inflow + absorption = source", "[cell_solve]") {
  const Quadrature s8 = level_symmetric(8, "test");
  for (const Mesh& m : test_meshes()) {
    const std::vector<LdTet> tets = ld_tets(m);
    double worst = 0;
    for (Index c = 0; c < m.cells.size(); ++c) {
      for (std::size_t d = 0; d < s8.size(); ++d) {
        // Values with no structure, deterministic per (cell, direction).
        const double s = 0.1 + static_cast<double>((c * 7 + d * 13) % 17);
        const NodeValues q{s, 2 * s, 0.5, 3.0};
        FaceValues in{};
        for (std::size_t f = 0; f < 4; ++f) in[f] = {1.0 + static_cast<double>(f), s / 3, 0.25 * s};
        const double sigma = (d % 3 == 0) ? 0.0 : 0.013 * s;
        NodeValues out{};
        solve_cell_ld(tets[c], s8.omega[d], sigma, q, in, out);
        const auto [net, scale] = balance(tets[c], s8.omega[d], sigma, q, in, out);
        worst = std::max(worst, std::abs(net) / scale);
      }
    }
    INFO(m.cells.size() << " cells");
    CHECK(worst < 1e-12);
  }
}

TEST_CASE("step: a constant reproduced, the balance to round-off, and a case worked by hand", "[cell_solve][step]") {
  // Reference tet, Omega = x: inflow through x = 0 (area 1/2), outflow through the slanted
  // face (Omega.n A = 1/sqrt(3) sqrt(3)/2 = 1/2); sigma_t = 3, V = 1/6, q = 3, inflow mean 2:
  // psi (3/6 + 1/2) = 3/6 + 1/2 * 2  ->  psi = 1.5.
  const Mesh m = corner_tet_mesh();
  const LdTet t = ld_tet(m, 0);
  FaceValues in{};
  in[1] = {1, 2, 3};
  NodeValues out{};
  solve_cell_step(t, {1, 0, 0}, 3.0, {3, 3, 3, 3}, in, out);
  for (double v : out) CHECK(v == Approx(1.5).epsilon(1e-14));

  const Quadrature s8 = level_symmetric(8, "test");
  for (const Mesh& mesh : test_meshes()) {
    const std::vector<LdTet> tets = ld_tets(mesh);
    double worst_constant = 0, worst_balance = 0;
    for (Index c = 0; c < mesh.cells.size(); ++c) {
      for (std::size_t d = 0; d < s8.size(); ++d) {
        FaceValues flat{};
        for (auto& f : flat) f = {2.5, 2.5, 2.5};
        solve_cell_step(tets[c], s8.omega[d], 0.7, {1.75, 1.75, 1.75, 1.75}, flat, out);
        for (double v : out) worst_constant = std::max(worst_constant, std::abs(v - 2.5) / 2.5);
        const double s = 0.1 + static_cast<double>((c * 7 + d * 13) % 17);
        const NodeValues q{s, 2 * s, 0.5, 3.0};
        FaceValues up{};
        for (std::size_t f = 0; f < 4; ++f) up[f] = {1.0 + static_cast<double>(f), s / 3, 0.25 * s};
        const double sigma = (d % 3 == 0) ? 0.0 : 0.013 * s;
        solve_cell_step(tets[c], s8.omega[d], sigma, q, up, out);
        CHECK(out[0] == out[3]);
        const auto [net, scale] = balance(tets[c], s8.omega[d], sigma, q, up, out);
        worst_balance = std::max(worst_balance, std::abs(net) / scale);
      }
    }
    INFO(mesh.cells.size() << " cells");
    CHECK(worst_constant < 1e-13);
    CHECK(worst_balance < 1e-12);
  }
}

TEST_CASE("the sweep's all-groups LD solve agrees with the one-group solve to round-off, voids included",
          "[cell_solve][groups]") {
  const Quadrature s8 = level_symmetric(8, "test");
  constexpr int G = 3;
  for (const Mesh& m : test_meshes()) {
    const std::vector<LdTet> tets = ld_tets(m);
    double worst = 0;
    for (Index c = 0; c < m.cells.size(); ++c) {
      for (std::size_t d = 0; d < s8.size(); ++d) {
        const double s = 0.1 + static_cast<double>((c * 7 + d * 13) % 17);
        // Group 0 a void (the matrix is then streaming and faces alone), 1 and 2 thick.
        const double sigma[G] = {0.0, 0.013 * s, 40.0 / std::cbrt(tets[c].volume)};
        double q[G * 4], inflow[4 * G * 3], psi[G * 4];
        for (int g = 0; g < G; ++g)
          for (int n = 0; n < 4; ++n) q[g * 4 + n] = s * (n + 1) + g;
        for (int f = 0; f < 4; ++f)
          for (int g = 0; g < G; ++g)
            for (int k = 0; k < 3; ++k) inflow[(f * G + g) * 3 + k] = 1.0 + f + 0.3 * k * s + g;
        solve_cell_ld_groups(tets[c], s8.omega[d], G, sigma, q, inflow, psi);
        for (std::size_t g = 0; g < G; ++g) {
          NodeValues qg{}, out{};
          FaceValues in{};
          for (std::size_t n = 0; n < 4; ++n) qg[n] = q[g * 4 + n];
          for (std::size_t f = 0; f < 4; ++f)
            for (std::size_t k = 0; k < 3; ++k) in[f][k] = inflow[(f * G + g) * 3 + k];
          solve_cell_ld(tets[c], s8.omega[d], sigma[g], qg, in, out);
          double scale = 0;
          for (double v : out) scale = std::max(scale, std::abs(v));
          for (std::size_t n = 0; n < 4; ++n) worst = std::max(worst, std::abs(psi[g * 4 + n] - out[n]) / scale);
        }
      }
    }
    INFO(m.cells.size() << " cells");
    CHECK(worst < 1e-11);
  }
}

TEST_CASE("the all-groups LD solve gives a group the same bits at 1, 2 and 3 groups", "[cell_solve][groups]") {
  // 1 and 2 groups take solve_cell_ld_groups' unrolled paths, 3 the general one; a group's
  // lane does the scalar operations in one order, so its psi may not depend on the path.
  const Quadrature s8 = level_symmetric(8, "test");
  constexpr int G = 3;
  for (const Mesh& m : test_meshes()) {
    const std::vector<LdTet> tets = ld_tets(m);
    std::size_t compared = 0;
    for (Index c = 0; c < m.cells.size(); ++c) {
      for (std::size_t d = 0; d < s8.size(); ++d) {
        const double s = 0.1 + static_cast<double>((c * 5 + d * 11) % 13);
        const double sigma[G] = {0.013 * s, 0.0, 40.0 / std::cbrt(tets[c].volume)};
        double q[G * 4], inflow[4 * G * 3], psi[G * 4];
        for (int g = 0; g < G; ++g)
          for (int n = 0; n < 4; ++n) q[g * 4 + n] = s * (n + 2) + g;
        for (int f = 0; f < 4; ++f)
          for (int g = 0; g < G; ++g)
            for (int k = 0; k < 3; ++k) inflow[(f * G + g) * 3 + k] = 0.5 + f + 0.7 * k * s + g;
        solve_cell_ld_groups(tets[c], s8.omega[d], G, sigma, q, inflow, psi);
        for (int groups = 1; groups <= 2; ++groups) {
          double in[4 * 2 * 3], out[2 * 4];
          for (int f = 0; f < 4; ++f)
            for (int g = 0; g < groups; ++g)
              for (int k = 0; k < 3; ++k) in[(f * groups + g) * 3 + k] = inflow[(f * G + g) * 3 + k];
          solve_cell_ld_groups(tets[c], s8.omega[d], groups, sigma, q, in, out);
          for (int v = 0; v < groups * 4; ++v) {
            REQUIRE(out[v] == psi[v]);
            ++compared;
          }
        }
      }
    }
    CHECK(compared == m.cells.size() * s8.size() * 12);
  }
}
