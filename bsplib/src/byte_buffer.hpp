// A growable byte buffer that keeps its capacity across supersteps, so that after the first
// few supersteps the put path never allocates. std::vector<char>::resize would zero-fill.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>

namespace bsplib {

class ByteBuffer {
 public:
  ByteBuffer() = default;
  ByteBuffer(const ByteBuffer&) = delete;
  ByteBuffer& operator=(const ByteBuffer&) = delete;
  ByteBuffer(ByteBuffer&& o) noexcept : m_data(o.m_data), m_size(o.m_size), m_cap(o.m_cap) {
    o.m_data = nullptr;
    o.m_size = o.m_cap = 0;
  }
  ~ByteBuffer() { std::free(m_data); }

  // Room for n more bytes at the end; returns where they go.
  char* grow(std::size_t n) {
    if (m_size + n > m_cap) reserve(m_size + n);
    char* p = m_data + m_size;
    m_size += n;
    return p;
  }
  void append(const void* src, std::size_t n) {
    if (n) std::memcpy(grow(n), src, n);
  }
  void reserve(std::size_t n) {
    if (n <= m_cap) return;
    std::size_t cap = m_cap ? m_cap : 256;
    while (cap < n) cap *= 2;
    char* p = static_cast<char*>(std::realloc(m_data, cap));
    if (!p) throw std::bad_alloc();
    m_data = p;
    m_cap = cap;
  }
  void resize(std::size_t n) {
    reserve(n);
    m_size = n;
  }
  void clear() noexcept { m_size = 0; }
  char* data() noexcept { return m_data; }
  const char* data() const noexcept { return m_data; }
  std::size_t size() const noexcept { return m_size; }
  bool empty() const noexcept { return m_size == 0; }

 private:
  char* m_data = nullptr;
  std::size_t m_size = 0;
  std::size_t m_cap = 0;
};

}  // namespace bsplib
