// The BSMP receive queue of one process: the messages delivered at the last bsp_sync, each
// with the tag it was sent with. The queue owns their bytes until the next bsp_sync, which
// is how long bsp_hpmove's pointers stay valid; unread messages are dropped at that sync.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "byte_buffer.hpp"

namespace bsplib {

class BsmpQueue {
 public:
  void clear() {
    m_store.clear();
    m_items.clear();
    m_next = 0;
    m_remaining_payload = 0;
  }
  void add(const char* tag, std::uint32_t tag_n, const char* payload, std::uint32_t n) {
    const std::size_t at = m_store.size();
    char* p = m_store.grow(tag_n + n);
    if (tag_n) std::memcpy(p, tag, tag_n);
    if (n) std::memcpy(p + tag_n, payload, n);
    m_items.push_back(Item{at, tag_n, n});
    m_remaining_payload += n;
  }
  bool empty() const { return m_next == m_items.size(); }
  int count() const { return static_cast<int>(m_items.size() - m_next); }
  long remaining_payload() const { return m_remaining_payload; }
  // The front message; valid only if !empty().
  std::uint32_t front_payload_size() const { return m_items[m_next].n; }
  std::uint32_t front_tag_size() const { return m_items[m_next].tag_n; }
  char* front_tag() { return m_store.data() + m_items[m_next].at; }
  char* front_payload() { return front_tag() + m_items[m_next].tag_n; }
  void pop_front() {
    m_remaining_payload -= m_items[m_next].n;
    ++m_next;
  }

 private:
  struct Item {
    std::size_t at;
    std::uint32_t tag_n, n;
  };
  ByteBuffer m_store;
  std::vector<Item> m_items;
  std::size_t m_next = 0;
  long m_remaining_payload = 0;
};

}  // namespace bsplib
