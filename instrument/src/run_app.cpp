// The suite's program `main` (run_app.hpp).
#include "instrument/run_app.hpp"

#include <mpi.h>

#include <cstdio>
#include <exception>
#include <iostream>

#include "instrument/error.hpp"
#include "instrument/mpi_main.hpp"

namespace instrument {

int run_app(int argc, char** argv, OptionTable& table, const std::function<int()>& body) {
  return run_mpi_main(argc, argv, table.program().c_str(), [&](int c, char** v) {
    if (OptionTable::asks_for_help(c, v)) {
      int rank = 0;
      MPI_Comm_rank(MPI_COMM_WORLD, &rank);
      if (rank == 0) std::cout << table.help() << std::flush;
      return 0;
    }
    try {
      table.read(c, v);
    } catch (const InputError& e) {
      throw CollectiveError(e.what());  // the same argv on every rank: the same verdict
    }
    return body();
  });
}

int run_serial_app(int argc, char** argv, OptionTable& table, const std::function<int()>& body) {
  try {
    if (OptionTable::asks_for_help(argc, argv)) {
      std::cout << table.help() << std::flush;
      return 0;
    }
    table.read(argc, argv);
    return body();
  } catch (const std::exception& e) {
    std::cout.flush();
    std::fflush(stdout);
    std::fprintf(stderr, "%s: error: %s\n", table.program().c_str(), e.what());
    return 1;
  }
}

}  // namespace instrument
