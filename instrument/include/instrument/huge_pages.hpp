// Big arrays on transparent huge pages, asked for from inside the program.
//
// A set-up array's first touch faults one 4 KiB page at a time; on a VM with shadow paging a
// fault costs ~10 us, so a 256 MiB set-up spends most of a second in the kernel. Linux with
// THP in "madvise" mode (the common default) backs a range with 2 MiB pages, one fault each,
// once the program has called madvise(MADV_HUGEPAGE) on it, and only where no 4 KiB page of
// the aligned 2 MiB is touched yet: so the advice goes between the allocation and the first
// write, and a huge page needs a whole aligned 2 MiB of the array.
//
// These helpers keep std::vector (the code's types and signatures stay): they allocate the
// vector's storage, advise it, then fill it. The advice is a hint: where madvise fails,
// where THP is off or on another OS, the vector is the same, only its pages are small. Never
// an error. Arrays under kHugePageBytes are not advised (they would gain nothing).
#pragma once
#include <cassert>
#include <cstddef>
#include <iterator>
#include <utility>
#include <vector>

namespace instrument {

inline constexpr std::size_t kHugePageBytes = std::size_t{2} << 20;

// Asks the kernel to back the pages of [data, data + bytes) with huge pages from their first
// touch on, where a whole aligned 2 MiB lies in them; if the first such 2 MiB also holds the
// allocator's header before `data` (already touched), it is made a huge page at once
// (MADV_COLLAPSE) rather than left to 511 small faults. Whether the advice was taken: false
// for fewer than kHugePageBytes, on a failed madvise, or without Linux.
bool advise_huge_pages(const void* data, std::size_t bytes);

// The capacity to reserve for n elements of `size` bytes so that the allocation fills whole
// huge pages: glibc then maps it alone (an allocation this big is mmap'ed) and Linux places a
// mapping of whole huge pages on a 2 MiB boundary, so every 2 MiB of it can be a huge page,
// not only the middle of a block at any address. n itself under kHugePageBytes, and in a
// process that called reuse_freed_memory (heap_reuse.hpp), where blocks come from the heap at
// any address (the whole 2 MiB pages inside one are still huge, its ends small): rounded up
// there, a block would only push the next one further on and leave half-used huge pages.
std::size_t huge_capacity(std::size_t n, std::size_t size);

// v emptied, with room for at least n elements in fresh storage advised (advise_huge_pages)
// before anything touches it: push_back up to n then writes onto huge pages.
template <class T>
void reserve_huge(std::vector<T>& v, std::size_t n) {
  std::vector<T> fresh;
  const std::size_t capacity = huge_capacity(n, sizeof(T));
  fresh.reserve(capacity);
  advise_huge_pages(fresh.data(), capacity * sizeof(T));
  v = std::move(fresh);
}

// v holding n copies of value (value-initialised elements by default), in storage advised
// before the fill: what v.assign(n, value) gives, with a fault per 2 MiB, not per 4 KiB.
template <class T>
void assign_huge(std::vector<T>& v, std::size_t n, const T& value = T()) {
  reserve_huge(v, n);
  v.assign(n, value);
}

// Writes v's elements from its size up to `need` (at most its capacity: no allocation) and
// drops them again, so that the pages of that room are first touched here, not by the
// push_backs that fill it later (value-initialised, then destroyed).
template <class T>
void touch_room(std::vector<T>& v, std::size_t need) {
  assert(need >= v.size() && need <= v.capacity());
  const std::size_t n = v.size();
  v.resize(need);
  v.resize(n);
}

// Room in v for `more` elements beyond its size, in storage advised as reserve_huge's and
// touched here, so that the next `more` push_backs neither reallocate nor fault: for a record
// pushed inside a timed loop (a run's step history), whose growth would otherwise be timed as
// the loop's work. v's elements stay; its capacity at least doubles when it grows, so a
// vector given room again and again is copied a bounded number of times, but only the room
// asked for is touched (the rest of the capacity takes no memory until a later call).
template <class T>
void make_room_huge(std::vector<T>& v, std::size_t more) {
  const std::size_t need = v.size() + more;
  if (need <= v.capacity()) {  // the room touched up to need: an earlier call may have touched less
    touch_room(v, need);
    return;
  }
  std::vector<T> grown;
  reserve_huge(grown, need > 2 * v.capacity() ? need : 2 * v.capacity());
  grown.assign(std::make_move_iterator(v.begin()), std::make_move_iterator(v.end()));
  touch_room(grown, need);
  v = std::move(grown);
}

}  // namespace instrument
