// Each rank's kernel time per cell-angle in each source iteration, read from the gathered
// trace, for instrument::mark_if_uneven_cpus: every rank's kernel does the same work per
// cell-angle (the same blocks of k-planes and angles), so one far slower than another in some
// iteration ran on a CPU the host slowed or gave away for part of it, which no model with one
// W_g describes (instrument/uneven_cpus.hpp says where that was seen).
#pragma once
#include <vector>

#include "instrument/run_results.hpp"
#include "instrument/uneven_cpus.hpp"

namespace sweep3d {

// By iteration ("iteration 1", ... in each rank's order of its `iteration` phases): the
// seconds of the rank's `sweep_compute` events that begin inside it over their cell-angles
// (each event's work), iterations joined until each rank has min_seconds of kernel in the
// span (instrument::rates_over_spans: a short run gives none). Iterations with fixups
// (`sweep_compute_fixup`) are left out: a rank's fixups, and so its cost per cell-angle, depend
// on where its negative fluxes are. A rank with no such events in a span (its trace full)
// gets 0, which uneven_cpus leaves out.
std::vector<instrument::RankRates> kernel_rates_by_iteration(const instrument::GatheredTrace& trace,
                                                             double min_seconds = instrument::kUnevenCpuMinSeconds);

}  // namespace sweep3d
