// Big arrays on huge pages (huge_pages.hpp): the vectors hold what reserve/assign would give,
// with room for at least what was asked, whatever the kernel does with the advice (THP on,
// off, or madvise refused: the tests pass the same on every machine), and never an error.
#include <catch2/catch.hpp>

#include <array>
#include <cstdint>
#include <vector>

#include "instrument/aligned_buffer.hpp"
#include "instrument/heap_reuse.hpp"
#include "instrument/huge_pages.hpp"

using namespace instrument;

TEST_CASE("huge_capacity: whole huge pages less the allocator's header, never less than asked", "[huge_pages]") {
  REQUIRE_FALSE(instrument::freed_memory_reused());  // blocks mapped alone (after the advice: no rounding)
  CHECK(huge_capacity(0, 8) == 0);
  CHECK(huge_capacity(1000, 8) == 1000);                           // under 2 MiB: as asked
  CHECK(huge_capacity(kHugePageBytes / 8 - 1, 8) == kHugePageBytes / 8 - 1);
  for (std::size_t size : {std::size_t{1}, std::size_t{4}, std::size_t{16}, std::size_t{36}, std::size_t{56}}) {
    for (std::size_t bytes : {kHugePageBytes, kHugePageBytes + 1, 3 * kHugePageBytes - 40, 25 * kHugePageBytes + 12345}) {
      const std::size_t n = (bytes + size - 1) / size;
      const std::size_t c = huge_capacity(n, size);
      CAPTURE(size, bytes, n, c);
      CHECK(c >= n);
      // The block and glibc's 32 bytes fill the fewest whole huge pages that hold n: one
      // more element would not fit them.
      const std::size_t whole = (n * size + 32 + kHugePageBytes - 1) / kHugePageBytes * kHugePageBytes;
      CHECK(c * size + 32 <= whole);
      CHECK((c + 1) * size + 32 > whole);
    }
  }
  CHECK(huge_capacity(~std::size_t{0} / 4, 8) == ~std::size_t{0} / 4);  // no overflow: as asked
  CHECK(huge_capacity(5, 0) == 5);
}

TEST_CASE("advise_huge_pages: a hint that never fails the caller", "[huge_pages]") {
  CHECK_FALSE(advise_huge_pages(nullptr, 4 * kHugePageBytes));
  std::vector<char> small(1000, 'x');
  CHECK_FALSE(advise_huge_pages(small.data(), small.size()));  // too small to gain anything
  CHECK(small == std::vector<char>(1000, 'x'));
  // A block already written: advising it keeps its contents (true or false, by the kernel).
  std::vector<std::uint32_t> big(3 * kHugePageBytes / 4 + 17);
  for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<std::uint32_t>(i * 2654435761u);
  (void)advise_huge_pages(big.data(), big.size() * sizeof(std::uint32_t));
  bool same = true;
  for (std::size_t i = 0; i < big.size(); ++i) same = same && big[i] == static_cast<std::uint32_t>(i * 2654435761u);
  CHECK(same);
}

TEST_CASE("reserve_huge: an empty vector with room, filled without moving", "[huge_pages]") {
  for (std::size_t n : {std::size_t{0}, std::size_t{7}, kHugePageBytes / 24 + 5, 5 * kHugePageBytes / 24}) {
    CAPTURE(n);
    std::vector<std::array<double, 3>> v(3, {1.0, 2.0, 3.0});  // old contents go
    reserve_huge(v, n);
    CHECK(v.empty());
    REQUIRE(v.capacity() >= n);
    const auto* storage = v.data();
    for (std::size_t i = 0; i < n; ++i) v.push_back({double(i), -double(i), 0.5});
    CHECK(v.data() == storage);  // no reallocation up to n
    bool same = true;
    for (std::size_t i = 0; i < n; ++i) same = same && v[i] == std::array<double, 3>{double(i), -double(i), 0.5};
    CHECK(same);
  }
}

TEST_CASE("assign_huge: v.assign(n, value), value-initialised by default", "[huge_pages]") {
  for (std::size_t n : {std::size_t{0}, std::size_t{100}, kHugePageBytes / 4 + 3, 3 * kHugePageBytes / 4}) {
    CAPTURE(n);
    std::vector<std::uint32_t> v = {9, 9, 9};
    assign_huge(v, n, 0xFFFFFFFFu);
    CHECK(v == std::vector<std::uint32_t>(n, 0xFFFFFFFFu));
    std::vector<double> zeros(5, 1.0);
    assign_huge(zeros, n);
    CHECK(zeros == std::vector<double>(n, 0.0));
  }
}

TEST_CASE("AlignedBuffer on huge pages: zeros, its size, a 2 MiB boundary; small under 2 MiB", "[huge_pages]") {
  // The huge request's storage starts on a 2 MiB boundary (so each 2 MiB of it can be a huge
  // page) and reads zeros, as the small one does; under kHugePageBytes the request is small.
  const std::size_t n = 3 * kHugePageBytes / sizeof(double) + 5;  // not a whole number of pages
  instrument::AlignedBuffer huge;
  huge.resize(n, instrument::AlignedBuffer::Pages::huge);
  REQUIRE(huge.size() == n);
  CHECK(reinterpret_cast<std::uintptr_t>(huge.data()) % kHugePageBytes == 0);
  bool zeros = true;
  for (std::size_t i = 0; i < n; i += 4093) zeros = zeros && huge[i] == 0.0;
  CHECK(zeros);
  CHECK(huge[n - 1] == 0.0);
  huge[n - 1] = 1.5;  // the whole of it is writable
  CHECK(huge[n - 1] == 1.5);
  instrument::AlignedBuffer small;
  small.resize(1000, instrument::AlignedBuffer::Pages::huge);
  REQUIRE(small.size() == 1000);
  CHECK(reinterpret_cast<std::uintptr_t>(small.data()) % instrument::AlignedBuffer::alignment == 0);
  CHECK(small[999] == 0.0);
  huge.resize(0, instrument::AlignedBuffer::Pages::huge);
  CHECK(huge.size() == 0);
  CHECK(huge.data() == nullptr);
}

TEST_CASE("make_room_huge: the elements kept, room for more, no reallocation until it is used", "[huge_pages]") {
  std::vector<std::uint64_t> v;
  for (std::uint64_t i = 0; i < 1000; ++i) v.push_back(3 * i + 1);
  const std::size_t more = kHugePageBytes / sizeof(std::uint64_t) + 7;  // past one huge page
  make_room_huge(v, more);
  REQUIRE(v.size() == 1000);
  bool kept = true;
  for (std::uint64_t i = 0; i < 1000; ++i) kept = kept && v[i] == 3 * i + 1;
  CHECK(kept);
  CHECK(v.capacity() >= 1000 + more);
  const std::uint64_t* storage = v.data();
  for (std::size_t i = 0; i < more; ++i) v.push_back(i);
  CHECK(v.data() == storage);  // the room was used, not grown again
  // Room already there: nothing moves; room wanted again: the capacity at least doubles.
  const std::size_t capacity = v.capacity();
  make_room_huge(v, capacity - v.size());
  CHECK(v.data() == storage);
  make_room_huge(v, capacity - v.size() + 1);
  CHECK(v.capacity() >= 2 * capacity);
  CHECK(v.size() == 1000 + more);
  CHECK(v[999] == 2998);
  CHECK(v.back() == more - 1);
  std::vector<int> empty;
  make_room_huge(empty, 0);
  CHECK(empty.empty());
}
