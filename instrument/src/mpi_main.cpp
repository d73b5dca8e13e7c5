#include "instrument/mpi_main.hpp"

#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <thread>
#include <vector>

#include "instrument/error.hpp"

namespace instrument {

namespace {

// The error line in one write(2): several writes (a stream's pieces) can be cut or
// interleaved with another rank's when the job is torn down.
void write_line(const std::string& line) {
  const std::string text = line + "\n";
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(STDERR_FILENO, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

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
    std::cout.flush();
    if (rank == 0) write_line(std::string(program) + ": error: " + e.what());
    code = 1;
  } catch (const std::exception& e) {
    // Only this rank knows: the others may be inside a collective, so end them all. MPI_Abort
    // tears the job down at once, and the launcher's forwarding of this process's stderr can
    // lose the line (1 run in 14 here); a moment's pause lets it through first.
    std::cout.flush();
    write_line(std::string(program) + ": error (rank " + std::to_string(rank) + "): " + e.what());
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  MPI_Finalize();
  return code;
}

}  // namespace instrument
