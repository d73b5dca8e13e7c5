#include "fatal.hpp"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace bsplib {

namespace {

using Clock = std::chrono::steady_clock;
using std::chrono::milliseconds;

// How long a failed process listens for others failing too. Processes that refuse the same
// argument fail within microseconds of one another; one still running after this is taken
// to be blocked, or about to block, on the failed one.
constexpr milliseconds kAgreementWindow{250};
// How long the printing process waits for the launcher to take its line from the pipe.
constexpr milliseconds kDrainLimit{2000};
// How long a failed process that does not print waits for the printing one's abort.
constexpr milliseconds kAbortLimit{10000};
constexpr int kFailedTag = 1;

MPI_Comm g_channel = MPI_COMM_NULL;
bool g_channel_is_world = false;  // opened before bsp_begin: no process holds library state
std::atomic<bool> g_ending{false};

bool mpi_usable() {
  int initialised = 0, finalised = 0;
  MPI_Initialized(&initialised);
  MPI_Finalized(&finalised);
  return initialised && !finalised;
}

// The line in one write(2): a stream's several writes can be cut or interleaved with another
// process's output when the job is torn down; one write of at most PIPE_BUF bytes to a pipe
// is atomic.
void write_line(const char* line) {
  std::size_t done = 0;
  const std::size_t size = std::strlen(line);
  while (done < size) {
    const ssize_t n = ::write(STDERR_FILENO, line + done, size - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
}

// Waits until the reader of `fd` (the launcher's proxy) has taken everything written to it,
// so that the abort cannot end the job with the line still in the pipe (a fixed pause lost
// it now and then). Not a pipe: nothing to wait for.
void wait_until_read(int fd) {
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISFIFO(st.st_mode)) return;
  const auto deadline = Clock::now() + kDrainLimit;
  int unread = 0;
  while (::ioctl(fd, FIONREAD, &unread) == 0 && unread > 0 && Clock::now() < deadline)
    std::this_thread::sleep_for(milliseconds(1));
}

// MPICH's MPI_Abort prints a line of its own ("Abort(1) on node 0 (rank 0 in comm 0):
// application called MPI_Abort ..."); the promise is one line.
void silence_stderr() {
  const int null = ::open("/dev/null", O_WRONLY | O_CLOEXEC);
  if (null >= 0) ::dup2(null, STDERR_FILENO);
}

struct Agreement {
  bool print;       // this process is the lowest failed one it heard of
  bool all_failed;  // every process of the channel failed
};

// Tells every other process of the channel that this one failed, then listens for the
// others for a short window.
Agreement agree_on_failure() {
  if (g_channel == MPI_COMM_NULL || !mpi_usable()) return {true, false};
  int rank = 0, size = 1;
  MPI_Comm_rank(g_channel, &rank);
  MPI_Comm_size(g_channel, &size);
  std::vector<MPI_Request> sent(static_cast<std::size_t>(size), MPI_REQUEST_NULL);
  for (int q = 0; q < size; ++q)
    if (q != rank)
      MPI_Isend(&rank, 1, MPI_INT, q, kFailedTag, g_channel, &sent[static_cast<std::size_t>(q)]);
  int lowest = rank, heard = 0;
  const auto deadline = Clock::now() + kAgreementWindow;
  while (heard < size - 1 && Clock::now() < deadline) {
    int arrived = 0;
    MPI_Status st;
    MPI_Iprobe(MPI_ANY_SOURCE, kFailedTag, g_channel, &arrived, &st);
    if (!arrived) {
      std::this_thread::sleep_for(milliseconds(1));
      continue;
    }
    int who = 0;
    MPI_Recv(&who, 1, MPI_INT, st.MPI_SOURCE, kFailedTag, g_channel, MPI_STATUS_IGNORE);
    if (who < lowest) lowest = who;
    ++heard;
  }
  const bool all = heard == size - 1;
  if (all) MPI_Waitall(size, sent.data(), MPI_STATUSES_IGNORE);
  return {rank == lowest, all};
}

}  // namespace

void open_failure_channel(MPI_Comm comm) {
  close_failure_channel();
  MPI_Comm_dup(comm, &g_channel);
  g_channel_is_world = comm == MPI_COMM_WORLD;
}

void close_failure_channel() {
  if (g_channel != MPI_COMM_NULL) MPI_Comm_free(&g_channel);
  g_channel_is_world = false;
}

void fatal(const char* call, int pid, long superstep, const char* format, ...) {
  char text[1024];
  va_list args;
  va_start(args, format);
  std::vsnprintf(text, sizeof text, format, args);
  va_end(args);
  char line[1200];
  if (pid >= 0)
    std::snprintf(line, sizeof line, "BSP error: %s on process %d in superstep %ld: %s", call,
                  pid, superstep, text);
  else
    std::snprintf(line, sizeof line, "BSP error: %s: %s", call, text);
  fatal_line(line);
}

void fatal_line(const char* text) {
  // A second failure while ending (MPI_Abort runs exit handlers, one of which reports a
  // process leaving inside bsp_begin/bsp_end): the first is the one reported.
  if (g_ending.exchange(true)) std::_Exit(1);
  // bsp_abort("...\n") is common: the line ends here, whatever the text ends with.
  char line[1200];
  std::snprintf(line, sizeof line - 1, "%s", text);
  std::size_t n = std::strlen(line);
  while (n > 0 && (line[n - 1] == '\n' || line[n - 1] == '\r')) line[--n] = '\0';
  line[n] = '\n';
  line[n + 1] = '\0';
  std::fflush(nullptr);
  const Agreement agreed = agree_on_failure();
  if (agreed.print) write_line(line);
  if (!mpi_usable()) std::_Exit(1);
  int world = 0;
  MPI_Comm_size(MPI_COMM_WORLD, &world);
  if ((agreed.all_failed && g_channel_is_world) || world == 1) {
    // Before bsp_begin and every process failed: none is blocked, none holds library state.
    // Or this is the only process: there is no other to end, and at p = 1 MPICH's MPI_Abort
    // exits at once, racing the launcher's abort handling (now and then mpiexec printed its
    // "BAD TERMINATION" banner on stdout).
    close_failure_channel();
    MPI_Finalize();
    std::_Exit(1);
  }
  if (agreed.print) {
    wait_until_read(STDOUT_FILENO);
    wait_until_read(STDERR_FILENO);
  } else {
    std::this_thread::sleep_for(kAbortLimit);  // the printing process's abort ends this one
  }
  silence_stderr();
  MPI_Abort(MPI_COMM_WORLD, 1);
  std::_Exit(1);
}

}  // namespace bsplib
