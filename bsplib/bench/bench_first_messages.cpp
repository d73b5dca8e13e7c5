// The MPI transport's first-use cost, without the library: P processes (run it with 2)
// exchange a message with a neighbour 200 times in a row, for a 64-byte and a 2088-byte
// message (a superstep header with a 2 KiB inline stream), each size in a fresh buffer, and
// process 0 prints the mean exchange time of each block of 20. With MPICH over UCX the first
// exchanges are 30-40 times slower until UCX's shared-memory FIFO (UCX_MM_FIFO_SIZE
// elements, 64 by default) has been used once through (bsplib/src/warm_up.cpp). Try it with
// UCX_MM_FIFO_SIZE=16 or 256.
// Usage: mpiexec -n 2 bench_first_messages
#include <mpi.h>

#include <cstdio>
#include <vector>

#include "bench_options.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/run_app.hpp"

namespace {

// At p = 1 the "neighbour" is the process itself: no transport is used, so it is refused.
int run() {
  bsplib_bench::require_processes(2, "it times messages between neighbours");
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const int right = (rank + 1) % size, left = (rank + size - 1) % size;
  constexpr int exchanges = 200, block = 20;
  if (rank == 0)
    std::printf("first exchanges with a neighbour, p = %d (mean per block of %d, us)\n%9s",
                size, block, "bytes");
  if (rank == 0)
    for (int b = 0; b < exchanges; b += block) std::printf(" %4d-%-4d", b, b + block - 1);
  if (rank == 0) std::printf("\n");
  for (int bytes : {64, 2088}) {
    std::vector<char> out(static_cast<std::size_t>(bytes), 1), in(out.size());
    std::vector<double> t(exchanges);
    MPI_Barrier(MPI_COMM_WORLD);
    for (int i = 0; i < exchanges; ++i) {
      const double t0 = MPI_Wtime();
      MPI_Request req[2];
      MPI_Irecv(in.data(), bytes, MPI_BYTE, left, 7, MPI_COMM_WORLD, &req[0]);
      MPI_Isend(out.data(), bytes, MPI_BYTE, right, 7, MPI_COMM_WORLD, &req[1]);
      MPI_Waitall(2, req, MPI_STATUSES_IGNORE);
      t[static_cast<std::size_t>(i)] = MPI_Wtime() - t0;
    }
    if (rank == 0) {
      std::printf("%9d", bytes);
      for (int b = 0; b < exchanges; b += block) {
        double sum = 0;
        for (int i = b; i < b + block; ++i) sum += t[static_cast<std::size_t>(i)];
        std::printf(" %9.2f", sum / block * 1e6);
      }
      std::printf("\n");
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  instrument::OptionTable table("bench_first_messages", "mpiexec -n 2 bench_first_messages");
  table.notes("The MPI transport's first-use cost: 200 exchanges with a neighbour, by blocks of 20.");
  return instrument::run_app(argc, argv, table, [] { return run(); });
}
