// The measured side of the models' parts: the critical path of each traced sweep, walked
// with instrument::critical_path and charged to the categories of tycho/sweep_phases.hpp
// (compute, comm, other), so that the GM's and MSM's compute and comm terms are compared
// with the same time on the path, not with per-rank totals.
//
// Each sweep is walked on its own: its epoch is the iteration's "sweep" on every rank, and
// only the events inside it are kept, so the work between sweeps (the source, the flux
// update, the convergence reductions, none of them traced) is never charged to a sweep. The
// walk starts where the sweep ended last and ends at the sweep's start on the rank it has
// reached; its categories add up to that length (the walked sweep time).
//
// Units: seconds.
#pragma once
#include <cstdint>
#include <vector>

#include "instrument/critical_path.hpp"

namespace instrument {
struct GatheredTrace;
}

namespace tycho::model {

struct SweepPathParts {
  double compute = 0.0;  // the cell-angle solves and their local work, on the path
  double comm = 0.0;     // the message calls, receives from when both sides were there
  double other = 0.0;    // the rest of the sweep on the path (no model term covers it)
  double length() const noexcept { return compute + comm + other; }
};

// A walked sweep's result in the models' categories (the category mapping itself).
SweepPathParts in_model_categories(const instrument::critical_path::Result& walked);

struct MeasuredSweepPath {
  std::vector<std::int32_t> iterations;  // walked: asked for and complete on every rank
  std::vector<SweepPathParts> per_sweep;  // by iterations
  std::vector<double> walked_s;           // each walk's span: its end minus its start
  SweepPathParts mean;                    // over per_sweep
  std::int64_t unmatched = 0;             // message calls of the walked sweeps without partner
  std::int64_t dropped_events = 0;        // past the trace's capacity, all ranks
  bool traced = false;                    // the trace held any event
  bool walked() const noexcept { return !per_sweep.empty(); }
};

// The sweeps of `iterations` (iteration k is each rank's k-th sweep) that the trace holds
// complete on every rank. Sweeps missing on some rank (past the trace's capacity) are left
// out; an empty result says none was there.
MeasuredSweepPath walk_sweeps(const instrument::critical_path::Trace& trace,
                              const std::vector<std::int32_t>& iterations);
MeasuredSweepPath walk_sweeps(const instrument::GatheredTrace& trace, const std::vector<std::int32_t>& iterations);

}  // namespace tycho::model
