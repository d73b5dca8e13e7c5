// Parallel Computational Efficiency of one iteration (Kerbyson, Hoisie & Pautz, eq. 4):
//
//   PCE = W_p / sum_{S=1..#steps} max_P work(P, S)
//
// work(P, S): cell-angle tasks rank P did in step S (StepRecord::work; each task is one cell
// and one direction, all groups). W_p: the work of one rank in the iteration; the paper takes
// it equal on every rank (E_p N_Omega), we take the mean over ranks (total / P), so a partition
// whose parts differ in size shows its imbalance as a lower PCE. #steps: the most steps any
// rank took; a rank with fewer steps counts 0 in the steps it did not take. PCE = 1 when every
// step of every rank was as full as the fullest; no work at all gives NaN (undefined).
#pragma once
#include <cstdint>
#include <vector>

#include "tycho/step_history.hpp"

namespace tycho::model {

struct PceOfIteration {
  std::int32_t iteration = 0;
  int ranks = 0;                     // P
  std::int64_t total_work = 0;       // cell-angle tasks over all ranks
  double w_p = 0.0;                  // total_work / P, cell-angle tasks per rank
  std::int64_t steps = 0;            // #steps: max over ranks
  std::int64_t sum_max_work = 0;     // sum over S of max over P of work(P, S)
  double pce = 0.0;                  // w_p / sum_max_work, in (0, 1]
};

// `ranks[p]` is rank p's history (at least one rank). std::invalid_argument on a record that
// breaks the contract (history_steps.hpp).
PceOfIteration parallel_computational_efficiency(const std::vector<RankHistory>& ranks,
                                                 std::int32_t iteration);

}  // namespace tycho::model
