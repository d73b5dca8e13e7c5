// The sweep's tasks waiting for their inputs, and the queue of those that are ready.
// Priorities are dense levels (make_sweep_plan numbers the distinct priorities of a rank
// 0, 1, ... in order), so the queue is an array of buckets with a pointer to the highest
// non-empty one: push and pop are O(1) and nearly branch-free, where a binary heap of a few
// thousand ready tasks costs a dozen unpredictable compares per pop. Within a bucket the
// last task pushed goes first: its upwind cell was just solved, so its inputs are still in
// cache. FIFO mode ignores levels.
//
// Each bucket is a stack linked through the tasks themselves, and a task's count of inputs
// still to come, its level and its link share one 16-byte slot: releasing a downwind task
// touches one line, not one in each of three per-task arrays plus its bucket's own vector.
// (blevel has a level per (b-level, direction) pair, thousands of buckets; callgrind on
// cube-10717 counted 1.7 L2 misses a task in the release with the separate arrays and a
// std::vector per bucket.) The order is that of the vectors' push_back / pop_back.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

#include "instrument/huge_pages.hpp"

namespace tycho {

class ReadyQueueImpl {
 public:
  ReadyQueueImpl(bool fifo, std::size_t levels, std::size_t tasks)
      : fifo_(fifo), head_(fifo ? 1 : levels, kNone) {
    instrument::assign_huge(slot_, tasks);  // 16 B a task: one fault a 2 MiB, not a 4 KiB (set-up)
  }

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  // A sweep's start: task t waits for waiting[t] inputs and has priority level[t]; those
  // waiting for none are queued in task order.
  void reset(const std::vector<std::uint32_t>& waiting, const std::vector<std::uint32_t>& level) {
    std::fill(head_.begin(), head_.end(), kNone);
    tail_ = kNone;
    top_ = 0;
    size_ = 0;
    for (std::uint32_t t = 0; t < slot_.size(); ++t) {
      slot_[t].waiting = waiting[t];
      slot_[t].level = fifo_ ? 0 : level[t];
      if (waiting[t] == 0) push(t);
    }
  }

  // One of task t's inputs has come: queues t when it was the last.
  void satisfy(std::uint32_t t) {
    if (--slot_[t].waiting == 0) push(t);
  }

  std::uint32_t waiting(std::uint32_t t) const { return slot_[t].waiting; }

  // Asks for task t's slot ahead of a satisfy(t) (SweepEngine::satisfy_downwind).
  void prefetch(std::uint32_t t) const { __builtin_prefetch(&slot_[t], 1); }

  // Precondition: !empty().
  std::uint32_t pop() {
    --size_;
    if (fifo_) {
      const std::uint32_t t = head_[0];
      head_[0] = slot_[t].next;
      if (head_[0] == kNone) tail_ = kNone;
      return t;
    }
    while (head_[top_] == kNone) --top_;
    const std::uint32_t t = head_[top_];
    head_[top_] = slot_[t].next;
    return t;
  }

 private:
  static constexpr std::uint32_t kNone = 0xFFFFFFFFu;  // task ids are < 2^32 - 1 (make_sweep_plan)
  struct alignas(16) Slot {
    std::uint32_t waiting = 0;  // inputs still to come this sweep
    std::uint32_t level = 0;
    std::uint32_t next = kNone;  // the task below it in its bucket (fifo: the one after it)
  };

  void push(std::uint32_t t) {
    ++size_;
    if (fifo_) {  // onto the tail; head_[0] is the oldest
      if (tail_ == kNone) head_[0] = t;
      else slot_[tail_].next = t;
      slot_[t].next = kNone;
      tail_ = t;
      return;
    }
    const std::uint32_t level = slot_[t].level;
    slot_[t].next = head_[level];
    head_[level] = t;
    if (level > top_) top_ = level;
  }

  bool fifo_;
  std::vector<std::uint32_t> head_;  // per level: the last pushed; fifo: head_[0] the oldest
  std::vector<Slot> slot_;           // per task
  std::uint32_t tail_ = kNone;       // fifo: the newest
  std::uint32_t top_ = 0;
  std::size_t size_ = 0;
};

}  // namespace tycho
