// One superstep that turns per-process partial values at shared nodes into totals: the
// pattern of every communication of the multigrid cycle. Per node n, the contributors C(n)
// put their partial value to every holder H(n); each holder then adds the values of all
// contributors in ascending process order, its own included. The order is the same on every
// holder, so shared nodes keep bit-identical values on all the processes that hold them.
//
//   operator (A x, the diagonal, the load)  C = H = the processes with a cell at the node
//   restriction                             C = owners of the fine nodes that feed the coarse
//                                           node, H = its holders on the coarse grid
//   prolongation                            C = the coarse node's owner, H = processes that
//                                           need it on the fine grid but do not hold it
//
// Values go in one bsp_put per peer into a buffer registered at setup, in ascending node
// order on both sides, so no node numbers travel: h (bytes in or out of a process) is
// 8 bytes x the shared values, which is what eq. 5's C2 (N/p)^gamma counts.
#pragma once
#include <cstdint>
#include <vector>

#include "multigrid/grid_partition.hpp"

namespace mg {

inline constexpr std::uint32_t kNoSlot = 0xFFFFFFFFu;

struct SumExchange {
  struct Block {
    int peer = 0;
    std::uint32_t offset = 0;           // in doubles, into the peer's receive buffer
    std::vector<std::uint32_t> slots;   // my slots, in the agreed order
  };
  std::vector<Block> sends;
  std::vector<std::uint32_t> targets;         // my slots that get a total
  std::vector<std::uint32_t> source_offsets;  // targets.size() + 1
  std::vector<std::uint32_t> sources;         // < kFromRecv: my slot; else recv index + kFromRecv
  std::vector<double> recv;                   // registered with bsplib (at least one element)
  std::vector<double> pack;                   // send staging
  static constexpr std::uint32_t kFromRecv = 0x80000000u;

  std::size_t bytes_out() const;
  std::size_t bytes_in() const;
};

// The plan of process `me` of `nprocs` for nodes 0..N-1 (N = contributors.offsets.size() - 1)
// with contributor and holder sets in ascending order; slot_of[n] is the slot of node n in
// the arrays of `me` (kNoSlot where `me` neither contributes nor holds). Every process builds
// the same global counts, so the offsets agree without communication.
SumExchange build_sum_exchange(const NodeRanks& contributors, const NodeRanks& holders, int me, int nprocs,
                               const std::vector<std::uint32_t>& slot_of);

// A NodeRanks from (node, rank) pairs (any order, duplicates allowed) for `nodes` nodes.
NodeRanks ranks_from_pairs(const std::vector<std::uint64_t>& node_rank_pairs, std::size_t nodes);
inline std::uint64_t node_rank_pair(Index node, std::int32_t rank) {
  return (std::uint64_t{node} << 32) | static_cast<std::uint32_t>(rank);
}

// Registers x.recv with bsplib (collective: every process in the same order; takes effect at
// the next sync).
void register_exchange(SumExchange& x);

// The superstep: puts from `values`, bsp_sync (labelled `label`), then the totals written
// into `values` at the targets.
void run_exchange(SumExchange& x, double* values, const char* label);

}  // namespace mg
