// A program that fails on purpose, to show how run_mpi_main ends every rank:
//   collective  - every rank learns of rank 1's bad input through throw_if_any_rank_failed;
//                 rank 0 prints one line and all ranks exit 1 (no abort, no hang)
//   local       - one rank throws alone while the others wait in a collective: MPI_Abort
//   bad_alloc   - like local, with std::bad_alloc from an allocation that cannot succeed
//   noisy       - like local, while every other rank writes lines to stdout and stderr
//   every_rank  - every rank throws the same error alone (all refuse one size): no abort,
//                 one line, every rank exits 1
//   ok          - exits 0
#include <mpi.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "instrument/error.hpp"
#include "instrument/mpi_main.hpp"

int main(int argc, char** argv) {
  return instrument::run_mpi_main(argc, argv, "error_exit_program", [](int ac, char** av) {
    const std::string mode = ac > 1 ? av[1] : "ok";
    int rank = 0, size = 1;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    const int culprit = size > 1 ? 1 : 0;
    if (mode == "collective") {
      std::string err;
      if (rank == culprit)
        err = instrument::InputError("deck.txt", "line 3", "a positive number for dx, got -1").what();
      instrument::throw_if_any_rank_failed(MPI_COMM_WORLD, err);
    } else if (mode == "local") {
      if (rank == culprit) throw instrument::InputError("out.h5", "", "a writable path");
      MPI_Barrier(MPI_COMM_WORLD);  // the others would wait here forever without the abort
    } else if (mode == "bad_alloc") {
      if (rank == culprit) {
        volatile std::size_t huge = std::size_t{1} << 62;  // volatile: not folded away
        std::vector<char> v(huge);
        std::printf("%d\n", v[0]);
      }
      MPI_Barrier(MPI_COMM_WORLD);
    } else if (mode == "noisy") {
      if (rank == culprit) throw instrument::InputError("out.h5", "", "a writable path");
      for (int i = 0;; ++i) {  // until the abort: text the error line must not be mixed into
        std::printf("rank %d says line %d on stdout\n", rank, i);
        std::fprintf(stderr, "rank %d says line %d on stderr\n", rank, i);
        std::fflush(stdout);
      }
    } else if (mode == "every_rank") {
      throw instrument::InputError("--trace", "", "the trace needs 1 EiB, more than the 8 GiB this process can allocate");
    }
    return 0;
  });
}
