#include "sweep3d/driver.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <iostream>

#include "instrument/clock.hpp"
#include "sweep3d/octant_sweep.hpp"
#include "sweep3d/problem.hpp"
#include "sweep3d/report.hpp"
#include "sweep3d/source_iteration.hpp"

namespace sweep3d {

double Balance::relative_residual() const {
  if (source == 0.0) return 0.0;
  return (source - absorption - net_leakage()) / source;
}

namespace {

constexpr int kTagGather = 77001;

double cpu_seconds() {
  rusage ru{};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_utime.tv_sec) + 1.0e-6 * static_cast<double>(ru.ru_utime.tv_usec);
}

RankSpread spread(instrument::Comm& comm, double value, bool has) {
  double in_sum[2] = {has ? value : 0.0, has ? 1.0 : 0.0}, sum[2];
  double in_max = has ? value : -HUGE_VAL, mx = 0.0;
  double in_min = has ? value : HUGE_VAL, mn = 0.0;
  comm.allreduce(in_sum, sum, 2, MPI_DOUBLE, MPI_SUM);
  comm.allreduce(&in_max, &mx, 1, MPI_DOUBLE, MPI_MAX);
  comm.allreduce(&in_min, &mn, 1, MPI_DOUBLE, MPI_MIN);
  RankSpread s;
  s.ranks = static_cast<int>(sum[1]);
  if (s.ranks > 0) {
    s.mean = sum[0] / sum[1];
    s.max = mx;
    s.min = mn;
  }
  return s;
}

// Rank 0 receives `count(r)` doubles from every rank r > 0, in rank order, and hands each
// array to `use(r, data)` (its own first). Point-to-point through Comm.
template <class Count, class Use>
void collect_on_root(instrument::Comm& comm, const std::vector<double>& mine, Count count, Use use) {
  if (comm.rank() != 0) {
    comm.send(mine.data(), static_cast<int>(mine.size()), MPI_DOUBLE, 0, kTagGather);
    return;
  }
  use(0, mine);
  std::vector<double> buf;
  for (int r = 1; r < comm.size(); ++r) {
    buf.assign(static_cast<std::size_t>(count(r)), 0.0);
    comm.recv(buf.data(), static_cast<int>(buf.size()), MPI_DOUBLE, r, kTagGather);
    use(r, buf);
  }
}

constexpr const char* kSummaryPhases[] = {
    "setup",  "iteration", "w_before", "source",   "sweep",       "sweep_compute", "sweep_compute_fixup",
    "send",   "recv",      "wait",     "w_after",  "flux_err",    "convergence",   "allreduce",
    "barrier", "balance"};

std::vector<PhaseSummary> summarise_phases(instrument::Comm& comm, instrument::Recorder& rec) {
  constexpr std::size_t n = sizeof kSummaryPhases / sizeof kSummaryPhases[0];
  std::vector<double> mine(n), mx(n), sum(n);
  std::vector<PhaseSummary> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    const auto& t = rec.totals(rec.phase_id(kSummaryPhases[k]));
    mine[k] = t.inclusive;
    out[k].name = kSummaryPhases[k];
    out[k].calls = t.calls;
  }
  comm.allreduce(mine.data(), mx.data(), static_cast<int>(n), MPI_DOUBLE, MPI_MAX);
  comm.allreduce(mine.data(), sum.data(), static_cast<int>(n), MPI_DOUBLE, MPI_SUM);
  for (std::size_t k = 0; k < n; ++k) {
    out[k].max_seconds = mx[k];
    out[k].mean_seconds = sum[k] / comm.size();
  }
  return out;
}

}  // namespace

void print_our_timing(std::ostream& out, const RunResult& r) {
  char line[512];
  std::snprintf(line, sizeof line,
                " Sweep grind time:   %10.3f ns per cell-angle-iteration (wall time in the sweeps, max over ranks,"
                " / its*it_g*jt_g*kt*mm*8 = %.6g)\n",
                r.sweep_grind_ns,
                static_cast<double>(r.iterations.size()) * r.deck.it_g * static_cast<double>(r.deck.jt_g) * r.deck.kt *
                    r.deck.mm * 8.0);
  out << line;
  auto wg = [&](const char* what, const RankSpread& s) {
    if (s.ranks == 0)
      std::snprintf(line, sizeof line, " W_g %-16s   no such iteration\n", what);
    else
      std::snprintf(line, sizeof line,
                    " W_g %-16s %10.3f ns per cell-angle (kernel seconds / cell-angles swept, mean over %d ranks;"
                    " min %.3f, max %.3f)\n",
                    what, s.mean, s.ranks, s.min, s.max);
    out << line;
  };
  wg("without fixups:", r.wg_nofix_ns);
  wg("with fixups:", r.wg_fix_ns);
  std::snprintf(line, sizeof line,
                " Memory per cell:    %10.1f bytes (rank 0: %.1f MB allocated for %lld cells)\n", r.bytes_per_cell,
                r.rank0_bytes / 1.0e6, static_cast<long long>(r.rank0.local_cells()));
  out << line;
  std::snprintf(line, sizeof line,
                " Flux check:         %016llx (checksum of every cell's flux moments; the same for any grid,"
                " blocking, kernel), max |scalar flux| %.17g\n",
                static_cast<unsigned long long>(r.flux_checksum), r.flux_max);
  out << line;
  std::snprintf(line, sizeof line, " Kernel: %s, %d thread(s) per rank, %s sends\n",
                r.kernel == "reference" ? "reference" : ("fast (" + r.kernel + ")").c_str(), r.threads,
                r.nonblocking ? "non-blocking" : "blocking");
  out << line;
  out << " Phase times (seconds, inclusive, max and mean over ranks):\n";
  for (const auto& ph : r.phases) {
    if (ph.max_seconds == 0.0) continue;
    std::snprintf(line, sizeof line, "   %-20s %12.6f %12.6f\n", ph.name.c_str(), ph.max_seconds, ph.mean_seconds);
    out << line;
  }
}

RunResult run_sweep3d(const Deck& deck, instrument::Comm& comm, instrument::Recorder& rec,
                      const RunOptions& opt) {
  const int rank = comm.rank(), nranks = comm.size();
  RunResult res;
  res.deck = deck;
  const bool forced = opt.force_mk > 0 || opt.force_mmi > 0;
  const int mk = forced ? (opt.force_mk > 0 ? opt.force_mk : deck.mk) : 0;
  const int mmi = forced ? (opt.force_mmi > 0 ? opt.force_mmi : deck.mmi) : 0;
  auto decompose = [&](int r) {
    return forced ? make_decomposition(deck, r, nranks, mk, mmi) : make_decomposition(deck, r, nranks);
  };
  const KbaDecomposition d = decompose(rank);
  res.decomposition = d;
  res.rank0 = decompose(0);
  res.header = header_stats(deck, res.rank0);
  res.threads = std::max(1, opt.threads);
  res.nonblocking = opt.nonblocking;
  res.kernel = opt.kernel == KernelKind::reference ? "reference" : fast_kernel_isa(opt.isa);
  std::ostream* out = rank == 0 ? opt.out : nullptr;

  const instrument::PhaseId ph_setup = rec.define_phase("setup"),
                            ph_iter = rec.define_phase("iteration"),
                            ph_before = rec.define_phase("w_before"),
                            ph_source = rec.define_phase("source"),
                            ph_sweep = rec.define_phase("sweep"),
                            ph_after = rec.define_phase("w_after"),
                            ph_err = rec.define_phase("flux_err"),
                            ph_conv = rec.define_phase("convergence"),
                            ph_balance = rec.define_phase("balance");
  rec.define_phase("sweep_compute");
  rec.define_phase("sweep_compute_fixup");

  rec.begin(ph_setup);
  const Problem p = make_problem(deck);
  CellFields fields = make_cell_fields(p, d);
  SweepOptions so;
  so.kernel = select_kernel(opt.kernel, opt.isa);
  so.nonblocking = opt.nonblocking;
  so.threads = res.threads;
  OctantSweep sweep(p, d, comm, rec, so);
  rec.end(ph_setup);

  if (out) print_header(*out, deck, res.rank0, res.header);

  // The timed region of the original: barrier, clocks, iterations (with the monitor),
  // barrier, clocks.
  comm.barrier();
  const double t0 = cpu_seconds(), et0 = instrument::now_seconds();
  const int fixed_count = deck.epsi < 0.0 ? deck.fixed_iterations() : 0;
  SweepResult last;
  double sweep_wall = 0.0, compute_nofix = 0.0, compute_fix = 0.0;
  std::int64_t ca_nofix = 0, ca_fix = 0;
  for (int its = 1;; ++its) {
    IterationRecord it;
    it.its = its;
    it.fixups_on = deck.fixups_in(its);
    const double s0 = instrument::now_seconds();
    rec.begin(ph_iter);

    rec.begin(ph_before);
    rec.begin(ph_source);
    compute_source(p, d, fields, res.threads);
    rec.end(ph_source);
    rec.end(ph_before);
    const double s1 = instrument::now_seconds();

    rec.begin(ph_sweep);
    const SweepResult sr = sweep.run(fields.src.data(), fields.flux.data(), it.fixups_on);
    last = sr;
    rec.end(ph_sweep);
    const double s2 = instrument::now_seconds();

    rec.begin(ph_after);
    rec.begin(ph_err);
    const double err_local = local_flux_error(fields, res.threads);
    rec.end(ph_err);
    rec.begin(ph_conv);
    long long nf_local = sr.nfixed, nf = 0;
    comm.allreduce(&nf_local, &nf, 1, MPI_LONG_LONG, MPI_SUM);
    double err = 0.0;
    comm.allreduce(&err_local, &err, 1, MPI_DOUBLE, MPI_MAX);
    rec.end(ph_conv);
    if (out) *out << monitor_line(its, err, nf) << std::endl;
    rec.end(ph_after);
    rec.end(ph_iter);
    const double s3 = instrument::now_seconds();

    it.err = err;
    it.fixs = nf;
    it.seconds = s3 - s0;
    it.w_before = s1 - s0;
    it.sweep = s2 - s1;
    it.compute = sr.compute_seconds;
    it.w_after = s3 - s2;
    res.iterations.push_back(it);
    sweep_wall += it.sweep;
    res.cell_angles += sr.cell_angles;
    (it.fixups_on ? compute_fix : compute_nofix) += sr.compute_seconds;
    (it.fixups_on ? ca_fix : ca_nofix) += sr.cell_angles;

    const bool more = deck.epsi >= 0.0 ? err > deck.epsi : its < fixed_count;
    if (!more) break;
    if (deck.epsi > 0.0 && opt.max_iterations > 0 && its >= opt.max_iterations) {
      res.converged = false;
      break;
    }
  }
  comm.barrier();
  const double t1 = cpu_seconds(), et1 = instrument::now_seconds();
  const int its = static_cast<int>(res.iterations.size());

  // Balance: this rank's sums, then one MPI sum each, in the original's order; the leakages
  // are those of the last sweep.
  rec.begin(ph_balance);
  const LocalBalance lb = local_balance(p, d, fields);
  comm.allreduce(&lb.source, &res.balance.source, 1, MPI_DOUBLE, MPI_SUM);
  comm.allreduce(&lb.absorption, &res.balance.absorption, 1, MPI_DOUBLE, MPI_SUM);
  for (int n = 0; n < 6; ++n)
    comm.allreduce(&last.leakage[static_cast<std::size_t>(n)], &res.balance.leakage[static_cast<std::size_t>(n)], 1,
                   MPI_DOUBLE, MPI_SUM);
  rec.end(ph_balance);
  if (out) print_balance(*out, res.balance.source, res.balance.absorption, res.balance.leakage);

  // Flux checks.
  const int nm = p.nm;
  {
    std::uint64_t sum = 0;
    double mx = 0.0;
    for (int k = 0; k < d.kt; ++k)
      for (int j = 0; j < d.jt; ++j)
        for (int i = 0; i < d.it; ++i) {
          const std::size_t c = static_cast<std::size_t>((static_cast<long>(k) * d.jt + j) * d.it + i);
          const std::uint64_t g = static_cast<std::uint64_t>(
              (static_cast<long>(k) * deck.jt_g + (d.jstart - 1 + j)) * deck.it_g + (d.istart - 1 + i));
          for (int n = 0; n < nm; ++n) {
            std::uint64_t bits = 0;
            std::memcpy(&bits, &fields.flux[c * static_cast<std::size_t>(nm) + static_cast<std::size_t>(n)], sizeof bits);
            sum += bits * (2 * (g * static_cast<std::uint64_t>(nm) + static_cast<std::uint64_t>(n)) + 1);
          }
          mx = std::max(mx, std::fabs(fields.flux[c * static_cast<std::size_t>(nm)]));
        }
    comm.allreduce(&sum, &res.flux_checksum, 1, MPI_UINT64_T, MPI_SUM);
    comm.allreduce(&mx, &res.flux_max, 1, MPI_DOUBLE, MPI_MAX);
  }
  // iprint = 1: plane k = 5 of every rank, printed by rank 0 in rank order.
  if (deck.iprint == 1) {
    if (deck.kt < 5) {
      if (rank == 0) std::cerr << "sweep3d: warning: iprint = 1 prints plane k = 5, but kt = " << deck.kt
                               << " < 5; no flux printed\n";
    } else {
      std::vector<double> plane(static_cast<std::size_t>(nm) * d.it * d.jt);
      for (int n = 0; n < nm; ++n)
        for (int j = 0; j < d.jt; ++j)
          for (int i = 0; i < d.it; ++i)
            plane[(static_cast<std::size_t>(n) * d.jt + j) * d.it + i] =
                fields.flux[static_cast<std::size_t>(((4L * d.jt + j) * d.it + i) * nm + n)];
      collect_on_root(
          comm, plane, [&](int r) { const auto dr = decompose(r); return static_cast<long>(nm) * dr.it * dr.jt; },
          [&](int r, const std::vector<double>& data) {
            if (out) print_flux_plane(*out, r + 1, decompose(r), nm, data);
          });
    }
  }

  // The original's timing lines.
  res.cpu_seconds = t1 - t0;
  res.elapsed_seconds = et1 - et0;
  const float cai = static_cast<float>(its) * static_cast<float>(deck.it_g) * static_cast<float>(deck.jt_g) *
                    static_cast<float>(deck.kt) * static_cast<float>(deck.mm) * static_cast<float>(8);
  res.cpu_grind_us = 1.0e6f * res.cpu_seconds / cai;
  res.wall_grind_us = 1.0e6f * res.elapsed_seconds / cai;
  if (out) print_original_timing(*out, res.cpu_seconds, res.elapsed_seconds, cai);

  // Ours: sweep-only grind time, W_g with and without fixups, memory, phases.
  double sweep_max = 0.0;
  comm.allreduce(&sweep_wall, &sweep_max, 1, MPI_DOUBLE, MPI_MAX);
  res.sweep_seconds = sweep_max;
  const double global_cai = static_cast<double>(its) * deck.it_g * static_cast<double>(deck.jt_g) * deck.kt * 8.0 * deck.mm;
  res.sweep_grind_ns = 1.0e9 * sweep_max / global_cai;
  res.wg_nofix_ns = spread(comm, ca_nofix > 0 ? 1.0e9 * compute_nofix / static_cast<double>(ca_nofix) : 0.0, ca_nofix > 0);
  res.wg_fix_ns = spread(comm, ca_fix > 0 ? 1.0e9 * compute_fix / static_cast<double>(ca_fix) : 0.0, ca_fix > 0);
  const double bytes = static_cast<double>(fields.bytes() + sweep.bytes());
  double bytes0 = bytes, cells0 = static_cast<double>(d.local_cells());
  comm.bcast(&bytes0, 1, MPI_DOUBLE, 0);
  comm.bcast(&cells0, 1, MPI_DOUBLE, 0);
  res.rank0_bytes = bytes0;
  res.bytes_per_cell = cells0 > 0 ? bytes0 / cells0 : 0.0;
  for (const auto& peer : comm.peers()) {
    res.messages_sent += peer.messages_sent;
    res.bytes_sent += peer.bytes_sent;
  }
  res.phases = summarise_phases(comm, rec);
  if (out) print_our_timing(*out, res);

  if (opt.gather_flux) {
    const std::vector<double> mine(fields.flux.data(), fields.flux.data() + fields.flux.size());
    if (rank == 0) res.flux.assign(static_cast<std::size_t>(deck.it_g) * deck.jt_g * deck.kt * nm, 0.0);
    collect_on_root(
        comm, mine, [&](int r) { return decompose(r).local_cells() * nm; },
        [&](int r, const std::vector<double>& data) {
          const KbaDecomposition dr = decompose(r);
          for (int k = 0; k < dr.kt; ++k)
            for (int j = 0; j < dr.jt; ++j)
              for (int i = 0; i < dr.it; ++i)
                for (int n = 0; n < nm; ++n)
                  res.flux[static_cast<std::size_t>(
                      ((static_cast<long>(k) * deck.jt_g + (dr.jstart - 1 + j)) * deck.it_g + (dr.istart - 1 + i)) * nm + n)] =
                      data[static_cast<std::size_t>(((static_cast<long>(k) * dr.jt + j) * dr.it + i) * nm + n)];
        });
  }
  return res;
}

}  // namespace sweep3d
