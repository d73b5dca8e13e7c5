#include "instrument/mpi_main.hpp"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <exception>
#include <iostream>
#include <new>
#include <thread>
#include <vector>

#include "instrument/error.hpp"

namespace instrument {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How long a rank that failed alone listens for other ranks failing too. Ranks that refuse
// the same input (a size every rank checks) fail within microseconds of one another; a rank
// still computing after this is taken to be blocked, or about to block, on the failed one.
constexpr milliseconds kAgreementWindow{250};
// How long the printing rank waits for the launcher to take its line from the pipe.
constexpr milliseconds kDrainLimit{2000};
// How long a failed rank that does not print waits for the printing rank's abort to end it.
constexpr milliseconds kAbortLimit{10000};
constexpr int kFailedTag = 1;

// The error line in one write(2): several writes (a stream's pieces) can be cut or
// interleaved with another rank's when the job is torn down. One write of at most PIPE_BUF
// bytes to a pipe is atomic.
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

void flush_standard_streams() {
  std::cout.flush();
  std::cerr.flush();
  std::fflush(nullptr);
}

// Waits until the reader of `fd` (the launcher's proxy, under mpiexec) has taken everything
// written to it, so that an abort cannot tear the job down with the line still in the pipe:
// that is how a line was lost (1 run in 20) with a fixed pause. Not a pipe: nothing to wait for.
void wait_until_read(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) return;
  const auto deadline = Clock::now() + kDrainLimit;
  int unread = 0;
  while (::ioctl(fd, FIONREAD, &unread) == 0 && unread > 0 && Clock::now() < deadline)
    std::this_thread::sleep_for(milliseconds(1));
}

// MPI_Abort prints a line of its own ("Abort(1) on node 1 ..."): the promise is one line.
void silence_stderr() {
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null >= 0) ::dup2(null, STDERR_FILENO);
}

// Ends the job after an exception that only this rank knows of (the others may be blocked in
// a collective with it). Every failed rank tells every other on `failures` (a communicator
// of its own, so no message of the program's is matched), then listens for the others for a
// short window:
//  - every rank failed (they refused the same input): none is blocked, so no abort: the
//    lowest prints the one line and all return 1 to finalise and exit 1 by themselves;
//  - else the lowest failed rank it heard of prints the one line, waits until the launcher
//    has read it, and aborts the job; the other failed ranks print nothing and wait for it.
int end_local_failure(MPI_Comm failures, const std::string& program, const std::string& what) {
  flush_standard_streams();
  int rank = 0, size = 1;
  MPI_Comm_rank(failures, &rank);
  MPI_Comm_size(failures, &size);
  std::vector<MPI_Request> sent(static_cast<std::size_t>(size), MPI_REQUEST_NULL);
  for (int q = 0; q < size; ++q)
    if (q != rank) MPI_Isend(&rank, 1, MPI_INT, q, kFailedTag, failures, &sent[static_cast<std::size_t>(q)]);
  int lowest = rank, heard = 0;
  const auto deadline = Clock::now() + kAgreementWindow;
  while (heard < size - 1 && Clock::now() < deadline) {
    int arrived = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, kFailedTag, failures, &arrived, &st);
    if (!arrived) {
      std::this_thread::sleep_for(milliseconds(1));
      continue;
    }
    int who = 0;
    MPI_Recv(&who, 1, MPI_INT, st.MPI_SOURCE, kFailedTag, failures, MPI_STATUS_IGNORE);
    lowest = std::min(lowest, who);
    ++heard;
  }
  if (heard == size - 1) {
    if (rank == lowest) write_line(program + ": error: " + what);
    MPI_Waitall(size, sent.data(), MPI_STATUSES_IGNORE);
    return 1;
  }
  if (rank == lowest) {
    write_line(program + ": error (rank " + std::to_string(rank) + "): " + what);
    wait_until_read(STDOUT_FILENO);
    wait_until_read(STDERR_FILENO);
  } else {
    std::this_thread::sleep_for(kAbortLimit);  // the lowest's abort ends this process first
  }
  silence_stderr();
  MPI_Abort(MPI_COMM_WORLD, 1);
  return 1;
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
  // FUNNELED: sweep3d's kernel, tycho's sweep and multigrid's smoother run OpenMP teams, and
  // the standard asks for this level when threads exist, though only the main thread calls MPI.
  int provided = MPI_THREAD_SINGLE;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm failures = MPI_COMM_NULL;
  MPI_Comm_dup(MPI_COMM_WORLD, &failures);
  int code = 0;
  try {
    code = body(argc, argv);
  } catch (const CollectiveError& e) {
    flush_standard_streams();
    if (rank == 0) write_line(std::string(program) + ": error: " + e.what());
    code = 1;
  } catch (const std::bad_alloc&) {
    code = end_local_failure(failures, program,
                             "out of memory: an allocation failed (std::bad_alloc); the input asks "
                             "for more memory than this process can get");
  } catch (const std::exception& e) {
    code = end_local_failure(failures, program, e.what());
  } catch (...) {
    code = end_local_failure(failures, program, "an exception of unknown type");
  }
  MPI_Comm_free(&failures);
  MPI_Finalize();
  return code;
}

}  // namespace instrument
