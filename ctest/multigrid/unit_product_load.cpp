// The load and the error norm of a separable function (ProductFunction, p1_operator.hpp),
// whose sines are kept per pattern of a cell's corner coordinates (axis_value_cache.hpp):
// the same bits as the std::function forms that evaluate f at every quadrature point, on a
// refined cube (few patterns) and on a distorted one (where patterns seldom repeat), and the
// cache's values the same whether it keeps a pattern or is full.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "../../multigrid/src/axis_value_cache.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/tet_quadrature.hpp"
#include "multigrid/grid_partition.hpp"
#include "multigrid/hierarchy.hpp"
#include "multigrid/local_level.hpp"
#include "multigrid/p1_operator.hpp"

namespace {

const double kPi = std::acos(-1.0);

double sine_pi(double t) { return std::sin(kPi * t); }

// The finest of `grids` grids on the cube of n^3 cubes, its interior coarse nodes moved by up
// to `distort` of a cube, held whole by one process.
mg::LocalLevel cube_level(int n, int grids, double distort) {
  mesh::Mesh coarse = mesh::kuhn_cube_mesh(n, 1.0);
  for (std::size_t k = 0; k < coarse.nodes.size(); ++k) {
    mesh::Vec3& v = coarse.nodes[k];
    const auto inside = [](double c) { return c > 1e-9 && c < 1 - 1e-9; };
    if (!inside(v.x) || !inside(v.y) || !inside(v.z)) continue;
    const double t = static_cast<double>(k), h = distort / n;
    v = {v.x + h * std::sin(1.7 * t), v.y + h * std::sin(2.3 * t + 1), v.z + h * std::sin(3.1 * t + 2)};
  }
  const std::vector<mg::Grid> g = mg::build_hierarchy(coarse, grids, "test");
  const mesh::Partition one{1, std::vector<std::int32_t>(g.back().mesh.cells.size(), 0)};
  std::vector<mg::LocalLevel> levels = mg::build_local_levels(g, mg::inherit_parts(g, one), 0, 1);
  return std::move(levels.back());
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

}  // namespace

TEST_CASE("a product load and error norm give the bits of f evaluated at every point") {
  const mg::ProductFunction f{3 * kPi * kPi, sine_pi}, u{1.0, sine_pi};
  const auto f_each = [](double x, double y, double z) {
    return 3 * kPi * kPi * (std::sin(kPi * x) * std::sin(kPi * y) * std::sin(kPi * z));
  };
  const auto u_each = [](double x, double y, double z) { return std::sin(kPi * x) * std::sin(kPi * y) * std::sin(kPi * z); };
  // 3 grids on 2^3 cubes: 3072 cells; on distorted 3^3 cubes: 10368 cells.
  for (const auto& [n, distort] : {std::pair{2, 0.0}, std::pair{3, 0.3}}) {
    CAPTURE(n, distort);
    const mg::LocalLevel L = cube_level(n, 3, distort);
    std::vector<double> b_product(L.slots(), 0.25), b_each(L.slots(), 0.25);  // not cleared: both add
    mg::add_cell_load(L, f, b_product.data());
    mg::add_cell_load(L, f_each, b_each.data());
    CHECK(same_bits(b_product, b_each));
    std::vector<double> uh(L.slots());
    for (std::size_t s = 0; s < uh.size(); ++s) uh[s] = 0.01 * static_cast<double>(s % 17);
    const double e_product = mg::cell_l2_error_squared(L, uh.data(), u);
    const double e_each = mg::cell_l2_error_squared(L, uh.data(), u_each);
    CHECK(std::memcmp(&e_product, &e_each, sizeof(double)) == 0);
  }
}

TEST_CASE("the axis cache gives g at the rule's points, kept or full") {
  const mesh::TetQuadrature rule = mesh::conical_product_rule(4);
  mg::detail::AxisValueCache roomy(rule, sine_pi), full(rule, sine_pi, 1);
  const std::array<double, 4> patterns[3] = {{0, 0.5, 0.25, 0.125}, {0.1, 0.3, 0.7, -0.0}, {0, 0.5, 0.25, 0.125}};
  for (const auto& c : patterns)
    for (mg::detail::AxisValueCache* cache : {&roomy, &full}) {
      const double* v = cache->values(c);
      for (std::size_t k = 0; k < rule.bary.size(); ++k) {
        double x = 0;
        for (std::size_t i = 0; i < 4; ++i) x += rule.bary[k][i] * c[i];
        const double expected = sine_pi(x);
        CHECK(std::memcmp(&v[k], &expected, sizeof(double)) == 0);
      }
    }
}
