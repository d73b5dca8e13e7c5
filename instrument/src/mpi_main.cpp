#include "instrument/mpi_main.hpp"

#include <cstdio>
#include <exception>
#include <iostream>
#include <vector>

#include "instrument/error.hpp"

namespace instrument {

void throw_if_any_rank_failed(MPI_Comm comm, const std::string& local_error) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // The lowest failing rank speaks for all.
  int mine = local_error.empty() ? size : rank;
  int first = size;
  MPI_Allreduce(&mine, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == size) return;
  int len = rank == first ? static_cast<int>(local_error.size()) : 0;
  MPI_Bcast(&len, 1, MPI_INT, first, comm);
  std::string msg = rank == first ? local_error : std::string(static_cast<std::size_t>(len), ' ');
  MPI_Bcast(msg.data(), len, MPI_CHAR, first, comm);
  throw CollectiveError(msg);
}

int run_mpi_main(int argc, char** argv, const char* program,
                 const std::function<int(int, char**)>& body) {
  MPI_Init(&argc, &argv);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  int code = 0;
  try {
    code = body(argc, argv);
  } catch (const CollectiveError& e) {
    if (rank == 0) std::cerr << program << ": error: " << e.what() << std::endl;
    code = 1;
  } catch (const std::exception& e) {
    // Only this rank knows: the others may be inside a collective, so end them all.
    std::cerr << program << ": error (rank " << rank << "): " << e.what() << std::endl;
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return code;
}

}  // namespace instrument
