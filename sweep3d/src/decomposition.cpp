#include "sweep3d/decomposition.hpp"

#include <algorithm>

namespace sweep3d {

void split_extent(int n, int parts, int p, int& extent, int& first) {
  const int base = n / parts, rem = n % parts;
  extent = base + (p < rem ? 1 : 0);
  first = p * base + std::min(p, rem) + 1;
}

KbaDecomposition make_decomposition(const Deck& d, int rank, int nranks, int mk, int mmi) {
  KbaDecomposition k;
  k.npe_i = d.npe_i;
  k.npe_j = d.npe_j;
  k.rank = rank;
  k.pi = rank % d.npe_i;
  k.pj = rank / d.npe_i;
  k.it_g = d.it_g;
  k.jt_g = d.jt_g;
  k.kt = d.kt;
  split_extent(d.it_g, d.npe_i, k.pi, k.it, k.istart);
  split_extent(d.jt_g, d.npe_j, k.pj, k.jt, k.jstart);
  k.west = k.pi > 0 ? rank - 1 : -1;
  k.east = k.pi < d.npe_i - 1 ? rank + 1 : -1;
  k.south = k.pj > 0 ? rank - d.npe_i : -1;
  k.north = k.pj < d.npe_j - 1 ? rank + d.npe_i : -1;
  k.mm = d.mm;
  k.mk = std::min(mk, d.kt);
  k.mmi = mmi;
  k.mmo = d.mm / mmi;
  k.kb = (d.kt + k.mk - 1) / k.mk;
  (void)nranks;
  return k;
}

KbaDecomposition make_decomposition(const Deck& d, int rank, int nranks) {
  const bool one = d.npe_i * d.npe_j <= 1;
  return make_decomposition(d, rank, nranks, one ? d.kt : d.mk, one ? d.mm : d.mmi);
}

}  // namespace sweep3d
