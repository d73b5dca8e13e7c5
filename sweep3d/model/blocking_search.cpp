#include "sweep3d/model/blocking_search.hpp"

#include <algorithm>

namespace sweep3d::model {

namespace {

constexpr int kEveryMkUpTo = 128;

std::vector<int> sampled_mks(int kt) {
  std::vector<int> mks;
  for (int mk = 1; mk <= kt; mk = (kt <= kEveryMkUpTo || mk < 64) ? mk + 1 : mk + std::max(1, mk / 16)) mks.push_back(mk);
  if (mks.back() != kt) mks.push_back(kt);
  return mks;
}

bool better(const BlockingChoice& a, const BlockingChoice& b) {
  if (a.predicted != b.predicted) return a.predicted < b.predicted;
  if (a.mk * a.mmi != b.mk * b.mmi) return a.mk * a.mmi > b.mk * b.mmi;
  return a.mmi > b.mmi;
}

}  // namespace

BlockingSearch search_blockings(KbaShape shape, const WgByMmi& wg, const MachineCosts& machine, SendMode mode,
                                int fixed_mk, int fixed_mmi) {
  BlockingSearch out;
  auto evaluate = [&](int mk, int mmi, double w_g) {
    shape.mk = mk;
    shape.mmi = mmi;
    return BlockingChoice{mk, mmi, predict_loggp(shape, w_g, machine, mode).sweeps.total()};
  };
  for (int mmi = 1; mmi <= shape.mm; ++mmi) {
    if (shape.mm % mmi != 0 || (fixed_mmi > 0 && mmi != fixed_mmi)) continue;
    const auto w = wg.find(mmi);
    if (w == wg.end()) {
      out.mmis_without_wg.push_back(mmi);
      continue;
    }
    if (fixed_mk > 0) {
      out.ranked.push_back(evaluate(std::min(fixed_mk, shape.kt), mmi, w->second));
      continue;
    }
    const std::vector<int> mks = sampled_mks(shape.kt);
    const std::size_t first = out.ranked.size();
    std::size_t best = 0;
    for (std::size_t k = 0; k < mks.size(); ++k) {
      out.ranked.push_back(evaluate(mks[k], mmi, w->second));
      if (better(out.ranked.back(), out.ranked[first + best])) best = k;
    }
    // Between the samples around the best one, every mk (only when they were sampled).
    const int lo = best > 0 ? mks[best - 1] : mks[best], hi = best + 1 < mks.size() ? mks[best + 1] : mks[best];
    for (int mk = lo + 1; mk < hi; ++mk)
      if (!std::binary_search(mks.begin(), mks.end(), mk)) out.ranked.push_back(evaluate(mk, mmi, w->second));
  }
  std::stable_sort(out.ranked.begin(), out.ranked.end(), better);
  return out;
}

}  // namespace sweep3d::model
