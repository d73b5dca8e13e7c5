// The per-superstep replay (replay.hpp).
#include "multigrid/model/replay.hpp"

#include <stdexcept>
#include <string>

#include "bsplib/model/after_stream.hpp"
#include "bsplib/model/superstep_model.hpp"

namespace mg {

std::vector<ReplaySum> replay_cycles(const bspmodel::Profile& profile, const std::vector<SuperstepTag>& tags,
                                     const bspmodel::BspMachine& machine, int grids, bool by_pattern,
                                     const std::vector<double>& working_sets) {
  if (tags.size() != profile.steps.size())
    throw std::invalid_argument("replay_cycles: " + std::to_string(tags.size()) + " superstep tags for " +
                                std::to_string(profile.steps.size()) + " supersteps");
  if (!working_sets.empty() && working_sets.size() != static_cast<std::size_t>(grids))
    throw std::invalid_argument("replay_cycles: " + std::to_string(working_sets.size()) + " working sets for " +
                                std::to_string(grids) + " grids");
  std::vector<ReplaySum> sums(static_cast<std::size_t>(grids) + 1);
  for (std::size_t k = 0; k < profile.steps.size(); ++k) {
    const bspmodel::SuperstepSummary& s = profile.steps[k];
    const int i = tags[k].grid;
    if (i < 1 || i > grids) continue;
    // With the cold term where the machine file has after-gap or after-stream figures
    // (after_stream.hpp): a cycle's supersteps follow sweeps over the grid's arrays, not
    // other syncs.
    const double ws = working_sets.empty() ? 0.0 : working_sets[static_cast<std::size_t>(i) - 1];
    const double comm = by_pattern ? bspmodel::comm_sync_by_pattern_cold(machine, s, ws)
                                   : bspmodel::comm_sync_eq3_cold(machine, s, ws);
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
