// One rank writes, the others wait with termination signals deferred (write_on_root.hpp).
#include "instrument/write_on_root.hpp"

#include <signal.h>
#include <time.h>

#include <atomic>
#include <chrono>
#include <exception>
#include <optional>

namespace instrument {

namespace {

// The signals a launcher or batch system sends to end a job, that a waiting rank defers.
// Not SIGABRT and SIGXFSZ: they come from the rank itself (abort, a write past the limit).
constexpr int kDeferredSignals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGXCPU};
constexpr int kNumDeferred = sizeof(kDeferredSignals) / sizeof(kDeferredSignals[0]);

// How long a waiting rank defers a signal for a writer that does not finish.
constexpr std::chrono::seconds kLongestDeferral{5};

// The first deferred signal, 0 for none. Process-wide: a signal handler reaches nothing
// else. A lock-free atomic, so the handler never waits.
std::atomic<int> g_first_signal{0};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler writes it");

extern "C" void record_termination_signal(int sig) {
  int none = 0;
  g_first_signal.compare_exchange_strong(none, sig);
}

// While it lives, kDeferredSignals are recorded instead of acted on (those the process
// ignores stay ignored); release() puts the earlier actions back and then acts on the first
// recorded signal with them: the process ends as it would have, only later.
class TerminationDeferral {
 public:
  TerminationDeferral() {
    g_first_signal.store(0);
    struct sigaction record {};
    record.sa_handler = record_termination_signal;
    sigfillset(&record.sa_mask);
    record.sa_flags = SA_RESTART;  // MPI's system calls go on undisturbed
    for (int i = 0; i < kNumDeferred; ++i) {
      struct sigaction& old = earlier_[i];
      if (::sigaction(kDeferredSignals[i], nullptr, &old) != 0) continue;
      if ((old.sa_flags & SA_SIGINFO) == 0 && old.sa_handler == SIG_IGN) continue;
      installed_[i] = ::sigaction(kDeferredSignals[i], &record, nullptr) == 0;
    }
  }
  ~TerminationDeferral() { release(); }
  TerminationDeferral(const TerminationDeferral&) = delete;
  TerminationDeferral& operator=(const TerminationDeferral&) = delete;

  bool signalled() const { return g_first_signal.load() != 0; }

  void release() {
    for (int i = 0; i < kNumDeferred; ++i)
      if (installed_[i]) ::sigaction(kDeferredSignals[i], &earlier_[i], nullptr);
    for (bool& b : installed_) b = false;
    // A signal arriving from here on meets the earlier action directly.
    const int sig = g_first_signal.exchange(0);
    if (sig != 0) ::raise(sig);
  }

 private:
  struct sigaction earlier_[kNumDeferred] = {};
  bool installed_[kNumDeferred] = {};
};

// Until `done` completes, or until a deferred signal has waited kLongestDeferral.
void wait_for_writer(MPI_Request& done, TerminationDeferral& deferral) {
  using Clock = std::chrono::steady_clock;
  std::optional<Clock::time_point> signalled_at;
  const struct timespec pause = {0, 1000000};  // 1 ms
  for (;;) {
    int finished = 0;
    MPI_Test(&done, &finished, MPI_STATUS_IGNORE);
    if (finished) return;
    if (deferral.signalled()) {
      const Clock::time_point now = Clock::now();
      if (!signalled_at) signalled_at = now;
      if (now - *signalled_at >= kLongestDeferral) break;
    }
    ::nanosleep(&pause, nullptr);
  }
  deferral.release();  // the writer is stuck: act on the signal now
  MPI_Wait(&done, MPI_STATUS_IGNORE);  // reached when the earlier action lets the rank go on
}

}  // namespace

void write_on_root(MPI_Comm comm, int root, const std::function<void()>& write) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  if (rank == root) {
    MPI_Barrier(comm);  // from here on every other rank defers
    std::exception_ptr failure;
    try {
      write();
    } catch (...) {
      failure = std::current_exception();
    }
    MPI_Request done = MPI_REQUEST_NULL;  // nonblocking on every rank: they must match
    MPI_Ibarrier(comm, &done);
    MPI_Wait(&done, MPI_STATUS_IGNORE);
    if (failure) std::rethrow_exception(failure);
    return;
  }
  TerminationDeferral deferral;
  MPI_Barrier(comm);
  MPI_Request done = MPI_REQUEST_NULL;
  MPI_Ibarrier(comm, &done);
  wait_for_writer(done, deferral);
}  // ~TerminationDeferral: the first deferred signal, if any, is acted on here

}  // namespace instrument
