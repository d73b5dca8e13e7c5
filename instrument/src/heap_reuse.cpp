// The allocator's advice of heap_reuse.hpp.
#include "instrument/heap_reuse.hpp"

#include <climits>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace instrument {

bool reuse_freed_memory() {
#if defined(__GLIBC__)
  // mallopt returns 1 when it took the value; a sanitizer's interceptor returns 0.
  // INT_MAX: the largest trim threshold mallopt takes (2 GiB of free top before a trim).
  return mallopt(M_MMAP_MAX, 0) == 1 && mallopt(M_TRIM_THRESHOLD, INT_MAX) == 1;
#else
  return false;
#endif
}

}  // namespace instrument
