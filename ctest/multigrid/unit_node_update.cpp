// The smoothers' node passes (node_update.hpp) on three nodes worked by hand: what each
// writes to x, z and d, that a Dirichlet node keeps its x, and that y is left 0 for the next
// application (the smoothers no longer zero it in a pass of their own).
#include <catch2/catch.hpp>

#include <vector>

#include "multigrid/local_level.hpp"
#include "multigrid/node_update.hpp"

using Catch::Matchers::WithinRel;

namespace {

// Nodes 0 and 1 free, node 2 Dirichlet (its D^-1 is 0, as prepare() makes it).
mg::LocalLevel three_nodes() {
  mg::LocalLevel L;
  L.n_local = 3;
  L.x = {1.0, -2.0, 7.0};
  L.y = {2.0, 1.0, 3.0};
  L.b = {5.0, 0.0, 9.0};
  L.diag_inv = {0.5, 0.25, 0.0};
  L.dirichlet = {0, 0, 1};
  L.r = {0.4, -1.0, 0.0};  // z
  L.d = {0.2, 0.1, 0.0};
  return L;
}

void check_y_cleared(const mg::LocalLevel& L) {
  for (double v : L.y) CHECK(v == 0.0);
}

}  // namespace

TEST_CASE("jacobi_update: x += w D^-1 (b - y) at the free nodes, y back to 0") {
  mg::LocalLevel L = three_nodes();
  mg::jacobi_update(L, 0.8);
  // 1 + 0.8 * 0.5 * (5 - 2) = 2.2; -2 + 0.8 * 0.25 * (0 - 1) = -2.2; the Dirichlet node keeps 7.
  CHECK_THAT(L.x[0], WithinRel(2.2, 1e-15));
  CHECK_THAT(L.x[1], WithinRel(-2.2, 1e-15));
  CHECK(L.x[2] == 7.0);
  check_y_cleared(L);
}

TEST_CASE("chebyshev_first_update: z = D^-1 (b - y), d = z / theta, x += d") {
  mg::LocalLevel L = three_nodes();
  mg::chebyshev_first_update(L, 2.0);
  // z = 0.5 * 3 = 1.5, d = 0.75, x = 1.75; z = 0.25 * -1 = -0.25, d = -0.125, x = -2.125.
  CHECK(L.r[0] == 1.5);
  CHECK(L.d[0] == 0.75);
  CHECK(L.x[0] == 1.75);
  CHECK(L.r[1] == -0.25);
  CHECK(L.d[1] == -0.125);
  CHECK(L.x[1] == -2.125);
  CHECK(L.r[2] == 0.0);
  CHECK(L.d[2] == 0.0);
  CHECK(L.x[2] == 7.0);
  check_y_cleared(L);
}

TEST_CASE("chebyshev_update: z -= D^-1 y, d = keep d + step z, x += d") {
  mg::LocalLevel L = three_nodes();
  mg::chebyshev_update(L, 0.5, 2.0);
  // z = 0.4 - 0.5 * 2 = -0.6, d = 0.5 * 0.2 + 2 * -0.6 = -1.1, x = -0.1;
  // z = -1 - 0.25 * 1 = -1.25, d = 0.05 - 2.5 = -2.45, x = -4.45; node 2: z = 0, d = 0.
  CHECK_THAT(L.r[0], WithinRel(-0.6, 1e-15));
  CHECK_THAT(L.d[0], WithinRel(-1.1, 1e-15));
  CHECK_THAT(L.x[0], WithinRel(-0.1, 1e-14));
  CHECK(L.r[1] == -1.25);
  CHECK_THAT(L.d[1], WithinRel(-2.45, 1e-15));
  CHECK_THAT(L.x[1], WithinRel(-4.45, 1e-15));
  CHECK(L.r[2] == 0.0);
  CHECK(L.d[2] == 0.0);
  CHECK(L.x[2] == 7.0);
  check_y_cleared(L);
}
