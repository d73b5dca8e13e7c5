// The one way a detected error ends a BSP run: one line on stderr naming the call, the
// process and the superstep, then every process ends (no hang, even if the others are
// blocked in a collective) with a non-zero exit status.
//
// "One line" holds when several processes fail at once (they all refuse the same bad
// argument, or all call bsp_abort): the failing processes tell each other on a communicator
// of the library's own (the failure channel) and only the lowest prints. MPI_Abort's own
// line ("Abort(1) on node 0 ...") is suppressed; if every process failed before bsp_begin,
// none is blocked, so they finalise MPI and exit 1 without MPI_Abort (an error before
// bsp_begin initialises MPI first, Spmd::prepare_to_fail). Where the program initialised MPI
// itself, there is no channel before bsp_begin: each failing process prints its line.
#pragma once
#include <mpi.h>

namespace bsplib {

// `pid` < 0 and `superstep` < 0 mean "not known yet" (before bsp_begin).
[[noreturn]] void fatal(const char* call, int pid, long superstep, const char* format, ...)
    __attribute__((format(printf, 4, 5)));
// The same end with `text` as the whole line: bsp_abort before bsp_begin, where the message
// is all the program's own (a refusal of its command line) and no process or superstep is
// known yet to name.
[[noreturn]] void fatal_line(const char* text);

// The failure channel: a duplicate of `comm`, made collectively by every process of it
// (after MPI_Init: of MPI_COMM_WORLD; at bsp_begin: of the SPMD section's processes).
// Opening it again replaces the previous one; close it collectively before MPI_Finalize.
void open_failure_channel(MPI_Comm comm);
void close_failure_channel();

}  // namespace bsplib
