// Advice for transparent huge pages (huge_pages.hpp).
#include "instrument/huge_pages.hpp"

#include "instrument/heap_reuse.hpp"

#include <cstdint>
#include <limits>

#if defined(__linux__)
#include <sys/mman.h>
#include <unistd.h>
#endif

namespace instrument {

namespace {

// What glibc adds to a request it maps alone: its 16-byte chunk header and the rounding of
// the request to 16 bytes. A request of whole huge pages less this is mapped as whole huge
// pages.
constexpr std::size_t kAllocatorOverhead = 32;

}  // namespace

std::size_t huge_capacity(std::size_t n, std::size_t size) {
  if (size == 0 || n > (std::numeric_limits<std::size_t>::max() - 2 * kHugePageBytes) / size) return n;
  const std::size_t bytes = n * size;
  // Blocks from the kept heap (heap_reuse.hpp) lie at any address: rounded up they would gain
  // no alignment, only leave their ends' huge pages half used and the next block further on
  // (multigrid --cube 8 --grids 4: 88.7 MB of peak RSS against 70-71 MB unrounded).
  if (bytes < kHugePageBytes || freed_memory_reused()) return n;
  const std::size_t whole = (bytes + kAllocatorOverhead + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
  return (whole - kAllocatorOverhead) / size;
}

bool advise_huge_pages(const void* data, std::size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  if (data == nullptr || bytes < kHugePageBytes) return false;
  const long page_size = sysconf(_SC_PAGESIZE);
  if (page_size <= 0) return false;
  // madvise takes whole pages: from the page holding the first byte to the end of the last.
  const auto page = static_cast<std::uintptr_t>(page_size);
  const auto at = reinterpret_cast<std::uintptr_t>(data);
  const std::uintptr_t first = at & ~(page - 1), end = (at + bytes + page - 1) & ~(page - 1);
  if (madvise(reinterpret_cast<void*>(first), end - first, MADV_HUGEPAGE) != 0) return false;
  // The allocator wrote its header just before `data`, so that page is touched and the
  // kernel would fault the rest of its 2 MiB page by page; when that 2 MiB is all advised
  // (a block mapped alone, starting on a 2 MiB boundary: huge_capacity), it is made one huge
  // page now. Linux 6.1 and later; elsewhere the call fails and changes nothing.
#if defined(MADV_COLLAPSE)
  constexpr int kCollapse = MADV_COLLAPSE;
#else
  constexpr int kCollapse = 25;  // Linux's value, for C libraries older than 6.1's header
#endif
  const std::uintptr_t head = at & ~(std::uintptr_t{kHugePageBytes} - 1);
  if (head >= first && head + kHugePageBytes <= end) (void)madvise(reinterpret_cast<void*>(head), kHugePageBytes, kCollapse);
  return true;
#else
  (void)data;
  (void)bytes;
  return false;
#endif
}

}  // namespace instrument
