// Catch2 main for MPI tests: every rank runs the whole session; the test fails if any rank
// fails. Rank 0 reports to the console; the other ranks report to a private file that is
// copied to stderr only when that rank failed, so a failure on rank 3 is never silent and
// a pass is not printed four times.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <mpi.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);

  Catch::Session session;
  int failed = session.applyCommandLine(argc, argv) != 0 ? 1 : 0;
  std::string log;
  if (!failed) {
    if (rank != 0) {
      log = "/tmp/catch_mpi_rank" + std::to_string(rank) + "_" + std::to_string(::getpid()) + ".log";
      session.configData().outputFilename = log;
    }
    failed = session.run() != 0 ? 1 : 0;
  }
  if (!log.empty()) {
    if (failed) {
      std::ifstream in(log);
      std::cerr << "---- rank " << rank << " ----\n" << in.rdbuf() << std::flush;
    }
    std::remove(log.c_str());
  }
  int any_failed = 0;
  MPI_Allreduce(&failed, &any_failed, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (rank == 0 && any_failed && !failed) std::cerr << "catch_mpi_main: a rank other than 0 failed\n";
  MPI_Finalize();
  return any_failed;
}
