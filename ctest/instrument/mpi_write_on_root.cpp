// write_on_root (write_on_root.hpp): the write runs on the root only, its exception reaches the
// root only, and a termination signal that reaches a waiting rank is acted on after the write
// (or 5 s after it came, if the write takes longer), with the rank's own earlier action; an
// ignored signal stays ignored. The signal cases need a second rank on the root's host (the
// root signals it by pid); at 1 rank they check that the write runs and nothing is deferred.
#include <catch2/catch.hpp>
#include <mpi.h>
#include <signal.h>
#include <time.h>
#include <unistd.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <vector>

#include "instrument/write_on_root.hpp"

using instrument::write_on_root;

namespace {

double now_s() {
  struct timespec t {};
  clock_gettime(CLOCK_MONOTONIC, &t);  // async-signal-safe, the same clock on every rank of a host
  return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

std::atomic<int> g_handled{0};
std::atomic<double> g_handled_at{0.0};

extern "C" void note_signal(int) {
  g_handled.fetch_add(1);
  g_handled_at.store(now_s());
}

int rank_of(MPI_Comm comm) {
  int r = 0;
  MPI_Comm_rank(comm, &r);
  return r;
}

int size_of(MPI_Comm comm) {
  int n = 1;
  MPI_Comm_size(comm, &n);
  return n;
}

// Every rank's pid, on every rank (ctest runs every rank on one host).
std::vector<int> pids(MPI_Comm comm) {
  std::vector<int> all(static_cast<std::size_t>(size_of(comm)));
  int mine = static_cast<int>(::getpid());
  MPI_Allgather(&mine, 1, MPI_INT, all.data(), 1, MPI_INT, comm);
  return all;
}

// Installs note_signal for `sig` (a program's own handler) until destroyed.
struct OwnHandler {
  int sig;
  struct sigaction earlier {};
  explicit OwnHandler(int s) : sig(s) {
    struct sigaction sa {};
    sa.sa_handler = note_signal;
    sigemptyset(&sa.sa_mask);
    ::sigaction(sig, &sa, &earlier);
    g_handled = 0;
    g_handled_at = 0.0;
  }
  ~OwnHandler() { ::sigaction(sig, &earlier, nullptr); }
};

// Rank 0 writes for `seconds`, having sent `sig` to rank 1 first; returns when rank 0's write
// ended (MONOTONIC seconds), on every rank.
double write_while_rank1_is_signalled(int sig, double seconds) {
  const std::vector<int> pid = pids(MPI_COMM_WORLD);
  double ended = 0.0;
  write_on_root(MPI_COMM_WORLD, 0, [&] {
    if (pid.size() > 1) ::kill(pid[1], sig);
    const struct timespec pause = {static_cast<time_t>(seconds),
                                   static_cast<long>((seconds - static_cast<long>(seconds)) * 1e9)};
    ::nanosleep(&pause, nullptr);
    ended = now_s();
  });
  MPI_Bcast(&ended, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return ended;
}

}  // namespace

TEST_CASE("the write runs on the root only, and its exception reaches the root only") {
  const int rank = rank_of(MPI_COMM_WORLD);
  int runs = 0;
  write_on_root(MPI_COMM_WORLD, 0, [&] { ++runs; });
  CHECK(runs == (rank == 0 ? 1 : 0));
  int total = 0;
  MPI_Allreduce(&runs, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(total == 1);

  const int last = size_of(MPI_COMM_WORLD) - 1;
  auto fail = [] { throw std::runtime_error("disk full"); };
  if (rank == last)
    CHECK_THROWS_WITH(write_on_root(MPI_COMM_WORLD, last, fail), "disk full");
  else
    CHECK_NOTHROW(write_on_root(MPI_COMM_WORLD, last, fail));
}

TEST_CASE("a waiting rank acts on SIGTERM after the write, with its own handler") {
  const OwnHandler own(SIGTERM);
  const double ended = write_while_rank1_is_signalled(SIGTERM, 0.3);
  if (rank_of(MPI_COMM_WORLD) == 1) {
    CHECK(g_handled == 1);
    CHECK(g_handled_at >= ended);  // not during the write
  } else {
    CHECK(g_handled == 0);
  }
  // The handler is back: a signal now is acted on at once.
  ::raise(SIGTERM);
  CHECK(g_handled == (rank_of(MPI_COMM_WORLD) == 1 ? 2 : 1));
}

TEST_CASE("a waiting rank acts on its signal 5 s after it came when the write is stuck") {
  if (size_of(MPI_COMM_WORLD) == 1) {
    // Nothing to defer at 1 rank: the write simply runs for its time.
    const double start = now_s();
    CHECK(write_while_rank1_is_signalled(SIGINT, 0.2) - start >= 0.2);
    return;
  }
  const OwnHandler own(SIGINT);
  const double start = now_s();
  const double ended = write_while_rank1_is_signalled(SIGINT, 6.5);
  if (rank_of(MPI_COMM_WORLD) == 1) {
    CHECK(g_handled == 1);
    CHECK(g_handled_at - start >= 4.9);
    CHECK(g_handled_at < ended);  // before the writer was done
  }
}

TEST_CASE("an ignored signal stays ignored") {
  struct sigaction ignore {}, earlier {}, after {};
  ignore.sa_handler = SIG_IGN;
  sigemptyset(&ignore.sa_mask);
  ::sigaction(SIGHUP, &ignore, &earlier);
  write_while_rank1_is_signalled(SIGHUP, 0.2);  // would end rank 1 if it were not ignored
  ::sigaction(SIGHUP, &earlier, &after);
  CHECK(after.sa_handler == SIG_IGN);
  int alive = 1, all = 0;
  MPI_Allreduce(&alive, &all, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
  CHECK(all == size_of(MPI_COMM_WORLD));
}
