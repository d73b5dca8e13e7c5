// What a run will allocate and send, checked on every rank before anything is allocated, so
// that a grid or a trace too large for the machine ends every rank with one line giving the
// figure and the limit (instrument/memory_budget.hpp) instead of a bad_alloc on one rank and
// an MPI_Abort.
#pragma once
#include <cstddef>
#include <cstdint>

#include "instrument/comm.hpp"
#include "sweep3d/decomposition.hpp"
#include "sweep3d/driver.hpp"

namespace sweep3d {

// Bytes one rank allocates for the run, from the formulas the allocations use
// (make_cell_fields, OctantSweep, the Recorder, the gathers); saturated, never wrapped.
struct RunMemory {
  std::uint64_t cell_fields = 0;    // flux and source moments, previous scalar flux
  std::uint64_t sweep_buffers = 0;  // faces, message buffers, reflected outflows
  std::uint64_t gathers = 0;        // rank 0: the printed plane (iprint), RunResult::flux
  std::uint64_t trace = 0;          // the Recorder's events; rank 0 also every rank's, gathered
  std::uint64_t total() const noexcept;
};

RunMemory estimate_run_memory(const Deck& deck, const KbaDecomposition& d, const RunOptions& options,
                              std::size_t trace_events);

// Collective, after the deck and the options are final (the blocking chosen): every rank
// checks its MPI message counts fit an int and the estimate of the ranks on its node fits
// what it can allocate; every rank throws the same instrument::CollectiveError otherwise.
void require_run_resources(const Deck& deck, const RunOptions& options, std::size_t trace_events,
                           instrument::Comm& comm);

}  // namespace sweep3d
