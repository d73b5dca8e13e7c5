#include "sweep3d/run_resources.hpp"

#include <mpi.h>

#include <climits>
#include <string>

#include "instrument/error.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/recorder.hpp"
#include "sweep3d/angle_block.hpp"
#include "sweep3d/model/model_ranges.hpp"

namespace sweep3d {

static_assert(kMaxThreads == model::kMaxThreads, "calibrations hold the threads a run may use");

namespace {

using instrument::saturating_product;
using U = std::uint64_t;

U u(long long v) { return v > 0 ? static_cast<U>(v) : 0; }

U sum(std::initializer_list<U> parts) {
  U s = 0;
  for (U p : parts) s = p > UINT64_MAX - s ? UINT64_MAX : s + p;
  return s;
}

int moments(const Deck& deck) { return deck.isct == 1 ? 4 : 1; }

// A message of `doubles` values is one MPI call, whose count is an int.
void require_count(long long doubles, const Deck& deck, const std::string& field, const std::string& what) {
  if (doubles > INT_MAX)
    throw instrument::InputError(deck.file, field,
                                 what + " of " + std::to_string(doubles) +
                                     " doubles is more than an MPI count, 2147483647");
}

void require_counts(const Deck& deck, const KbaDecomposition& d, const RunOptions& opt, int nranks) {
  if (nranks <= 1) return;
  const long long block = static_cast<long long>(d.mk) * d.mmi;
  if (d.west >= 0 || d.east >= 0)
    require_count(d.jt * block, deck, "mk", "rank " + std::to_string(d.rank) + "'s I-face message (jt*mk*mmi)");
  if (d.south >= 0 || d.north >= 0)
    require_count(d.it * block, deck, "mk", "rank " + std::to_string(d.rank) + "'s J-face message (it*mk*mmi)");
  const long long plane = static_cast<long long>(d.it) * d.jt * moments(deck);
  if (deck.iprint == 1) require_count(plane, deck, "iprint", "rank " + std::to_string(d.rank) + "'s printed plane");
  if (opt.gather_flux)
    require_count(d.local_cells() * moments(deck), deck, "it_g", "rank " + std::to_string(d.rank) + "'s flux");
}

// The bytes of every rank on this node (ranks of one node share its memory).
U node_total(U mine, MPI_Comm comm, int& node_ranks) {
  MPI_Comm node = MPI_COMM_NULL;
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  unsigned long long all = 0, m = mine;  // a sum of saturated parts: at most ranks * 2^64
  MPI_Comm_size(node, &node_ranks);
  double approx = 0.0, d = static_cast<double>(mine);
  MPI_Allreduce(&m, &all, 1, MPI_UNSIGNED_LONG_LONG, MPI_SUM, node);
  MPI_Allreduce(&d, &approx, 1, MPI_DOUBLE, MPI_SUM, node);
  MPI_Comm_free(&node);
  // The integer sum wraps when the parts are huge; the double sum does not.
  return approx >= 1.8e19 ? UINT64_MAX : static_cast<U>(all);
}

}  // namespace

std::uint64_t RunMemory::total() const noexcept { return sum({cell_fields, sweep_buffers, gathers, trace}); }

RunMemory estimate_run_memory(const Deck& deck, const KbaDecomposition& d, const RunOptions& opt,
                              std::size_t trace_events) {
  const U dbl = sizeof(double), nm = u(moments(deck)), cells = u(d.local_cells());
  const U it = u(d.it), jt = u(d.jt), kt = u(d.kt), mk = u(d.mk), mm = u(d.mm);
  const U ls = u(lane_stride(d.mmi)), block = saturating_product({mk, u(d.mmi)});
  RunMemory m;
  // make_cell_fields: flux and src of nm moments, pflux of one.
  m.cell_fields = saturating_product({cells, sum({nm, nm, 1}), dbl});
  // OctantSweep: the three faces at the lane stride, a receive buffer and one (blocking) or
  // two (non-blocking) send buffers per axis with neighbours, the reflected outflows.
  const U ring = opt.nonblocking ? 2 : 1;
  const bool i_nb = d.west >= 0 || d.east >= 0, j_nb = d.south >= 0 || d.north >= 0;
  const bool refl_i = deck.ibc != 0 && d.pi == 0, refl_j = deck.jbc != 0 && d.pj == 0, refl_k = deck.kbc != 0;
  m.sweep_buffers = saturating_product(
      {dbl, sum({saturating_product({mk, jt, ls}), saturating_product({mk, it, ls}), saturating_product({jt, it, ls}),
                 i_nb ? saturating_product({ring + 1, jt, block}) : 0,
                 j_nb ? saturating_product({ring + 1, it, block}) : 0,
                 refl_i ? saturating_product({4, kt, jt, mm}) : 0, refl_j ? saturating_product({2, kt, it, mm}) : 0,
                 refl_k ? saturating_product({jt, it, mm}) : 0})});
  // Rank 0 receives one rank's plane (or flux) at a time beside its own, and holds the
  // whole flux when asked for it.
  const U plane = saturating_product({it, jt, nm, dbl});
  if (deck.iprint == 1) m.gathers = saturating_product({2, plane});
  if (opt.gather_flux && d.rank == 0)
    m.gathers = sum({m.gathers, saturating_product({u(deck.it_g), u(deck.jt_g), u(deck.kt), nm, dbl}),
                     saturating_product({cells, nm, dbl})});
  // The Recorder reserves its events up front; gather_results converts them, and rank 0
  // holds every rank's.
  const U events = static_cast<U>(trace_events);
  const U ranks = u(static_cast<long long>(d.npe_i) * d.npe_j);
  m.trace = sum({saturating_product({events, sizeof(instrument::RecordedEvent)}),
                 saturating_product({events, sizeof(instrument::TraceEvent), d.rank == 0 ? ranks : 1})});
  return m;
}

void require_run_resources(const Deck& deck, const RunOptions& opt, std::size_t trace_events, instrument::Comm& comm) {
  const int rank = comm.rank(), nranks = comm.size();
  const KbaDecomposition d = run_decomposition(deck, rank, nranks, opt);
  const RunMemory m = estimate_run_memory(deck, d, opt, trace_events);
  std::string error;
  try {
    require_counts(deck, d, opt, nranks);
  } catch (const instrument::InputError& e) {
    error = e.what();
  }
  int node_ranks = 1;
  const U node = node_total(m.total(), comm.mpi(), node_ranks);  // collective: whatever the verdict
  const bool trace_dominates = m.trace > m.total() - m.trace;
  const std::string what =
      "rank " + std::to_string(rank) + " with the " + std::to_string(node_ranks) + " rank(s) of its node, " +
      (trace_dominates ? "for a trace of " + std::to_string(trace_events) + " events per rank,"
                       : "for a grid of " + std::to_string(deck.it_g) + "*" + std::to_string(deck.jt_g) + "*" +
                             std::to_string(deck.kt) + " cells (" + std::to_string(d.local_cells()) +
                             " on this rank: flux, sources, faces, messages)");
  if (error.empty()) try {
      instrument::require_memory(node, trace_dominates ? "command line" : deck.file,
                                 trace_dominates ? "--trace" : "it_g*jt_g*kt", what);
    } catch (const instrument::InputError& e) {
      error = e.what();
    }
  instrument::throw_if_any_rank_failed(comm.mpi(), error);
}

}  // namespace sweep3d
