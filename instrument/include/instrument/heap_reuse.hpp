// reuse_freed_memory: a freed block stays with the process, for its next allocations.
//
// Why: glibc hands a block of more than 32 MiB (or of its adaptive mmap threshold) back to the
// kernel when it is freed, and trims the heap's top beyond 128 KiB; the next allocation of that
// size then faults fresh pages in. On a guest that reports freed memory to its host (virtio free
// page reporting, as on the Firecracker/PVM guests of multigrid/BENCHMARKS.md) a fresh page is
// backed again at its first touch, ~1.8 ns a byte, most of the kernel time of multigrid's
// set-up, which frees each step's temporaries before the next allocates its own. With every
// block from the heap and the heap never trimmed, those pages are faulted in once. What is
// lost: memory given back before the process ends, and a block's alignment (a large block no
// longer starts on a 2 MiB boundary, so huge_pages.hpp's advice covers its whole huge pages
// only, not its ends). The peaks of the runs measured did not rise (multigrid/BENCHMARKS.md),
// but a heap can hold a freed block below a live one that a larger request cannot use.
#pragma once

namespace instrument {

// Tells the allocator: no block by mmap of its own, no trimming of the heap. Call before the
// allocations it should serve. False where the allocator does not take the advice (not glibc,
// or a sanitizer's own allocator, as AddressSanitizer's): then nothing changed.
bool reuse_freed_memory();

}  // namespace instrument
