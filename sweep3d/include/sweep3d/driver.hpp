// The benchmark driver: set-up, source iteration with the KBA sweep, balance, flux checks and
// the original's report. It measures through the Recorder (phases.hpp names every phase);
// what a model needs per unit of work (W_g, W_before, W_after) is read back from the gathered
// results afterwards (work_figures.hpp), so every figure has one source.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "instrument/comm.hpp"
#include "instrument/recorder.hpp"
#include "instrument/speed_check.hpp"
#include "sweep3d/deck.hpp"
#include "sweep3d/face_copy_probe.hpp"
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

// "reference" or the fast kernel's instruction set, as the run will use it.
std::string kernel_name(const RunOptions& options);

// The decomposition of `rank` as the run will use it (the deck's blocking by the original's
// rule, or the forced one).
KbaDecomposition run_decomposition(const Deck& deck, int rank, int nranks, const RunOptions& options);

struct IterationRecord {
  int its = 0;
  double err = 0.0;
  std::int64_t fixs = 0;  // global fixups in this iteration
  bool fixups_on = false;
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

struct RunResult {
  Deck deck;
  KbaDecomposition decomposition;  // this rank's
  KbaDecomposition rank0;          // rank 0's (the header's numbers; the largest block)
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
  // Bytes of the rank's arrays per local cell (rank 0), and in total on rank 0.
  double bytes_per_cell = 0.0, rank0_bytes = 0.0;

  // Flux checks, the same on every rank and bit-for-bit independent of the process grid,
  // blocking, kernel and threads: an order-free checksum of every cell's flux moments
  // (sum mod 2^64 of bits(flux) x (2 x global index + 1)) and the largest |scalar flux|.
  std::uint64_t flux_checksum = 0;
  double flux_max = 0.0;
  // gather_flux: the global flux moments on rank 0, [((k*jt_g + j)*it_g + i)*nm + n].
  std::vector<double> flux;
  // Rank 0: each face loop's cost a face value (face_copy_probe.hpp); none on other ranks.
  std::optional<model::FaceWork> face_loops;
  // Rank 0: every rank's speed check before and after the iteration loop (speed_check.hpp).
  instrument::SpeedCheck speed_check;
};

// Collective. Prints the original's report on options.out (rank 0).
RunResult run_sweep3d(const Deck& deck, instrument::Comm& comm, instrument::Recorder& recorder,
                      const RunOptions& options);

}  // namespace sweep3d
