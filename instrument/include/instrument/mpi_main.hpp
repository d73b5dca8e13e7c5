// The shared `main` wrapper of every MPI program in the suite.
//
// Errors come in two kinds. A *collective* error is known to every rank at the same time
// (rank 0 parsed a deck and broadcast the verdict, or an allreduce said some rank failed):
// rank 0 prints one line, every rank finalises and exits 1. Any other exception is local to
// one rank, and the others may be blocked in a collective with it; there MPI_Abort is the
// only way to end every rank without a hang, so the wrapper prints the line and aborts.
#pragma once
#include <mpi.h>

#include <functional>
#include <stdexcept>
#include <string>

namespace instrument {

// Thrown on every rank with the same message: the wrapper prints it once, on rank 0.
class CollectiveError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// All ranks call this with their local verdict; if any rank has an error message, every rank
// throws CollectiveError carrying the message of the lowest such rank.
void throw_if_any_rank_failed(MPI_Comm comm, const std::string& local_error);

// Runs body(argc, argv) between MPI_Init and MPI_Finalize; returns the process exit code.
int run_mpi_main(int argc, char** argv, const char* program,
                 const std::function<int(int, char**)>& body);

}  // namespace instrument
