// The allocator's advice of heap_reuse.hpp.
#include "instrument/heap_reuse.hpp"

#include <atomic>
#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__linux__)
#include <unistd.h>
#endif

#include "instrument/huge_pages.hpp"

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace instrument {

namespace {
// reuse_freed_memory's advice taken; read by huge_capacity from any thread.
std::atomic<bool> heap_kept{false};
}  // namespace

bool reuse_freed_memory() {
#if defined(__GLIBC__)
  // mallopt returns 1 when it took the value; a sanitizer's allocator returns 0 or -1.
  // A trim threshold of -1 turns trimming off (mallopt(3)).
  const bool kept = mallopt(M_MMAP_MAX, 0) == 1 && mallopt(M_TRIM_THRESHOLD, -1) == 1;
  heap_kept.store(kept, std::memory_order_relaxed);
  return kept;
#else
  return false;
#endif
}

bool freed_memory_reused() { return heap_kept.load(std::memory_order_relaxed); }

bool advise_heap_huge_pages(std::size_t bytes) {
#if defined(__linux__)
  if (!freed_memory_reused() || bytes < kHugePageBytes) return false;
  // With no mmap of its own the allocator grows the heap for this block (nothing written but
  // its header); freed, it joins the heap's top, which is never trimmed.
  char* block = static_cast<char*>(std::malloc(bytes));
  if (block == nullptr) return false;
  block[0] = 0;  // on the header's page, touched already: nothing read is left unwritten
  // Below the program break: the main heap's. A thread's own arena maps a block this large
  // apart and unmaps it when freed (M_MMAP_MAX does not hold there): no lasting advice.
  const bool in_heap = block < static_cast<char*>(sbrk(0));
  const bool advised = in_heap && advise_huge_pages(block, bytes);
  std::free(block);
  return advised;
#else
  (void)bytes;
  return false;
#endif
}

}  // namespace instrument
