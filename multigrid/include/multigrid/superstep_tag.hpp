// Which grid and phase each superstep of a run belongs to, as numbers. The BSPlib profiler
// keeps one text label per superstep (bsp_profile_label): "grid 2 pre-smooth" is what the
// tables print and the results file keeps. The cycle says, beside every label it gives, the
// (grid, phase) the label stands for (cycle_labels, cycle.hpp); a run's profile is tagged
// from that once, superstep by superstep, so the replay, C1 and the results file's grid
// column read numbers and nothing parses a label back.
#pragma once
#include <map>
#include <string>
#include <vector>

#include "bsplib/model/profile_table.hpp"

namespace mg {

struct SuperstepTag {
  int grid = 0;    // the paper's numbering, 1 the finest; 0: outside the cycles (set-up, norms)
  int phase = -1;  // a Phase of cycle.hpp; -1 outside the cycles
};

// A label as the profiler records it -> what it stands for. A label not in it stands for no
// grid (set-up, the norms, bsp_end).
using SuperstepLabels = std::map<std::string, SuperstepTag>;

// [superstep]: the tag of each superstep of `profile`, found by its label in `labels`.
std::vector<SuperstepTag> tag_supersteps(const bspmodel::Profile& profile, const SuperstepLabels& labels);

}  // namespace mg
