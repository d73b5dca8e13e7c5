// The per-superstep replay (replay.hpp).
#include "multigrid/model/replay.hpp"

#include <stdexcept>
#include <string>

#include "bsplib/model/after_gap.hpp"
#include "bsplib/model/superstep_model.hpp"

namespace mg {

std::vector<ReplaySum> replay_cycles(const bspmodel::Profile& profile, const std::vector<SuperstepTag>& tags,
                                     const bspmodel::BspMachine& machine, int grids, bool by_pattern) {
  if (tags.size() != profile.steps.size())
    throw std::invalid_argument("replay_cycles: " + std::to_string(tags.size()) + " superstep tags for " +
                                std::to_string(profile.steps.size()) + " supersteps");
  std::vector<ReplaySum> sums(static_cast<std::size_t>(grids) + 1);
  for (std::size_t k = 0; k < profile.steps.size(); ++k) {
    const bspmodel::SuperstepSummary& s = profile.steps[k];
    const int i = tags[k].grid;
    if (i < 1 || i > grids) continue;
    // With the gap term where the machine file has after-gap figures (after_gap.hpp): a
    // cycle's supersteps follow smoothing sweeps, not other syncs.
    const double comm = by_pattern ? bspmodel::comm_sync_by_pattern_after_gap(machine, s)
                                   : bspmodel::comm_sync_eq3_after_gap(machine, s);
    for (ReplaySum* r : {&sums[static_cast<std::size_t>(i) - 1], &sums.back()}) {
      r->measured += s.w_max + s.comm_sync;
      r->predicted += s.w_max + comm;
      r->w += s.w_max;
      ++r->supersteps;
    }
  }
  return sums;
}

}  // namespace mg
