// The cell loop's split among threads (cell_loop_split.hpp).
#include "multigrid/cell_loop_split.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include "multigrid/local_level.hpp"

namespace mg {

std::size_t CellLoopSplit::kept_sums() const {
  std::size_t n = 0;
  for (const Range& r : ranges) n += r.kept_nodes.size();
  return n;
}

namespace {

// The level's batches as one sequence, the families' then the loose cells', the order the
// serial loop sweeps them in.
class BatchSequence {
 public:
  explicit BatchSequence(const LocalLevel& L) : L_(L), families_(L.family_batches.batches.size()) {}
  std::size_t size() const { return families_ + L_.loose_batches.batches.size(); }
  std::size_t families() const { return families_; }
  std::size_t cells(std::size_t i) const {
    return i < families_ ? 8 * L_.family_batches.lanes(i) : L_.loose_batches.lanes(i - families_);
  }
  // f(node, slot, lane) over batch i's live lanes, slot by slot, lane by lane: the scatter's order.
  template <class F>
  void for_lanes(std::size_t i, F&& f) const {
    if (i < families_) each(L_.family_batches, i, f);
    else each(L_.loose_batches, i - families_, f);
  }

 private:
  template <std::size_t N, class F>
  static void each(const ItemBatches<N>& items, std::size_t b, F& f) {
    const std::size_t lanes = items.lanes(b);
    for (std::size_t n = 0; n < N; ++n)
      for (std::size_t l = 0; l < lanes; ++l) f(items.batches[b][n][l], n, l);
  }
  const LocalLevel& L_;
  std::size_t families_;
};

// The lanes of batch b kept aside (bit l of mask[n]) into `range`, if any.
template <std::size_t N>
void keep(BatchRange<N>& range, std::size_t b, const std::array<std::uint8_t, 10>& mask) {
  KeptLanes<N> k;
  k.batch = static_cast<std::uint32_t>(b);
  bool any = false;
  for (std::size_t n = 0; n < N; ++n) {
    k.lanes[n] = mask[n];
    any = any || mask[n] != 0;
  }
  if (any) range.kept.push_back(k);
}

}  // namespace

CellLoopSplit split_cell_loop(const LocalLevel& L, int threads, std::size_t min_cells_per_thread) {
  if (L.loose_batches.items != L.loose_cells.size())
    throw std::logic_error("split_cell_loop: the level's batches are not those of its cells (batch_cells)");
  if (L.family_batches.batches.size() > std::numeric_limits<std::uint32_t>::max())
    throw std::logic_error("split_cell_loop: more batches than a batch index holds");
  const BatchSequence seq(L);
  const std::size_t cells = L.cell_count(), batches = seq.size();
  std::size_t T = threads < 1 ? 1 : static_cast<std::size_t>(threads);
  T = std::min({T, std::max<std::size_t>(1, cells / std::max<std::size_t>(1, min_cells_per_thread)),
                std::max<std::size_t>(1, batches)});

  // Range t starts at the first batch with at least t / T of the cells before it.
  std::vector<std::size_t> start(T + 1, batches);
  start[0] = 0;
  std::size_t before = 0, t = 1;
  for (std::size_t i = 0; i < batches && t < T; ++i) {
    while (t < T && before * T >= t * cells) start[t++] = i;
    before += seq.cells(i);
  }

  CellLoopSplit split;
  split.family_items = L.family_batches.items;
  split.loose_items = L.loose_batches.items;
  split.ranges.resize(T);
  const std::size_t q = seq.families();
  for (std::size_t r = 0; r < T; ++r) {
    CellLoopSplit::Range& range = split.ranges[r];
    range.families.begin = std::min(start[r], q);
    range.families.end = std::min(start[r + 1], q);
    range.loose.begin = std::max(start[r], q) - q;
    range.loose.end = std::max(start[r + 1], q) - q;
    range.families.by_node = group_batch_sums(L.family_batches, range.families.begin, range.families.end, L.slots());
    range.loose.by_node = group_batch_sums(L.loose_batches, range.loose.begin, range.loose.end, L.slots());
  }
  if (T == 1) return split;

  // The lowest range that adds to each node: the ranges in order, each marking what no
  // earlier one did.
  const std::size_t none = T;
  std::vector<std::uint32_t> lowest(L.slots(), static_cast<std::uint32_t>(none));
  for (std::size_t r = 0; r < T; ++r)
    for (std::size_t i = start[r]; i < start[r + 1]; ++i)
      seq.for_lanes(i, [&](std::uint32_t node, std::size_t, std::size_t) {
        if (lowest[node] == none) lowest[node] = static_cast<std::uint32_t>(r);
      });
  // Range r keeps aside its additions to the nodes a lower range adds to, in its sweep's order.
  for (std::size_t r = 1; r < T; ++r) {
    CellLoopSplit::Range& range = split.ranges[r];
    for (std::size_t i = start[r]; i < start[r + 1]; ++i) {
      std::array<std::uint8_t, 10> mask{};
      seq.for_lanes(i, [&](std::uint32_t node, std::size_t n, std::size_t l) {
        if (lowest[node] >= r) return;
        mask[n] = static_cast<std::uint8_t>(mask[n] | (1u << l));
        range.kept_nodes.push_back(node);
      });
      if (i < q) keep(range.families, i, mask);
      else keep(range.loose, i - q, mask);
    }
    range.kept.assign(range.kept_nodes.size(), 0.0);
  }
  return split;
}

}  // namespace mg
