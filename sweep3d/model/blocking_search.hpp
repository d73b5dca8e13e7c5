// Finds the k-plane and angle blocking (mk, mmi) that minimise the predicted time of one
// iteration: small blocks fill the pipeline sooner, large blocks pay fewer message costs.
#pragma once
#include <vector>

#include "kba_shape.hpp"
#include "loggp_sweep_model.hpp"
#include "message_costs.hpp"

namespace sweep3d::model {

struct BlockingChoice {
  int mk = 1, mmi = 1;
  double predicted = 0.0;  // seconds per iteration, LogGP model
};

// mk in 1..kt (all up to 64, a geometric sample above) and every mmi dividing mm; the
// shape's own mk/mmi are ignored.
// All candidates are returned, best first.
std::vector<BlockingChoice> rank_blockings(KbaShape shape, double w_g, const MachineCosts& machine);

// The best blocking when some of it is fixed: fixed_mk / fixed_mmi > 0 hold that parameter
// (mk clamped to kt), 0 leaves it free. Every free mk in 1..kt is tried.
BlockingChoice best_blocking(KbaShape shape, double w_g, const MachineCosts& machine, int fixed_mk,
                             int fixed_mmi);

}  // namespace sweep3d::model
