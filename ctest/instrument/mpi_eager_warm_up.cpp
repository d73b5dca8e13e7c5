// The transport warm-up shared by the probes and bsp_begin (instrument/transport/): its sizes,
// its reading of UCX's environment, and that processes whose environments differ agree on
// the rounds and sizes (else the exchanges would not match: a hang or a truncation error).
#include <catch2/catch.hpp>
#include <mpi.h>

#include <cstdlib>
#include <vector>

#include "eager_warm_up.hpp"

using suite_transport::eager_warm_up_bytes;
using suite_transport::eager_warm_up_rounds;
using suite_transport::eager_warm_up_sizes;

TEST_CASE("the sizes: the element, then the three 2^k - 1 below it", "[eager_warm_up]") {
  CHECK(eager_warm_up_sizes(7936, 0, 1 << 20) == std::vector<long>{7936, 4095, 2047, 1023});
  // bsp_begin's header message is larger than UCX's default element: first.
  CHECK(eager_warm_up_sizes(7936, 8192, 1 << 20) ==
        std::vector<long>{8192, 7936, 4095, 2047, 1023});
  CHECK(eager_warm_up_sizes(16128, 0, 1 << 20) == std::vector<long>{16128, 8191, 4095, 2047});
  // None above max_bytes.
  CHECK(eager_warm_up_sizes(7936, 0, 3000) == std::vector<long>{3000, 2047, 1023, 511});
  CHECK(eager_warm_up_sizes(7936, 0, 0).empty());
}

TEST_CASE("UCX's FIFO size and element size are read from the environment", "[eager_warm_up]") {
  ::unsetenv("UCX_MM_FIFO_SIZE");
  ::unsetenv("UCX_MM_SEG_SIZE");
  CHECK(eager_warm_up_rounds() == 64 + 8);
  CHECK(eager_warm_up_bytes() == 8192 - 256);
  ::setenv("UCX_MM_FIFO_SIZE", "256", 1);
  ::setenv("UCX_MM_SEG_SIZE", "16k", 1);
  CHECK(eager_warm_up_rounds() == 256 + 8);
  CHECK(eager_warm_up_bytes() == 16384 - 256);
  ::setenv("UCX_MM_SEG_SIZE", "1m", 1);
  CHECK(eager_warm_up_bytes() == (1 << 20) - 256);
  // Unreadable or out of range: UCX's defaults.
  ::setenv("UCX_MM_FIFO_SIZE", "many", 1);
  ::setenv("UCX_MM_SEG_SIZE", "2g", 1);
  CHECK(eager_warm_up_rounds() == 64 + 8);
  CHECK(eager_warm_up_bytes() == 8192 - 256);
  ::setenv("UCX_MM_SEG_SIZE", "512", 1);
  CHECK(eager_warm_up_bytes() == 8192 - 256);
  ::unsetenv("UCX_MM_FIFO_SIZE");
  ::unsetenv("UCX_MM_SEG_SIZE");
}

TEST_CASE("processes with different environments agree on rounds and sizes", "[eager_warm_up]") {
  int rank = 0, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  // Set after MPI_Init: UCX has read its own; only the warm-up reads these.
  ::setenv("UCX_MM_FIFO_SIZE", rank == 0 ? "16" : "40", 1);
  ::setenv("UCX_MM_SEG_SIZE", rank == 0 ? "4k" : "8k", 1);
  const long sent = suite_transport::warm_up_eager_buffers(MPI_COMM_WORLD, 91, 0, 1 << 20);
  ::unsetenv("UCX_MM_FIFO_SIZE");
  ::unsetenv("UCX_MM_SEG_SIZE");
  // Alone, nothing to warm; else 40 + 8 rounds at 7936, 4095, 2047, 1023 bytes to each other
  // process (a single process's 16 and 4 KiB would have been fewer).
  CHECK(sent == (n == 1 ? 0 : 48L * 4 * (n - 1)));
  // The communicator is left clean: no message of the warm-up's tag is pending.
  int pending = 1;
  MPI_Iprobe(MPI_ANY_SOURCE, 91, MPI_COMM_WORLD, &pending, MPI_STATUS_IGNORE);
  CHECK(pending == 0);
}
