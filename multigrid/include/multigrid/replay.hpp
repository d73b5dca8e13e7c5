// The profiler's prediction (the paper's Figures 8-10): every superstep of the cycles
// replayed as its measured work w plus the comm+sync a BSP machine charges for its h,
// l + h g(h) (eq. 3), or, for a machine file with superstep curves from bspprobe, the
// library's by-pattern model (superstep_model.hpp). Per grid and in total, beside the
// measured supersteps (w + comm+sync as measured). Supersteps are found by their labels,
// "grid <i> <phase>", which cycle.cpp gives them.
#pragma once
#include <vector>

#include "bsplib/model/machine_params.hpp"
#include "bsplib/model/profile_table.hpp"

namespace mg {

struct ReplaySum {
  double measured = 0, predicted = 0;
  double w = 0;  // the work part of both
  long supersteps = 0;
};

// [i - 1] for grid i (1 the finest) and, last, the total; `by_pattern` uses the machine's
// curves (which it must have).
std::vector<ReplaySum> replay_cycles(const bspmodel::Profile& profile, const bspmodel::BspMachine& machine,
                                     int grids, bool by_pattern);

// The grid number of a label "grid <i> ...", 0 for any other label.
int grid_of_label(const std::string& label);

}  // namespace mg
