// The per-superstep replay (replay.hpp).
#include "multigrid/replay.hpp"

#include <charconv>
#include <string>

#include "bsplib/model/cost_model.hpp"
#include "bsplib/model/superstep_model.hpp"

namespace mg {

int grid_of_label(const std::string& label) {
  if (label.rfind("grid ", 0) != 0) return 0;
  int i = 0;
  const char* b = label.data() + 5;
  const auto [ptr, ec] = std::from_chars(b, label.data() + label.size(), i);
  if (ec != std::errc() || ptr == b || i < 1) return 0;
  return i;
}

std::vector<ReplaySum> replay_cycles(const bspmodel::Profile& profile, const bspmodel::BspMachine& machine, int grids,
                                     bool by_pattern) {
  std::vector<ReplaySum> sums(static_cast<std::size_t>(grids) + 1);
  for (const bspmodel::SuperstepSummary& s : profile.steps) {
    const int i = grid_of_label(s.label);
    if (i < 1 || i > grids) continue;
    const double comm = by_pattern ? bspmodel::comm_sync_by_pattern(machine.curves, bspmodel::pattern_of(s), s.h_bytes)
                                   : bspmodel::comm_sync_granular(machine, s.h_bytes);
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
