// A program that fails on purpose, to show how run_mpi_main ends every rank:
//   collective  - every rank learns of rank 1's bad input through throw_if_any_rank_failed;
//                 rank 0 prints one line and all ranks exit 1 (no abort, no hang)
//   local       - one rank throws alone while the others wait in a collective: MPI_Abort
//   ok          - exits 0
#include <mpi.h>

#include <cstring>
#include <string>

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
    }
    return 0;
  });
}
