// The sweep's queue of ready tasks: a binary max-heap on (priority, lower task id first), or
// a first-in first-out ring. Keys pack both into one 64-bit word, so a pop is one compare
// per heap level and the order is total (the same ties broken the same way on every run).
#pragma once
#include <algorithm>
#include <cstdint>
#include <functional>
#include <vector>

namespace tycho {

class ReadyQueueImpl {
 public:
  ReadyQueueImpl(bool fifo, std::size_t capacity) : fifo_(fifo) { items_.reserve(capacity); }

  bool empty() const { return head_ == items_.size(); }
  std::size_t size() const { return items_.size() - head_; }

  void push(std::uint32_t task, std::uint32_t priority) {
    if (fifo_) {
      items_.push_back(task);
    } else {
      items_.push_back((std::uint64_t{priority} << 32) | (0xFFFFFFFFu - task));
      std::push_heap(items_.begin(), items_.end());
    }
  }

  std::uint32_t pop() {
    if (fifo_) {
      const auto t = static_cast<std::uint32_t>(items_[head_++]);
      if (head_ == items_.size()) {  // drained: reuse the storage from the start
        items_.clear();
        head_ = 0;
      }
      return t;
    }
    std::pop_heap(items_.begin(), items_.end());
    const std::uint64_t k = items_.back();
    items_.pop_back();
    return 0xFFFFFFFFu - static_cast<std::uint32_t>(k & 0xFFFFFFFFu);
  }

  void clear() {
    items_.clear();
    head_ = 0;
  }

 private:
  bool fifo_;
  std::vector<std::uint64_t> items_;
  std::size_t head_ = 0;  // fifo: the next to pop
};

}  // namespace tycho
