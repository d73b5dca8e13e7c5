// std::vector storage that starts on a cache line. The sweep's per-task records (psi and q
// of a cell: 32 B per group) are then whole cache lines; malloc's 16-byte alignment would
// split every one of them across two lines, doubling the lines a task's gathers and its
// write touch.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <new>
#include <vector>

namespace tycho {

inline constexpr std::size_t kCacheLine = 64;

template <class T>
struct CacheLineAllocator {
  using value_type = T;
  CacheLineAllocator() = default;
  template <class U>
  CacheLineAllocator(const CacheLineAllocator<U>&) noexcept {}

  T* allocate(std::size_t n) {
    const std::size_t bytes = (n * sizeof(T) + kCacheLine - 1) / kCacheLine * kCacheLine;
    void* p = std::aligned_alloc(kCacheLine, bytes);
    if (p == nullptr) throw std::bad_alloc();
    return static_cast<T*>(p);
  }
  void deallocate(T* p, std::size_t) noexcept { std::free(p); }

  template <class U>
  bool operator==(const CacheLineAllocator<U>&) const noexcept { return true; }
};

using CacheAlignedDoubles = std::vector<double, CacheLineAllocator<double>>;

}  // namespace tycho
