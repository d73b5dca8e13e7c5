// The smoother's cell loop shared by T OpenMP threads of one process, with the bits of one
// thread (apply_cells with a split, p1_operator.hpp).
//
// A level's batches (item_batches.hpp: the families', then the loose cells') are cut into T
// contiguous ranges, balanced by cells; a thread sweeps a range. The sums y[node] must take
// their additions in the serial order, since floating-point addition does not associate. So a
// range adds in place only to the nodes no lower range touches: no other range adds to them
// while it runs, and whatever the higher ranges add comes later in the serial order too. Its
// additions to a node a lower range also touches are kept aside, in order, in the range's own
// buffer; when the threads have joined, the buffers are added to y range by range. Every
// y[node] then takes its additions in exactly the serial order, whatever the thread count
// or the team the runtime gives. The cells are in Morton order, so neighbouring ranges share
// only the nodes of a surface between them: few sums are kept aside.
//
// Which lanes are kept aside is worked out once per level (split_cell_loop), so the sweep
// compares one batch index a batch and takes the slower scatter only in the batches that
// have such lanes. The AVX-512 build adds the other batches' sums to y node by node, by
// tables also made there (batch_node_sums.hpp).
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "multigrid/batch_node_sums.hpp"
#include "multigrid/item_batches.hpp"

namespace mg {

struct LocalLevel;

// The lanes of one batch whose sums are kept aside: bit l of lanes[n] is slot n, lane l.
template <std::size_t N>
struct KeptLanes {
  std::uint32_t batch = 0;
  std::array<std::uint8_t, N> lanes{};
};

// The batches [begin, end) of one level's items (families, N = 10, or loose cells, N = 4) a
// thread sweeps, and those of them with lanes kept aside, in batch order.
// by_node[b - begin] groups batch b's sums by node (batch_node_sums.hpp) for the scatter;
// where empty, the loop scatters slot by slot.
template <std::size_t N>
struct BatchRange {
  std::size_t begin = 0, end = 0;
  std::vector<KeptLanes<N>> kept;
  std::vector<BatchNodeSums<N>> by_node = {};
};

struct CellLoopSplit {
  struct Range {
    BatchRange<10> families;
    BatchRange<4> loose;
    std::vector<std::uint32_t> kept_nodes;  // the node of each sum kept aside, in the order kept
    std::vector<double> kept;               // the sums kept aside in a sweep (kept_nodes.size())
  };
  std::vector<Range> ranges;  // one a thread, in the serial order; one range: the serial loop
  // The level's items it was made for (apply_cells checks them).
  std::size_t family_items = 0, loose_items = 0;

  std::size_t threads() const { return ranges.size(); }
  std::size_t kept_sums() const;  // over all ranges: the additions deferred a sweep
};

// Below this many cells a thread, a thread's share of the loop costs less than starting the
// team (a few microseconds), so a coarse grid takes fewer threads, or one. The bits are the
// same whatever the count.
inline constexpr std::size_t kMinCellsPerThread = 4096;
// Likewise for the passes over the nodes (node_update.hpp), whose work a node is less.
inline constexpr std::size_t kMinNodesPerThread = 8192;

// The split of L's cell loop into min(threads, cells / min_cells_per_thread) ranges, at
// least one. L's loose cells' batches must be those of its cells (batch_cells).
CellLoopSplit split_cell_loop(const LocalLevel& L, int threads, std::size_t min_cells_per_thread = kMinCellsPerThread);

}  // namespace mg
