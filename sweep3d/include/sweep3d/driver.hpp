// The benchmark driver: set-up, source iteration with the KBA sweep, balance, report.
// Everything the run measured comes back in RunResult (on every rank; the gathered parts
// on rank 0), so tests, the benchmark program and the results file read one struct.
//
// What a performance model needs from a run:
//   decomposition      npe_i, npe_j, it, jt, kt, mk, mmi, mmo, kb (RunResult::decomposition,
//                      rank 0's sizes in RunResult::rank0)
//   W_g                sweep compute seconds per cell-angle, for iterations without and with
//                      fixups (RunResult::wg_nofix / wg_fix, min/mean/max over ranks)
//   per-phase times    RunResult::phases (max and mean over ranks) and the Recorder itself
//   per iteration      RunResult::iterations (err, fixs, seconds of each phase)
#pragma once
#include <array>
#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "instrument/comm.hpp"
#include "instrument/recorder.hpp"
#include "sweep3d/deck.hpp"
#include "sweep3d/decomposition.hpp"
#include "sweep3d/parallel_stats.hpp"
#include "sweep3d/sweep_kernel.hpp"

namespace sweep3d {

struct RunOptions {
  KernelKind kernel = KernelKind::fast;
  const char* isa = nullptr;     // fast kernel instruction set; nullptr = widest available
  bool nonblocking = false;      // non-blocking sends in the sweep
  int threads = 1;               // OpenMP threads inside a rank's kernel
  int max_iterations = 1000;     // converged decks (epsi > 0) stop here; 0 = no limit
  int force_mk = 0, force_mmi = 0;  // > 0: this blocking instead of the original's rule
  bool gather_flux = false;      // RunResult::flux on rank 0
  std::ostream* out = nullptr;   // rank 0's report (nullptr: quiet)
};

struct IterationRecord {
  int its = 0;
  double err = 0.0;
  std::int64_t fixs = 0;         // global fixups in this iteration
  bool fixups_on = false;
  // This rank's seconds (wall) of the iteration and its parts.
  double seconds = 0.0, w_before = 0.0, sweep = 0.0, compute = 0.0, w_after = 0.0;
};

struct Balance {
  double source = 0.0, absorption = 0.0;
  std::array<double, 6> leakage{};  // I-low, I-high, J-low, J-high, K-low, K-high
  double net_leakage() const {
    return (leakage[1] - leakage[0]) + (leakage[3] - leakage[2]) + (leakage[5] - leakage[4]);
  }
  // (source - absorption - net leakage) / source; 0 when there is no source.
  double relative_residual() const;
};

struct RankSpread {
  double min = 0.0, mean = 0.0, max = 0.0;
  int ranks = 0;  // ranks that contributed
};

struct PhaseSummary {
  std::string name;
  double max_seconds = 0.0, mean_seconds = 0.0;  // over ranks, inclusive
  std::int64_t calls = 0;                         // this rank
};

struct RunResult {
  Deck deck;
  KbaDecomposition decomposition;  // this rank's
  KbaDecomposition rank0;          // rank 0's (the header's numbers)
  HeaderStats header;
  std::string kernel;              // "reference" or the fast kernel's instruction set
  int threads = 1;
  bool nonblocking = false;

  std::vector<IterationRecord> iterations;
  bool converged = true;           // false: a converged deck hit max_iterations
  Balance balance;

  // The original's timing (rank 0): CPU and elapsed seconds of the iteration loop and the
  // grind times in microseconds per cell-angle-iteration.
  double cpu_seconds = 0.0, elapsed_seconds = 0.0, cpu_grind_us = 0.0, wall_grind_us = 0.0;
  // Ours: wall seconds in the sweeps (max over ranks) and per global cell-angle-iteration.
  double sweep_seconds = 0.0, sweep_grind_ns = 0.0;
  // Sweep compute seconds per cell-angle (kernel only, per rank), iterations without and
  // with fixups, in nanoseconds.
  RankSpread wg_nofix_ns, wg_fix_ns;
  std::int64_t cell_angles = 0;    // this rank, all iterations
  std::int64_t messages_sent = 0, bytes_sent = 0;  // this rank, all iterations
  // Bytes of the rank's arrays per local cell (rank 0), and in total on rank 0.
  double bytes_per_cell = 0.0, rank0_bytes = 0.0;
  std::vector<PhaseSummary> phases;

  // Flux checks, the same on every rank and bit-for-bit independent of the process grid,
  // blocking, kernel and threads: an order-free checksum of every cell's flux moments
  // (sum mod 2^64 of bits(flux) x (2 x global index + 1)) and the largest |scalar flux|.
  std::uint64_t flux_checksum = 0;
  double flux_max = 0.0;
  // gather_flux: the global flux moments on rank 0, [((k*jt_g + j)*it_g + i)*nm + n].
  std::vector<double> flux;
};

RunResult run_sweep3d(const Deck& deck, instrument::Comm& comm, instrument::Recorder& recorder,
                      const RunOptions& options);

// Our lines after the original's report: sweep grind time, W_g, memory per cell, phases.
void print_our_timing(std::ostream& out, const RunResult& r);

}  // namespace sweep3d
