// A task id's direction, t / N for N cells a direction (sweep_plan.hpp's task numbering),
// by a multiply instead of a divide. The sweep splits every task id four times (its
// prefetches, its solve, its release); a 64-bit divide is 10-20 cycles of latency ahead of
// each task's address arithmetic, the multiply 3-4.
//
// Lemire, Kaser & Kurz, "Faster remainder by direct computation" (2019): for 32-bit n and a
// divisor d >= 1, n / d == (n * M) >> 64 exactly with M = floor((2^64 - 1) / d) + 1, the
// product taken to 128 bits. M is kept less one, so that d = 1 (M = 2^64: a one-cell rank)
// fits in 64 bits: n * M = n * (M - 1) + n. d = 0 (no cells) has no tasks to divide.
#pragma once
#include <cstdint>

namespace tycho {

class TaskDivider {
 public:
  explicit TaskDivider(std::uint32_t divisor) : reciprocal_less_one_(divisor == 0 ? 0 : UINT64_MAX / divisor) {}

  std::uint32_t quotient(std::uint32_t n) const {
    __extension__ using Wide = unsigned __int128;  // GCC and Clang on every 64-bit target
    return static_cast<std::uint32_t>((static_cast<Wide>(reciprocal_less_one_) * n + n) >> 64);
  }

 private:
  std::uint64_t reciprocal_less_one_;
};

}  // namespace tycho
