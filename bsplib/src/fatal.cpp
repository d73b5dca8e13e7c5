#include "fatal.hpp"

#include <mpi.h>

#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace bsplib {

void fatal(const char* call, int pid, long superstep, const char* format, ...) {
  char text[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  if (pid >= 0)
    std::fprintf(stderr, "BSP error: %s on process %d in superstep %ld: %s\n", call, pid,
                 superstep, text);
  else
    std::fprintf(stderr, "BSP error: %s: %s\n", call, text);
  std::fflush(stderr);
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  // Give the launcher a moment to forward the line before MPI_Abort tears the job down.
  std::this_thread::sleep_for(std::chrono::milliseconds(100));
  if (initialised && !finalised) MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

}  // namespace bsplib
