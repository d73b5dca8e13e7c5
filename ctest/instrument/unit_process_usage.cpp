// ProcessUsage (process_usage.hpp): first touches of fresh memory are page faults the reading
// counts, and the operators subtract (a later reading minus an earlier one) and add (consecutive
// parts' usages) field by field.
#include <catch2/catch.hpp>

#include <sys/mman.h>

#include <cstddef>
#include <cstring>

#include "instrument/process_usage.hpp"

TEST_CASE("touching 16 MiB of fresh anonymous memory counts as page faults") {
  constexpr std::size_t kBytes = 16u << 20;
  void* m = mmap(nullptr, kBytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  REQUIRE(m != MAP_FAILED);
  madvise(m, kBytes, MADV_NOHUGEPAGE);  // 4 KiB pages: one fault a page, whatever THP's setting
  const instrument::ProcessUsage before = instrument::process_usage();
  std::memset(m, 1, kBytes);
  const instrument::ProcessUsage used = instrument::process_usage() - before;
  munmap(m, kBytes);
  CHECK(used.minor_faults >= static_cast<long>(kBytes / 4096) * 9 / 10);  // a margin for pages the kernel maps another way
  CHECK(used.major_faults == 0);
  CHECK(used.kernel_seconds >= 0);
  CHECK(used.user_seconds >= 0);
}

TEST_CASE("- and -= subtract field by field") {
  const instrument::ProcessUsage a{1.5, 2.0, 100, 3}, b{0.5, 0.25, 40, 1};
  const instrument::ProcessUsage d = a - b;
  CHECK(d.kernel_seconds == 1.0);
  CHECK(d.user_seconds == 1.75);
  CHECK(d.minor_faults == 60);
  CHECK(d.major_faults == 2);
  instrument::ProcessUsage e = a;
  e -= b;
  CHECK(e.kernel_seconds == 1.0);
  CHECK(e.user_seconds == 1.75);
  CHECK(e.minor_faults == 60);
  CHECK(e.major_faults == 2);
  CHECK(a.kernel_seconds == 1.5);  // a - b leaves a as it was
}

TEST_CASE("+ and += add field by field: consecutive parts add up to the whole") {
  const instrument::ProcessUsage first{0.5, 0.25, 40, 1}, second{1.0, 1.75, 60, 2};
  const instrument::ProcessUsage s = first + second;
  CHECK(s.kernel_seconds == 1.5);
  CHECK(s.user_seconds == 2.0);
  CHECK(s.minor_faults == 100);
  CHECK(s.major_faults == 3);
  instrument::ProcessUsage whole = first;
  whole += second;
  CHECK(whole.kernel_seconds == 1.5);
  CHECK(whole.user_seconds == 2.0);
  CHECK(whole.minor_faults == 100);
  CHECK(whole.major_faults == 3);
  CHECK(first.minor_faults == 40);  // first + second leaves first as it was
}
