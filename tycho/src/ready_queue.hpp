// The sweep's queue of ready tasks. Priorities are dense levels (make_sweep_plan numbers
// the distinct priorities of a rank 0, 1, ... in order), so the queue is an array of
// buckets with a pointer to the highest non-empty one: push and pop are O(1) and nearly
// branch-free, where a binary heap of a few thousand ready tasks costs a dozen
// unpredictable compares per pop. Within a bucket the last task pushed goes first: its
// upwind cell was just solved, so its inputs are still in cache. FIFO mode ignores levels.
#pragma once
#include <cstdint>
#include <vector>

namespace tycho {

class ReadyQueueImpl {
 public:
  ReadyQueueImpl(bool fifo, std::size_t levels) : fifo_(fifo), buckets_(fifo ? 1 : levels) {}

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  void push(std::uint32_t task, std::uint32_t level) {
    ++size_;
    if (fifo_) {
      fifo_items_.push_back(task);
      return;
    }
    buckets_[level].push_back(task);
    if (level > top_) top_ = level;
  }

  // Precondition: !empty().
  std::uint32_t pop() {
    --size_;
    if (fifo_) {
      const std::uint32_t t = fifo_items_[head_++];
      if (head_ == fifo_items_.size()) {  // drained: reuse the storage from the start
        fifo_items_.clear();
        head_ = 0;
      }
      return t;
    }
    while (buckets_[top_].empty()) --top_;
    const std::uint32_t t = buckets_[top_].back();
    buckets_[top_].pop_back();
    return t;
  }

  void clear() {
    for (auto& b : buckets_) b.clear();
    fifo_items_.clear();
    head_ = 0;
    top_ = 0;
    size_ = 0;
  }

 private:
  bool fifo_;
  std::vector<std::vector<std::uint32_t>> buckets_;
  std::vector<std::uint32_t> fifo_items_;
  std::size_t head_ = 0;  // fifo: the next to pop
  std::uint32_t top_ = 0;
  std::size_t size_ = 0;
};

}  // namespace tycho
