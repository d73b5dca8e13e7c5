#include "sweep3d/parallel_stats.hpp"

#include <algorithm>

namespace sweep3d {

HeaderStats header_stats(const Deck& deck, const KbaDecomposition& d) {
  HeaderStats h;
  const int npe_i = d.npe_i, npe_j = d.npe_j;
  h.pipelined_blocks = d.kb * d.mmo;
  const long long blocks8 = 8LL * d.mmo * d.kb;
  h.messages = npe_i * npe_j <= 1
                   ? 0
                   : blocks8 * (static_cast<long long>(npe_i - 1) * npe_j + static_cast<long long>(npe_i) * (npe_j - 1));
  const float e1 = static_cast<float>(blocks8) /
                   static_cast<float>(blocks8 + 2 * (npe_i - 1) + 4 * (npe_j - 1));
  // Diagonals of an mk x jt block with mmi angles staggered by one diagonal, ncpu at a time.
  const int jt = d.jt, mk = d.mk, mmi = d.mmi, ncpu = deck.ncpu;
  long long icpu = 0;
  for (int i = 1; i <= jt + mk - 1 + mmi - 1; ++i) {
    long long ndiag = 0;
    for (int mi = 1; mi <= mmi; ++mi)
      ndiag += std::max(std::min({i - mi + 1, jt, mk, jt + mk - i + mi - 1}), 0);
    icpu += (ndiag + ncpu - 1) / ncpu;
  }
  const float e2 = static_cast<float>(static_cast<long long>(mmi) * jt * mk) /
                   static_cast<float>(icpu * ncpu);
  h.domain_efficiency = 100.0 * static_cast<double>(e1);
  h.task_efficiency = 100.0 * static_cast<double>(e2);
  h.combined_efficiency = (100.0 * static_cast<double>(e1)) * static_cast<double>(e2);
  const int nm = deck.isct == 1 ? 4 : 1;
  double mem = static_cast<double>(static_cast<float>(d.it) * static_cast<float>(d.jt) *
                                   static_cast<float>(d.kt) *
                                   static_cast<float>(3 + (deck.isct + 1) + 2 * nm));
  if (deck.idsa != 0)
    mem = mem + static_cast<double>(static_cast<float>(d.it + 1) * static_cast<float>(d.jt + 1) *
                                    static_cast<float>(d.kt + 1) * 3.0f);
  h.memory_mb = (mem * 8) / 1.0e6;
  return h;
}

}  // namespace sweep3d
