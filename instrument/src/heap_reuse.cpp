// The allocator's advice of heap_reuse.hpp.
#include "instrument/heap_reuse.hpp"

#include <cstdlib>  // defines __GLIBC__ where the C library is glibc

#if defined(__GLIBC__)
#include <malloc.h>
#endif

namespace instrument {

bool reuse_freed_memory() {
#if defined(__GLIBC__)
  // mallopt returns 1 when it took the value; a sanitizer's allocator returns 0 or -1.
  // A trim threshold of -1 turns trimming off (mallopt(3)).
  return mallopt(M_MMAP_MAX, 0) == 1 && mallopt(M_TRIM_THRESHOLD, -1) == 1;
#else
  return false;
#endif
}

}  // namespace instrument
