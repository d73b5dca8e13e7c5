// The profiler's prediction (the paper's Figures 8-10): every superstep of the cycles
// replayed as its measured work w plus the comm+sync a BSP machine charges for its h,
// l + h g(h) (eq. 3), or, for a machine file with superstep curves from bspprobe, the
// library's by-pattern model (superstep_model.hpp). Per grid and in total, beside the
// measured supersteps (w + comm+sync as measured). A superstep's grid is its tag
// (superstep_tag.hpp), which the run takes from the labels cycle.cpp gives.
#pragma once
#include <vector>

#include "bsplib/model/machine_params.hpp"
#include "bsplib/model/profile_table.hpp"
#include "multigrid/superstep_tag.hpp"

namespace mg {

struct ReplaySum {
  double measured = 0, predicted = 0;
  double w = 0;  // the work part of both
  long supersteps = 0;
};

// [i - 1] for grid i (1 the finest) and, last, the total; `tags` [superstep] says each
// superstep's grid (supersteps of no grid 1..grids are left out); `by_pattern` uses the
// machine's curves (which it must have). `working_sets` [i - 1]: the bytes a process's sweep
// of grid i goes over (GridReport::working_set_bytes), which price a superstep's cold sync
// with the machine's after-stream figures (bsplib/model/after_stream.hpp); empty: the gap
// term alone. Throws std::invalid_argument if `tags` is not one per superstep of `profile`,
// or `working_sets` is neither empty nor one per grid.
std::vector<ReplaySum> replay_cycles(const bspmodel::Profile& profile, const std::vector<SuperstepTag>& tags,
                                     const bspmodel::BspMachine& machine, int grids, bool by_pattern,
                                     const std::vector<double>& working_sets = {});

}  // namespace mg
