#include "blocking_search.hpp"

#include <algorithm>

namespace sweep3d::model {

std::vector<BlockingChoice> rank_blockings(KbaShape shape, double w_g, const MachineCosts& machine) {
  // Every mk up to 64, then steps of about 6%: the predicted time is smooth in mk there,
  // and kt may be in the thousands.
  std::vector<int> mks;
  for (int mk = 1; mk <= shape.kt; mk = mk < 64 ? mk + 1 : mk + std::max(1, mk / 16)) mks.push_back(mk);
  if (mks.back() != shape.kt) mks.push_back(shape.kt);
  std::vector<BlockingChoice> all;
  for (int mmi = 1; mmi <= shape.mm; ++mmi) {
    if (shape.mm % mmi != 0) continue;
    for (int mk : mks) {
      shape.mk = mk;
      shape.mmi = mmi;
      all.push_back({mk, mmi, predict_loggp(shape, w_g, machine).per_iteration});
    }
  }
  // Ties (common when one rank owns everything) go to the larger blocks: fewer messages.
  std::stable_sort(all.begin(), all.end(), [](const BlockingChoice& a, const BlockingChoice& b) {
    if (a.predicted != b.predicted) return a.predicted < b.predicted;
    return a.mk * a.mmi > b.mk * b.mmi;
  });
  return all;
}

BlockingChoice best_blocking(KbaShape shape, double w_g, const MachineCosts& machine, int fixed_mk,
                             int fixed_mmi) {
  if (fixed_mk > shape.kt) fixed_mk = shape.kt;
  BlockingChoice best{0, 0, 0.0};
  for (int mmi = 1; mmi <= shape.mm; ++mmi) {
    if (shape.mm % mmi != 0 || (fixed_mmi > 0 && mmi != fixed_mmi)) continue;
    for (int mk = 1; mk <= shape.kt; ++mk) {
      if (fixed_mk > 0 && mk != fixed_mk) continue;
      shape.mk = mk;
      shape.mmi = mmi;
      const double t = predict_loggp(shape, w_g, machine).per_iteration;
      if (best.mk == 0 || t < best.predicted) best = {mk, mmi, t};
    }
  }
  return best;  // mk == 0: nothing fits (fixed_mmi does not divide mm)
}

}  // namespace sweep3d::model
