// Source iteration around the parallel sweep (source_iteration.hpp).
#include "tycho/source_iteration.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <numbers>
#include <ostream>
#include <span>

#include "instrument/rank_gather.hpp"

namespace tycho {

namespace {

// q = (sigma_s,g->g phi_g + sigma_s,g-1->g phi_g-1 + Q_g) / 4 pi at each node.
void build_source(const SweepPlan& plan, const std::vector<double>& phi, instrument::AlignedBuffer& q) {
  const std::size_t G = static_cast<std::size_t>(plan.groups);
  const double inv4pi = 1 / (4 * std::numbers::pi);
  for (std::size_t i = 0; i < plan.cells.size(); ++i) {
    const MaterialData& m = plan.materials[plan.material_slot[i]];
    for (std::size_t g = 0; g < G; ++g)
      for (std::size_t n = 0; n < 4; ++n) {
        double s = m.source[g] + m.scatter[g] * phi[(i * G + g) * 4 + n];
        if (g > 0) s += m.downscatter[g] * phi[(i * G + g - 1) * 4 + n];
        q[(i * G + g) * 4 + n] = s * inv4pi;
      }
  }
}

double mean4(const double* v) { return (v[0] + v[1] + v[2] + v[3]) / 4; }

}  // namespace

TransportResult run_source_iteration(const SweepPlan& plan, const Problem& problem, SweepEngine& engine,
                                     MPI_Comm comm, std::ostream* progress) {
  const std::size_t G = static_cast<std::size_t>(plan.groups);
  const std::size_t D = static_cast<std::size_t>(plan.directions);
  const std::size_t cells = plan.cells.size();
  const auto& w = problem.quadrature.weight;
  double weight_sum = 0;
  for (double x : w) weight_sum += x;
  TransportResult r;
  r.phi.assign(cells * G * 4, 0.0);
  std::vector<double> next(cells * G * 4);
  std::vector<double> gather_solve_by_iteration;  // this rank's SweepEngine::gather_solve_seconds of each sweep
  for (int it = 0; it < problem.max_iterations; ++it) {
    const double t_begin = MPI_Wtime();
    build_source(plan, r.phi, engine.source());
    // Balance tallies: [emission G][collision G][leakage G].
    std::vector<double> tally(3 * G, 0.0);
    for (std::size_t i = 0; i < cells; ++i)
      for (std::size_t g = 0; g < G; ++g)
        tally[g] += weight_sum * plan.tets[i].volume * mean4(&engine.source()[(i * G + g) * 4]);
    std::vector<double> leakage(G, 0.0);
    engine.make_history_room(r.history);
    const double t_sweep = MPI_Wtime();
    engine.sweep(it, r.history, leakage);
    gather_solve_by_iteration.push_back(engine.gather_solve_seconds());
    const double sweep_s = MPI_Wtime() - t_sweep;
    // phi in direction order: the same sums, in the same order, whatever the schedule was.
    // Direction by direction, as psi lies (direction-major): each direction's psi is read
    // once, in order, where a cell-major loop strides across all of psi for every cell (7% of
    // a 1-rank run on cube-10717, outside the sweep's time). Each phi value still adds its
    // directions in ascending order: the same bits.
    std::fill(next.begin(), next.end(), 0.0);
    for (std::size_t d = 0; d < D; ++d)
      for (std::size_t i = 0; i < cells; ++i)
        for (std::size_t g = 0; g < G; ++g) {
          const double* psi = engine.psi(i, d, static_cast<int>(g));
          double* phi = &next[(i * G + g) * 4];
          for (std::size_t n = 0; n < 4; ++n) phi[n] += w[d] * psi[n];
        }
    double change = 0;
    for (std::size_t i = 0; i < cells; ++i) {
      const MaterialData& m = plan.materials[plan.material_slot[i]];
      for (std::size_t g = 0; g < G; ++g) {
        const double now = mean4(&next[(i * G + g) * 4]);
        const double before = mean4(&r.phi[(i * G + g) * 4]);
        const double diff = std::abs(now - before);
        change = std::max(change, now != 0 ? diff / std::abs(now) : diff);
        tally[G + g] += m.sigma_t[g] * plan.tets[i].volume * now;
      }
    }
    for (std::size_t g = 0; g < G; ++g) tally[2 * G + g] = leakage[g];
    r.phi.swap(next);
    MPI_Allreduce(MPI_IN_PLACE, tally.data(), static_cast<int>(tally.size()), MPI_DOUBLE, MPI_SUM, comm);
    double times[3] = {change, sweep_s, MPI_Wtime() - t_begin};
    MPI_Allreduce(MPI_IN_PLACE, times, 3, MPI_DOUBLE, MPI_MAX, comm);
    IterationRecord rec;
    rec.iteration = it;
    rec.change = times[0];
    rec.sweep_s = times[1];
    rec.iteration_s = times[2];
    rec.emission.assign(tally.begin(), tally.begin() + static_cast<std::ptrdiff_t>(G));
    rec.collision.assign(tally.begin() + static_cast<std::ptrdiff_t>(G), tally.begin() + static_cast<std::ptrdiff_t>(2 * G));
    rec.leakage.assign(tally.begin() + static_cast<std::ptrdiff_t>(2 * G), tally.end());
    for (std::size_t g = 0; g < G; ++g) {
      const double e = rec.emission[g];
      const double res = e != 0 ? (e - rec.collision[g] - rec.leakage[g]) / e : 0.0;
      rec.residual = std::max(rec.residual, std::abs(res));
    }
    r.iterations.push_back(rec);
    if (progress)
      *progress << " iteration " << it + 1 << ": change " << rec.change << ", sweep " << rec.sweep_s
                << " s, balance residual " << rec.residual << "\n"
                << std::flush;
    if (rec.change < problem.tolerance) {
      r.converged = true;
      break;
    }
  }
  const auto first_scored = static_cast<std::int32_t>(first_scored_iteration(r.iterations.size()));
  for (const StepRecord& s : r.history.steps)
    if (s.iteration >= first_scored) r.compute_s += s.compute_s;
  for (std::size_t it = static_cast<std::size_t>(first_scored); it < gather_solve_by_iteration.size(); ++it)
    r.gather_solve_s += gather_solve_by_iteration[it];
  // Particle balance at the end: absorption = (sigma_t - scattering out) int phi.
  double rates[2] = {0, 0};
  for (std::size_t i = 0; i < cells; ++i) {
    const MaterialData& m = plan.materials[plan.material_slot[i]];
    const double v = plan.tets[i].volume;
    for (std::size_t g = 0; g < G; ++g) {
      const double out = m.scatter[g] + (g + 1 < G ? m.downscatter[g + 1] : 0.0);
      rates[0] += m.source[g] * v;
      rates[1] += (m.sigma_t[g] - out) * v * mean4(&r.phi[(i * G + g) * 4]);
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, rates, 2, MPI_DOUBLE, MPI_SUM, comm);
  r.source_rate = rates[0];
  r.absorption_rate = rates[1];
  return r;
}

std::uint64_t phi_digest(const SweepPlan& plan, const std::vector<double>& phi, MPI_Comm comm) {
  const std::size_t width = static_cast<std::size_t>(plan.groups) * 4;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  // Every rank's cell ids and their fluxes, at rank 0 in rank order.
  const auto gathered_ids = instrument::gather_to_root(comm, std::span<const Index>(plan.cells), 0, "tycho's cell ids");
  const auto gathered_phi = instrument::gather_to_root(
      comm, std::span<const double>(phi).first(plan.cells.size() * width), 0, "tycho's scalar flux");
  const std::vector<Index>& ids = gathered_ids.all;
  const std::vector<double>& all = gathered_phi.all;
  std::uint64_t h = 1469598103934665603ull;
  if (rank == 0) {
    std::vector<std::size_t> at(ids.size());
    for (std::size_t k = 0; k < ids.size(); ++k) at[ids[k]] = k;
    for (std::size_t c = 0; c < ids.size(); ++c)
      for (std::size_t k = 0; k < width; ++k) {
        std::uint64_t bits;
        std::memcpy(&bits, &all[at[c] * width + k], sizeof bits);
        for (int b = 0; b < 8; ++b) {
          h ^= (bits >> (8 * b)) & 0xFF;
          h *= 1099511628211ull;
        }
      }
  }
  MPI_Bcast(&h, 1, MPI_UINT64_T, 0, comm);
  return h;
}

}  // namespace tycho
