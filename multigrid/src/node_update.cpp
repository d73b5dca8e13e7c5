// The smoothers' node passes (node_update.hpp). The vectors are passed as restrict pointers
// so that the compiler may vectorise each pass (they are distinct arrays of the level). A
// node's new values depend on its own old ones alone: threads share a pass in chunks of
// nodes (node_chunks.hpp) with the bits of one.
#include "multigrid/node_update.hpp"

#include <cstdint>

#include "node_chunks.hpp"

namespace mg {

namespace {

void jacobi_pass(std::size_t n, double w, double* __restrict x, double* __restrict y,
                 const double* __restrict diag_inv, const double* __restrict b,
                 const std::uint8_t* __restrict dirichlet) {
  for (std::size_t s = 0; s < n; ++s) {
    x[s] = dirichlet[s] ? x[s] : x[s] + w * diag_inv[s] * (b[s] - y[s]);
    y[s] = 0;
  }
}

void chebyshev_first_pass(std::size_t n, double theta, double* __restrict x, double* __restrict y,
                          double* __restrict z, double* __restrict d, const double* __restrict diag_inv,
                          const double* __restrict b, const std::uint8_t* __restrict dirichlet) {
  for (std::size_t s = 0; s < n; ++s) {
    z[s] = dirichlet[s] ? 0.0 : diag_inv[s] * (b[s] - y[s]);
    d[s] = z[s] / theta;
    x[s] += d[s];
    y[s] = 0;
  }
}

void chebyshev_pass(std::size_t n, double keep, double step, double* __restrict x, double* __restrict y,
                    double* __restrict z, double* __restrict d, const double* __restrict diag_inv) {
  for (std::size_t s = 0; s < n; ++s) {
    z[s] -= diag_inv[s] * y[s];  // diag_inv is 0 at Dirichlet nodes: z stays 0 there
    d[s] = keep * d[s] + step * z[s];
    x[s] += d[s];
    y[s] = 0;
  }
}

}  // namespace

void jacobi_update(LocalLevel& L, double w, int threads, std::size_t min_per_thread) {
  detail::for_node_chunks(L.n_local, threads, min_per_thread, [&](std::size_t i, std::size_t e) {
    jacobi_pass(e - i, w, L.x.data() + i, L.y.data() + i, L.diag_inv.data() + i, L.b.data() + i,
                L.dirichlet.data() + i);
  });
}

void chebyshev_first_update(LocalLevel& L, double theta, int threads, std::size_t min_per_thread) {
  detail::for_node_chunks(L.n_local, threads, min_per_thread, [&](std::size_t i, std::size_t e) {
    chebyshev_first_pass(e - i, theta, L.x.data() + i, L.y.data() + i, L.r.data() + i, L.d.data() + i,
                         L.diag_inv.data() + i, L.b.data() + i, L.dirichlet.data() + i);
  });
}

void chebyshev_update(LocalLevel& L, double keep, double step, int threads, std::size_t min_per_thread) {
  detail::for_node_chunks(L.n_local, threads, min_per_thread, [&](std::size_t i, std::size_t e) {
    chebyshev_pass(e - i, keep, step, L.x.data() + i, L.y.data() + i, L.r.data() + i, L.d.data() + i,
                   L.diag_inv.data() + i);
  });
}

}  // namespace mg
