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
//
// advise_heap_huge_pages: the heap's next bytes on transparent huge pages (huge_pages.hpp).
//
// Why: with every block from the heap, only the arrays a program advises itself
// (reserve_huge) fault 2 MiB at a time; every other vector, map and string of a set-up faults
// 4 KiB at a time, and on a guest with shadow paging (the PVM guests of multigrid/BENCHMARKS.md)
// a 4 KiB fault costs 10-13 us, fresh or not (page-fault-cost): 6000-7500 faults, 0.06-0.1 s,
// of multigrid's set-up at --cube 10. The heap is grown by the run's expected size, advised,
// and given back to the allocator, which then carves the run's blocks from it: a 2 MiB frame
// of it faults once, unless a page of it was written before (the heap's old top). What it
// costs: a run's resident memory rounds up to whole 2 MiB pages where its blocks leave gaps
// (+3-7% measured, multigrid/BENCHMARKS.md), and where the host takes freed memory back between
// runs it backs whole 2 MiB pages again (the kernel time of a set-up 2 s after the last rose).
#pragma once

#include <cstddef>

namespace instrument {

// Tells the allocator: no block by mmap of its own, no trimming of the heap. Call before the
// allocations it should serve. False where the allocator does not take the advice (not glibc,
// or a sanitizer's own allocator, as AddressSanitizer's): then nothing changed.
bool reuse_freed_memory();

// Whether reuse_freed_memory's advice was taken: every block then comes from the heap.
bool freed_memory_reused();

// After reuse_freed_memory took its advice, from the main thread: the heap grown by `bytes` of
// address space, advised for huge pages (advise_huge_pages), and left free at the heap's top,
// where the next allocations are carved from. Whether it was done: false without
// reuse_freed_memory's advice (a freed block would go back to the kernel, advice and all), for
// fewer bytes than a huge page, where the heap cannot grow by that much, from another thread
// (its arena maps such a block apart), off Linux or where madvise fails. A hint like
// huge_pages.hpp's: never an error, the allocations are the same either way.
bool advise_heap_huge_pages(std::size_t bytes);

}  // namespace instrument
