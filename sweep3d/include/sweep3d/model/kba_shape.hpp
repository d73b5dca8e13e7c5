// KbaShape: what the sweep models need to know about one Sweep3D run, and nothing else:
// the process grid, the global grid, the blocking. It is computed from a deck without
// running anything, so the models can project to process counts we do not have.
#pragma once
#include <cstdint>

namespace sweep3d::model {

struct KbaShape {
  int npe_i = 1, npe_j = 1;  // process grid: n columns (I) x m rows (J)
  int it_g = 1, jt_g = 1, kt = 1;  // global cells
  int mm = 6;   // angles per octant
  int mk = 1;   // k-planes per block (already clamped to kt)
  int mmi = 1;  // angles per block (a factor of mm)
  // Bytes a rank allocates per local cell (the run's "memory per cell"); 0: unknown. The
  // calls after a kernel block are priced at the bytes it streamed (message_costs.hpp).
  double bytes_per_cell = 0.0;

  int kb() const noexcept { return (kt + mk - 1) / mk; }  // k-blocks per octant
  int mmo() const noexcept { return mm / mmi; }           // angle blocks per octant
  // Local extents of process column pi / row pj (0-based), as Sweep3D splits them: the
  // first (n mod P) ranks get one more cell.
  int it_of(int pi) const noexcept { return it_g / npe_i + (pi < it_g % npe_i ? 1 : 0); }
  int jt_of(int pj) const noexcept { return jt_g / npe_j + (pj < jt_g % npe_j ? 1 : 0); }
  // Bytes of the face messages of a rank: always the full mk planes (the original sends the
  // full buffer even for a thinner last block).
  std::int64_t i_face_bytes(int pj) const noexcept {
    return static_cast<std::int64_t>(jt_of(pj)) * mk * mmi * 8;
  }
  std::int64_t j_face_bytes(int pi) const noexcept {
    return static_cast<std::int64_t>(it_of(pi)) * mk * mmi * 8;
  }
  // Bytes rank (pi, pj) holds, and those one k-block of it streams (every cell array over the
  // block's cells); 0 when bytes_per_cell is unknown.
  std::int64_t rank_bytes(int pi, int pj) const noexcept {
    return static_cast<std::int64_t>(bytes_per_cell * it_of(pi) * jt_of(pj) * kt);
  }
  std::int64_t block_bytes(int pi, int pj) const noexcept {
    return static_cast<std::int64_t>(bytes_per_cell * it_of(pi) * jt_of(pj) * (static_cast<double>(kt) / kb()));
  }
  // The messages a rank receives in a row from one neighbour at the end of an iteration's
  // sweeps, before anything goes back to that neighbour: octants are swept 1..8 with the I
  // sign in bit 2 and the J sign in bit 1 of iq-1 (quadrature.hpp), so the last four
  // octants all sweep +I and the last two +J; each octant sends kb() x mmo() messages to
  // the downstream neighbour. From the west neighbour 4 kb mmo when npe_i > 1, from the
  // south 2 kb mmo when npe_j > 1; the larger (0 on one rank). A 1x2 grid of input50 with
  // mk 10, mmi 3: 2 x 5 x 2 = 20, from rank 0 to rank 1.
  int one_way_messages_at_end() const noexcept {
    const int west = npe_i > 1 ? 4 * kb() * mmo() : 0;
    const int south = npe_j > 1 ? 2 * kb() * mmo() : 0;
    return west > south ? west : south;
  }
  // Cell-angles of one block of rank (pi, pj), with the k-planes averaged over the blocks
  // (exactly mk when mk divides kt).
  double block_cell_angles(int pi, int pj) const noexcept {
    return static_cast<double>(it_of(pi)) * jt_of(pj) * mmi * (static_cast<double>(kt) / kb());
  }
};

}  // namespace sweep3d::model
