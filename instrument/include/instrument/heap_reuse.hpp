// reuse_freed_memory: a freed block stays with the process, for its next allocations.
//
// Why: glibc hands a block of more than 32 MiB (or of its adaptive mmap threshold) back to the
// kernel when it is freed, and trims the heap's top beyond 128 KiB; the next allocation of that
// size then faults fresh pages in. On a guest that reports freed memory to its host (virtio free
// page reporting, as on the Firecracker/PVM guests of multigrid/BENCHMARKS.md) a fresh page is
// backed again at its first touch, ~1.8 ns a byte, most of the kernel time of multigrid's
// set-up, which frees each step's temporaries before the next allocates its own. With every
// block from the heap and the heap never trimmed, those pages are written once. The peak is
// unchanged (the allocator still reuses a freed block before it grows the heap); what is lost
// is giving memory back before the process ends, which a run that frees its set-up's
// temporaries and keeps its grids does not need.
#pragma once

namespace instrument {

// Tells the allocator: no block by mmap of its own, no trimming of the heap. Call before the
// allocations it should serve. False where the allocator does not take the advice (not glibc,
// or a sanitizer's allocator): then nothing changed.
bool reuse_freed_memory();

}  // namespace instrument
