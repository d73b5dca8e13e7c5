// KBA decomposition (spec §7.1-7.2): an npe_i x npe_j process grid over I and J, every rank
// holding all K planes; blocks of mk k-planes and mmi angles pipeline the sweep.
#pragma once
#include "sweep3d/deck.hpp"

namespace sweep3d {

struct KbaDecomposition {
  int npe_i = 1, npe_j = 1;
  int rank = 0, pi = 0, pj = 0;  // pi = rank mod npe_i, pj = rank div npe_i
  int it_g = 1, jt_g = 1, kt = 1;
  int it = 1, jt = 1;            // local cells (may be 0 when it_g < npe_i)
  int istart = 1, jstart = 1;    // global index of the first local cell (1-based)
  int west = -1, east = -1, south = -1, north = -1;  // neighbour ranks, -1 at the grid edge
  int mm = 6;
  int mk = 1, mmi = 1, mmo = 1;  // k-planes per block, angles per block, angle blocks
  int kb = 1;                    // k-blocks: ceil(kt/mk)

  // Planes of k-block kk (1-based) in sweep direction sk: first local plane (0-based),
  // count, step.
  int block_planes(int kk) const { return (kk * mk <= kt) ? mk : kt - (kk - 1) * mk; }
  int block_first_plane(int kk, int sk) const { return sk > 0 ? (kk - 1) * mk : kt - 1 - (kk - 1) * mk; }
  long long local_cells() const { return static_cast<long long>(it) * jt * kt; }
};

// Local extent and first index (1-based) of part p of n cells split over `parts`.
void split_extent(int n, int parts, int p, int& extent, int& first);

// The original's rules: mk = min(mk, kt); on one rank mk = kt and mmi = mm; mmo = mm/mmi.
KbaDecomposition make_decomposition(const Deck& deck, int rank, int nranks);

// Same grid, explicit blocking (not the original: lets tests and experiments block a
// one-rank run). mk is clamped to kt; mmi must divide mm.
KbaDecomposition make_decomposition(const Deck& deck, int rank, int nranks, int mk, int mmi);

}  // namespace sweep3d
