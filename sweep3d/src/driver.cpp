#include "sweep3d/driver.hpp"

#include <algorithm>

#include "instrument/process_usage.hpp"
#include "sweep3d/angle_block.hpp"
#include "sweep3d/flux_checks.hpp"
#include "sweep3d/octant_sweep.hpp"
#include "sweep3d/phases.hpp"
#include "sweep3d/problem.hpp"
#include "sweep3d/report.hpp"
#include "sweep3d/source_iteration_loop.hpp"
#include "sweep3d/speed_check.hpp"

namespace sweep3d {

double Balance::relative_residual() const {
  if (source == 0.0) return 0.0;
  return (source - absorption - net_leakage()) / source;
}

std::string kernel_name(const RunOptions& opt) {
  return opt.kernel == KernelKind::reference ? "reference" : fast_kernel_isa(opt.isa);
}

KbaDecomposition run_decomposition(const Deck& deck, int rank, int nranks, const RunOptions& opt) {
  if (opt.force_mk <= 0 && opt.force_mmi <= 0) return make_decomposition(deck, rank, nranks);
  return make_decomposition(deck, rank, nranks, opt.force_mk > 0 ? opt.force_mk : deck.mk,
                            opt.force_mmi > 0 ? opt.force_mmi : deck.mmi);
}

namespace {

// The global balance: this rank's sums, then one MPI sum each, in the original's order; the
// leakages are those of the last sweep.
Balance reduce_balance(const Problem& p, const KbaDecomposition& d, const CellFields& f, const SweepResult& last,
                       instrument::Comm& comm) {
  const LocalBalance lb = local_balance(p, d, f);
  Balance b;
  comm.allreduce(&lb.source, &b.source, 1, MPI_DOUBLE, MPI_SUM);
  comm.allreduce(&lb.absorption, &b.absorption, 1, MPI_DOUBLE, MPI_SUM);
  for (std::size_t n = 0; n < 6; ++n) comm.allreduce(&last.leakage[n], &b.leakage[n], 1, MPI_DOUBLE, MPI_SUM);
  return b;
}

// The original's timing lines: CPU and elapsed seconds of the timed region and its grind
// times over its single-precision cell-angle-iteration count.
void time_like_the_original(RunResult& r, double cpu, double elapsed, std::ostream* out) {
  const Deck& d = r.deck;
  const float cai = static_cast<float>(r.iterations.size()) * static_cast<float>(d.it_g) * static_cast<float>(d.jt_g) *
                    static_cast<float>(d.kt) * static_cast<float>(d.mm) * static_cast<float>(8);
  r.cpu_seconds = cpu;
  r.elapsed_seconds = elapsed;
  r.cpu_grind_us = 1.0e6f * r.cpu_seconds / cai;
  r.wall_grind_us = 1.0e6f * r.elapsed_seconds / cai;
  if (out) print_original_timing(*out, r.cpu_seconds, r.elapsed_seconds, cai);
}

}  // namespace

RunResult run_sweep3d(const Deck& deck, instrument::Comm& comm, instrument::Recorder& rec, const RunOptions& opt) {
  const int rank = comm.rank(), nranks = comm.size();
  RunResult res;
  res.deck = deck;
  res.decomposition = run_decomposition(deck, rank, nranks, opt);
  res.rank0 = run_decomposition(deck, 0, nranks, opt);
  res.header = header_stats(deck, res.rank0);
  res.threads = std::clamp(opt.threads, 1, kMaxThreads);  // every OpenMP loop of the run takes this
  res.nonblocking = opt.nonblocking;
  res.kernel = kernel_name(opt);
  std::ostream* out = rank == 0 ? opt.out : nullptr;
  const KbaDecomposition& d = res.decomposition;

  const instrument::PhaseId ph_setup = rec.define_phase(phase::kSetup), ph_balance = rec.define_phase(phase::kBalance);
  rec.begin(ph_setup);
  const Problem p = make_problem(deck);
  CellFields fields = make_cell_fields(p, d);
  SweepOptions so;
  so.kernel = select_kernel(opt.kernel, opt.isa);
  so.nonblocking = opt.nonblocking;
  so.threads = res.threads;
  OctantSweep sweep(p, d, comm, rec, so);
  sweep.connect_neighbours();
  rec.end(ph_setup);
  double bytes0 = static_cast<double>(fields.bytes() + sweep.bytes()), cells0 = static_cast<double>(d.local_cells());
  comm.bcast(&bytes0, 1, MPI_DOUBLE, 0);
  comm.bcast(&cells0, 1, MPI_DOUBLE, 0);
  res.rank0_bytes = bytes0;
  res.bytes_per_cell = cells0 > 0 ? bytes0 / cells0 : 0.0;

  if (out) print_header(*out, deck, res.rank0, res.header);
  // The speed check right before the timed region and right after it (speed_check.hpp),
  // outside every timed phase; the region's first barrier starts the ranks together.
  const double check_before = speed_check_ns(so.kernel);
  // The timed region of the original: barrier, clocks, iterations (with the monitor),
  // barrier, clocks.
  comm.barrier();
  // The original's CPU time: the process's user time (all threads), not its kernel time.
  const instrument::ProcessUsage u0 = instrument::process_usage();
  const double t0 = instrument::now_seconds();
  IterationOutcome loop = iterate({deck, p, d, fields, sweep, comm, rec, res.threads, opt.max_iterations, out});
  comm.barrier();
  const instrument::ProcessUsage u1 = instrument::process_usage();
  const double t1 = instrument::now_seconds();
  const double check_after = speed_check_ns(so.kernel);
  res.speed_check = instrument::gather_speed_check(check_before, check_after, comm.mpi());
  res.iterations = std::move(loop.iterations);
  res.converged = loop.converged;

  rec.begin(ph_balance);
  res.balance = reduce_balance(p, d, fields, loop.last, comm);
  rec.end(ph_balance);
  if (out) print_balance(*out, res.balance.source, res.balance.absorption, res.balance.leakage);
  const FluxCheck check = check_flux(deck, d, fields, comm);
  res.flux_checksum = check.checksum;
  res.flux_max = check.max_scalar;
  if (deck.iprint == 1) print_flux_planes(deck, opt, fields, comm, out);
  time_like_the_original(res, (u1 - u0).user_seconds, t1 - t0, out);
  if (opt.gather_flux) res.flux = gather_flux(deck, opt, fields, comm);
  // What a face costs beside a neighbour (face_copy_probe.hpp), on rank 0's extents, by rank 0
  // after the timed region: a calibration's figures for the models of runs with more ranks.
  if (rank == 0) {
    const KbaDecomposition& r0 = res.rank0;
    const int ls = lane_stride(r0.mmi);
    res.face_loops = measure_face_loops({r0.mmi, r0.mk, r0.mk, r0.jt, ls}, {r0.mmi, r0.mk, r0.mk, r0.it, ls});
  }
  return res;
}

}  // namespace sweep3d
