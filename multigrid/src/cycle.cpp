// The cycle (cycle.hpp).
#include "multigrid/cycle.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>

#include "instrument/clock.hpp"
#include "multigrid/node_update.hpp"
#include "multigrid/p1_operator.hpp"
#include "multigrid/ritz_value.hpp"
#include "node_chunks.hpp"

namespace mg {

namespace {

constexpr int kLanczosSteps = 6;

const char* label(const Multigrid& mg, std::size_t level, int phase) {
  return mg.labels[level][static_cast<std::size_t>(phase)].c_str();
}

// y += A u over my cells on the level's threads (the exchange stays outside the parallel
// region, on the calling thread).
void apply_level_cells(Multigrid& mg, std::size_t level, const double* u, double* y) {
  const int team = apply_cells(mg.levels[level], mg.splits[level], u, y, mg.options.cell_kernel);
  mg.cell_loop_team = std::max(mg.cell_loop_team, team);
}

// y = A x over my cells, the shared-node sums: one superstep.
void apply_operator(Multigrid& mg, std::size_t level, const double* x, double* y, const char* tag) {
  LocalLevel& L = mg.levels[level];
  std::fill(y, y + L.n_local, 0.0);
  apply_level_cells(mg, level, x, y);
  run_exchange(L.assemble, y, tag);
}

// The smoother's operator: y += A u over my cells and the shared-node sums (one superstep).
// y is 0 on entry: the smoother zeroes it once, and each node update sets it back to 0 as
// it reads it, instead of a pass of its own per application.
void apply_summed(Multigrid& mg, std::size_t level, const double* u, const char* tag) {
  LocalLevel& L = mg.levels[level];
  apply_level_cells(mg, level, u, L.y.data());
  run_exchange(L.assemble, L.y.data(), tag);
}

struct Timed {
  LevelClock& clock;
  int phase;
  double t0 = instrument::now_seconds();
  ~Timed() { clock.seconds[static_cast<std::size_t>(phase)] += instrument::now_seconds() - t0; }
};

void restrict_residual(Multigrid& mg, std::size_t fine) {
  LocalLevel &F = mg.levels[fine], &C = mg.levels[fine - 1];
  Timed t{mg.clock[fine], kRestrict};
  std::fill(C.b.begin(), C.b.end(), 0.0);
  // Each fine node's residual once, by its owner: r_c = P^T r_f. A refined grid's weights are
  // 1 or 1/2 twice (the products the same bits as a stencil's with those weights).
  if (!F.coarse_pairs.empty()) {
    for (std::size_t s = 0; s < F.n_local; ++s) {
      if (!F.owned[s] || F.dirichlet[s]) continue;
      const std::array<std::uint32_t, 2>& to = F.coarse_pairs[s];
      if (to[1] == kNoSlot) {
        C.b[to[0]] += 1.0 * F.r[s];
      } else {
        C.b[to[0]] += 0.5 * F.r[s];
        C.b[to[1]] += 0.5 * F.r[s];
      }
    }
  } else {
    for (std::size_t s = 0; s < F.n_local; ++s) {
      if (!F.owned[s] || F.dirichlet[s]) continue;
      const LocalLevel::SlotStencil& cs = F.coarse_slots[s];
      for (std::uint32_t k = 0; k < cs.count; ++k) C.b[cs.slot[k]] += cs.weight[k] * F.r[s];
    }
  }
  run_exchange(C.restrict_sum, C.b.data(), label(mg, fine, kRestrict));
  ++mg.clock[fine].supersteps[kRestrict];
  for (std::size_t s = 0; s < C.n_local; ++s)
    if (C.dirichlet[s]) C.b[s] = 0;
  std::fill(C.x.begin(), C.x.end(), 0.0);
}

void prolong_correction(Multigrid& mg, std::size_t fine) {
  LocalLevel &F = mg.levels[fine], &C = mg.levels[fine - 1];
  Timed t{mg.clock[fine], kProlong};
  run_exchange(C.prolong_fetch, C.x.data(), label(mg, fine, kProlong));
  ++mg.clock[fine].supersteps[kProlong];
  detail::for_node_chunks(F.n_local, mg.options.threads, mg.options.min_nodes_per_thread, [&F, &C](std::size_t begin, std::size_t end) {
    if (!F.coarse_pairs.empty()) {
      for (std::size_t s = begin; s < end; ++s) {
        if (F.dirichlet[s]) continue;
        const std::array<std::uint32_t, 2>& from = F.coarse_pairs[s];
        double sum = 0;  // as the stencil's loop below adds, with weights 1 or 1/2 twice
        if (from[1] == kNoSlot) {
          sum += 1.0 * C.x[from[0]];
        } else {
          sum += 0.5 * C.x[from[0]];
          sum += 0.5 * C.x[from[1]];
        }
        F.x[s] += sum;
      }
      return;
    }
    for (std::size_t s = begin; s < end; ++s) {
      if (F.dirichlet[s]) continue;
      const LocalLevel::SlotStencil& cs = F.coarse_slots[s];
      double sum = 0;
      for (std::uint32_t k = 0; k < cs.count; ++k) sum += cs.weight[k] * C.x[cs.slot[k]];
      F.x[s] += sum;
    }
  });
}

void compute_residual(Multigrid& mg, std::size_t level) {
  LocalLevel& L = mg.levels[level];
  Timed t{mg.clock[level], kResidual};
  apply_operator(mg, level, L.x.data(), L.y.data(), label(mg, level, kResidual));
  ++mg.clock[level].supersteps[kResidual];
  ++mg.clock[level].operator_applications;
  detail::for_node_chunks(L.n_local, mg.options.threads, mg.options.min_nodes_per_thread, [&L](std::size_t begin, std::size_t end) {
    for (std::size_t s = begin; s < end; ++s) L.r[s] = L.dirichlet[s] ? 0.0 : L.b[s] - L.y[s];
  });
}

}  // namespace

const char* phase_name(int phase) {
  static const char* const names[kPhases] = {"pre-smooth", "residual", "restrict", "prolong", "post-smooth", "coarse"};
  return names[phase];
}

namespace {

std::string cycle_label(int grid, int phase) { return "grid " + std::to_string(grid) + " " + phase_name(phase); }

}  // namespace

SuperstepLabels cycle_labels(std::size_t levels) {
  SuperstepLabels labels;
  for (int grid = 1; grid <= static_cast<int>(levels); ++grid)
    for (int p = 0; p < kPhases; ++p) labels.emplace(cycle_label(grid, p), SuperstepTag{grid, p});
  return labels;
}

const char* smoother_name(Smoother s) { return s == Smoother::jacobi ? "jacobi" : "chebyshev"; }

namespace {

void jacobi(Multigrid& mg, std::size_t level, double a, double b, int iterations, const char* tag) {
  LocalLevel& L = mg.levels[level];
  const double w = 2.0 / (a + b);
  std::fill(L.y.begin(), L.y.begin() + static_cast<std::ptrdiff_t>(L.n_local), 0.0);
  for (int it = 0; it < iterations; ++it) {
    apply_summed(mg, level, L.x.data(), tag);
    jacobi_update(L, w, mg.options.threads, mg.options.min_nodes_per_thread);
  }
}

// Chebyshev iteration on D^-1 A over [a, b] (Saad, Iterative
// Methods, alg. 12.1, with the preconditioned residual z = D^-1 (b - A x)); the first
// application makes z from x, each later one updates it from the step d. The node pass
// after each application also takes the step x += d it makes (the algorithm's next one):
// one pass over the nodes an application, not two.
void chebyshev(Multigrid& mg, std::size_t level, double a, double b, int iterations, const char* tag) {
  LocalLevel& L = mg.levels[level];
  const int threads = mg.options.threads;
  const std::size_t least = mg.options.min_nodes_per_thread;
  const double theta = 0.5 * (b + a), delta = 0.5 * (b - a), sigma = theta / delta;
  std::fill(L.y.begin(), L.y.begin() + static_cast<std::ptrdiff_t>(L.n_local), 0.0);
  apply_summed(mg, level, L.x.data(), tag);
  chebyshev_first_update(L, theta, threads, least);
  double rho = 1.0 / sigma;
  for (int k = 1; k < iterations; ++k) {
    apply_summed(mg, level, L.d.data(), tag);
    const double rho_next = 1.0 / (2.0 * sigma - rho);
    // rho_next * rho * d + 2 rho_next / delta * z, evaluated as written: the same bits
    chebyshev_update(L, rho_next * rho, 2.0 * rho_next / delta, threads, least);
    rho = rho_next;
  }
}

// A node the Lanczos sums run over: mine and not Dirichlet.
bool free_node(const LocalLevel& L, std::size_t s) { return L.owned[s] && !L.dirichlet[s]; }

// sum of a[s] b[s] over the free nodes.
double free_dot(const LocalLevel& L, const double* a, const double* b) {
  double sum = 0;
  for (std::size_t s = 0; s < L.n_local; ++s)
    if (free_node(L, s)) sum += a[s] * b[s];
  return sum;
}

// r -= alpha q, then the sum of r[s] dinv[s] r[s] over the free nodes.
double update_residual(const LocalLevel& L, double alpha, const double* q, double* r) {
  const double* dinv = L.diag_inv.data();
  double sum = 0;
  for (std::size_t s = 0; s < L.n_local; ++s) {
    r[s] -= alpha * q[s];
    if (free_node(L, s)) sum += r[s] * dinv[s] * r[s];
  }
  return sum;
}

}  // namespace

// lambda_max(D^-1 A) on the level's free nodes, estimated from `steps` steps of conjugate
// gradients on A x = r0 preconditioned by D (Jacobi): their coefficients are the Lanczos
// tridiagonal of D^-1 A in the D-inner product (Saad, Iterative Methods, sec. 6.7.3), whose
// largest eigenvalue (a Ritz value) approaches lambda_max from below faster than power
// iteration's Rayleigh quotient. On `--cube 8 --grids 4` 6 steps give grids 1-3 (finest
// first) 1.858, 1.835, 1.937 where 12 power steps gave 1.851, 1.825, 1.927 (the converged
// values 1.995, 1.995, 1.981): as close, at half the operator applications; the 729-node
// coarsest grid gets 1.502 (power 1.585, converged 1.924), still inside the interval its 30
// Chebyshev steps damp (up to a + b). r0 depends only on the global node number (the same on
// every process count). r, the search direction p and q = A p live in the level's residual,
// Chebyshev step and product vectors, which the cycle writes before it reads them (new
// vectors would cost first-touch page faults for nothing); all three are zeroed again at the
// end, as the level had them.
double lanczos_lambda_max(Multigrid& mg, std::size_t l, GlobalSum& sums, int steps) {
  LocalLevel& L = mg.levels[l];
  const double* dinv = L.diag_inv.data();
  double* r = L.r.data();
  double* p = L.d.data();
  double* q = L.y.data();
  for (std::size_t s = 0; s < L.n_local; ++s) {
    r[s] = L.dirichlet[s] ? 0.0 : 1.0 + 0.5 * std::sin(1.0 + 0.7 * L.node_global[s]);
    p[s] = dinv[s] * r[s];
  }
  double rz = sums.sum(free_dot(L, r, p), "setup lanczos sums");
  std::vector<double> diag, off;
  double alpha_before = 0, beta_before = 0;
  for (int k = 0; k < steps && rz > 0; ++k) {
    apply_operator(mg, l, p, q, "setup lanczos");
    const double pq = sums.sum(free_dot(L, p, q), "setup lanczos sums");
    if (!(pq > 0)) break;  // A is positive definite on the free nodes: only an exhausted space gives 0
    const double alpha = rz / pq;
    diag.push_back(1.0 / alpha + (k > 0 ? beta_before / alpha_before : 0.0));
    if (k + 1 == steps) break;
    const double rz_next = sums.sum(update_residual(L, alpha, q, r), "setup lanczos sums");
    const double beta = rz_next / rz;
    if (!(rz_next > 0)) break;
    off.push_back(std::sqrt(beta) / alpha);
    for (std::size_t s = 0; s < L.n_local; ++s) p[s] = dinv[s] * r[s] + beta * p[s];
    rz = rz_next;
    alpha_before = alpha;
    beta_before = beta;
  }
  std::fill(L.r.begin(), L.r.end(), 0.0);
  std::fill(L.d.begin(), L.d.end(), 0.0);
  std::fill(L.y.begin(), L.y.end(), 0.0);
  if (diag.empty()) return 1.0;  // no free node: any interval will do
  off.resize(diag.size() - 1);
  return largest_tridiagonal_eigenvalue(diag, off);
}

void smooth(Multigrid& mg, std::size_t level, int iterations, int phase) {
  if (iterations == 0) return;  // --pre 0: no superstep at all, as the counts say
  Timed t{mg.clock[level], phase};
  const double b = mg.lambda_max[level], a = mg.options.smoothing_lower * b;
  if (mg.options.smoother == Smoother::jacobi) jacobi(mg, level, a, b, iterations, label(mg, level, phase));
  else chebyshev(mg, level, a, b, iterations, label(mg, level, phase));
  mg.clock[level].supersteps[static_cast<std::size_t>(phase)] += iterations;
  mg.clock[level].operator_applications += iterations;
}

void prepare(Multigrid& mg, GlobalSum& sums, FinestDiagonal finest) {
  const std::size_t n = mg.levels.size();
  mg.labels.assign(n, {});
  for (std::size_t l = 0; l < n; ++l)
    for (int p = 0; p < kPhases; ++p) mg.labels[l][static_cast<std::size_t>(p)] = cycle_label(static_cast<int>(n - l), p);
  mg.clock.assign(n, {});
  mg.lambda_max.assign(n, 1.0);
  mg.splits.clear();
  for (const LocalLevel& L : mg.levels) mg.splits.push_back(split_cell_loop(L, mg.options.threads, mg.options.min_cells_per_thread));
  for (std::size_t l = 0; l < n; ++l) {
    LocalLevel& L = mg.levels[l];
    std::vector<double>& d = L.diag_inv;
    if (l + 1 < n || finest == FinestDiagonal::to_sum) {
      std::fill(d.begin(), d.end(), 0.0);
      add_cell_diagonal(L, d.data());
    }
    run_exchange(L.assemble, d.data(), "setup diagonal");
    for (std::size_t s = 0; s < L.n_local; ++s) d[s] = L.dirichlet[s] ? 0.0 : 1.0 / d[s];
    mg.lambda_max[l] = 1.1 * lanczos_lambda_max(mg, l, sums, kLanczosSteps);
  }
}

void cycle(Multigrid& mg, std::size_t level) {
  if (level == 0) {
    smooth(mg, 0, mg.options.coarse_iterations, kCoarse);
    return;
  }
  smooth(mg, level, mg.options.pre, kPreSmooth);
  compute_residual(mg, level);
  restrict_residual(mg, level);
  for (int k = 0; k < mg.options.gamma; ++k) cycle(mg, level - 1);
  prolong_correction(mg, level);
  smooth(mg, level, mg.options.post, kPostSmooth);
}

double residual_norm(Multigrid& mg, GlobalSum& sums) {
  const std::size_t top = mg.levels.size() - 1;
  LocalLevel& L = mg.levels[top];
  apply_operator(mg, top, L.x.data(), L.y.data(), "monitor residual");
  double sq = 0;
  for (std::size_t s = 0; s < L.n_local; ++s)
    if (L.owned[s] && !L.dirichlet[s]) {
      const double r = L.b[s] - L.y[s];
      sq += r * r;
    }
  return std::sqrt(sums.sum(sq, "monitor norm"));
}

}  // namespace mg
