// The one way a detected error ends a BSP run: one line on stderr naming the call, the
// process and the superstep, then MPI_Abort so that every process ends (no hang, even if the
// others are blocked in a collective), with a non-zero exit status.
#pragma once

namespace bsplib {

// `pid` < 0 and `superstep` < 0 mean "not known yet" (before bsp_begin).
[[noreturn]] void fatal(const char* call, int pid, long superstep, const char* format, ...)
    __attribute__((format(printf, 4, 5)));

}  // namespace bsplib
