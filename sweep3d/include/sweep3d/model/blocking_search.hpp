// The k-plane and angle blocking (mk, mmi) that minimises the LogGP-predicted time of an
// iteration's sweeps: small blocks fill the pipeline sooner, large blocks pay fewer message
// costs, and W_g itself changes with mmi (the kernel vectorises over a block's angles), so
// each mmi is priced with its own W_g. The one search every command uses (sweep3d --mk/--mmi
// auto, sweep3d-model).
#pragma once
#include <map>
#include <vector>

#include "sweep3d/model/kba_shape.hpp"
#include "sweep3d/model/loggp_sweep_model.hpp"
#include "sweep3d/model/message_costs.hpp"

namespace sweep3d::model {

using WgByMmi = std::map<int, double>;  // mmi -> W_g, seconds per cell-angle

struct BlockingChoice {
  int mk = 0, mmi = 0;     // mk = 0: no blocking fits
  double predicted = 0.0;  // seconds of one iteration's sweeps, LogGP model
};

struct BlockingSearch {
  std::vector<BlockingChoice> ranked;  // every candidate evaluated, best first
  std::vector<int> mmis_without_wg;    // mmi values allowed but skipped: no W_g for them
  BlockingChoice best() const { return ranked.empty() ? BlockingChoice{} : ranked.front(); }
};

// fixed_mk > 0 holds mk (clamped to kt), 0 frees it: every mk in 1..kt (above kt = 128: every
// mk to 64, then steps of about 6%, then every mk between the samples around the best).
// fixed_mmi > 0 holds mmi, 0 frees it: every divisor of mm that has a W_g. Ties go to the
// larger block (fewer messages). The shape's own mk and mmi are ignored.
BlockingSearch search_blockings(KbaShape shape, const WgByMmi& wg, const MachineCosts& machine, SendMode mode,
                                int fixed_mk, int fixed_mmi);

}  // namespace sweep3d::model
