// The cell solve over one KBA block (nk k-planes x jt x it cells x na angles of one octant):
// diamond difference with the optional negative-flux fixup (spec §3.1-3.3).
//
// Two kernels with one contract:
//   sweep_block_ref   plain loops, angle outermost: the test oracle;
//   fast kernel       all angles of the block together at each cell (SIMD lanes), the
//                     per-cell flux accumulation still in angle order m = 1..na, so its
//                     results are bit-identical to the reference; optional OpenMP threads
//                     over the j-k diagonals of the block.
// Both use the same exact scalar fixup (flux_fixup.hpp).
#pragma once
#include <cstdint>

#include "sweep3d/angle_block.hpp"

namespace sweep3d {

// One block of work. Cell (i, j, k), 0-based local, is cell = (k*jt + j)*it + i. Face
// arrays hold one value per lane (stride ls = lane_stride(na)); on entry the inflow, on
// return the outflow:
//   iface [kp][j][ls]  faces normal to I, per plane of the block (kp in sweep order), j
//   jface [kp][i][ls]  faces normal to J
//   kface [j][i][ls]   faces normal to K (carried from block to block)
struct BlockData {
  int it = 0, jt = 0;
  int nk = 0;          // planes in this block
  int k_first = 0;     // local index of the block's first plane in sweep order
  int nm = 1;          // flux moments (1 or 4)
  const double* src = nullptr;  // [cell][nm] source moments
  double* flux = nullptr;       // [cell][nm] flux moments, accumulated into
  double* iface = nullptr;
  double* jface = nullptr;
  double* kface = nullptr;
  bool fixup = false;
  int threads = 1;     // OpenMP threads (fast kernel); 1 = serial
};

// Returns the number of fixed cell-angles (spec §3.2: at most one per cell-angle).
using SweepKernel = std::int64_t (*)(const BlockData&, const AngleBlock&);

std::int64_t sweep_block_ref(const BlockData& block, const AngleBlock& angles);

enum class KernelKind { reference, fast };

// OpenMP threads per rank, in the kernel and in the loops around it (sweep3d --threads): the
// fast kernel pipelines its threads with one flag each, and more threads than lines or cores
// only wait.
inline constexpr int kMaxThreads = 64;

// The reference kernel, or the fast kernel built for the widest instruction set this CPU
// has (or `isa` when given and available: "sse2", "avx2", "avx512").
SweepKernel select_kernel(KernelKind kind, const char* isa = nullptr);
// Name of the instruction set select_kernel(KernelKind::fast, isa) uses.
const char* fast_kernel_isa(const char* isa = nullptr);

}  // namespace sweep3d
