// A zero-initialised array of doubles on a 64-byte boundary: sweep3d's fast kernel loads
// whole SIMD vectors from its face and flux arrays, and tycho's per-task records (32 B per
// group) are then whole cache lines rather than split across two.
#pragma once
#include <cstddef>
#include <cstdlib>
#include <cstring>
#include <new>
#include <utility>

#include "instrument/huge_pages.hpp"

namespace instrument {

class AlignedBuffer {
 public:
  static constexpr std::size_t alignment = 64;  // bytes: a cache line

  AlignedBuffer() = default;
  explicit AlignedBuffer(std::size_t n) { resize(n); }
  AlignedBuffer(const AlignedBuffer&) = delete;
  AlignedBuffer& operator=(const AlignedBuffer&) = delete;
  AlignedBuffer(AlignedBuffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  AlignedBuffer& operator=(AlignedBuffer&& o) noexcept {
    std::swap(p_, o.p_);
    std::swap(n_, o.n_);
    return *this;
  }
  ~AlignedBuffer() { std::free(p_); }

  // Small pages, or transparent huge pages asked for before the first touch
  // (huge_pages.hpp): a first touch of tycho's psi, 55 MB on cube-10717, faulted 13,000 4 KiB
  // pages, ~10 us each on a VM with shadow paging, a third of the run's set-up. Only arrays of
  // kHugePageBytes or more, placed on a 2 MiB boundary; a hint (THP off: small pages).
  enum class Pages { small, huge };

  // Reallocates to n zeros.
  void resize(std::size_t n, Pages pages = Pages::small) {
    std::free(p_);
    p_ = nullptr;
    n_ = n;
    if (n == 0) return;
    const bool huge = pages == Pages::huge && n * sizeof(double) >= kHugePageBytes;
    const std::size_t align = huge ? kHugePageBytes : alignment;
    const std::size_t bytes = (n * sizeof(double) + align - 1) / align * align;
    p_ = static_cast<double*>(std::aligned_alloc(align, bytes));
    if (!p_) throw std::bad_alloc();
    if (huge) advise_huge_pages(p_, bytes);
    std::memset(p_, 0, bytes);
  }
  void zero() {
    if (n_) std::memset(p_, 0, n_ * sizeof(double));
  }
  double* data() noexcept { return p_; }
  const double* data() const noexcept { return p_; }
  std::size_t size() const noexcept { return n_; }
  std::size_t bytes() const noexcept { return n_ * sizeof(double); }
  double& operator[](std::size_t i) noexcept { return p_[i]; }
  const double& operator[](std::size_t i) const noexcept { return p_[i]; }

 private:
  double* p_ = nullptr;
  std::size_t n_ = 0;
};

}  // namespace instrument
