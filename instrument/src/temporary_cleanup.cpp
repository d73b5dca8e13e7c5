// Temporaries removed on the way out of a signal or std::exit (temporary_cleanup.hpp).
#include "temporary_cleanup.hpp"

#include <signal.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <mutex>

namespace instrument::temporary_cleanup {

namespace {

// A process writes one or two outputs at a time (results file, trace); 16 is ample.
constexpr int kSlots = 16;

enum State : int { kFree = 0, kBusy = 1, kArmed = 2 };

// Process-wide by necessity: a signal handler can reach nothing else. Lock-free atomics
// only, so the handler never waits on a lock the interrupted code holds.
struct Slot {
  std::atomic<int> state{kFree};
  pid_t owner = 0;  // a forked child inherits the slots: only the owner removes the file
  char path[PATH_MAX] = {};
};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slots");
Slot g_slots[kSlots];

constexpr int kSignals[] = {SIGHUP, SIGINT, SIGQUIT, SIGTERM, SIGABRT, SIGXCPU, SIGXFSZ};

// Async-signal-safe: atomic loads, getpid, unlink.
void remove_armed() {
  const pid_t self = ::getpid();
  for (Slot& s : g_slots)
    if (s.state.load(std::memory_order_acquire) == kArmed && s.owner == self) ::unlink(s.path);
}

extern "C" void remove_armed_then_resignal(int sig) {
  const int saved = errno;
  remove_armed();
  errno = saved;
  // SA_RESETHAND restored the default action on entry: the signal, pending until this
  // handler returns, then ends the process as it would have without us.
  ::raise(sig);
}

extern "C" void remove_armed_at_exit() { remove_armed(); }

void install_once() {
  static std::once_flag once;
  std::call_once(once, [] {
    for (int sig : kSignals) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler != SIG_DFL ||
          (old.sa_flags & SA_SIGINFO) != 0)
        continue;  // ignored or handled by the program (or a library): not ours to change
      struct sigaction sa {};
      sa.sa_handler = remove_armed_then_resignal;
      sigemptyset(&sa.sa_mask);
      sa.sa_flags = SA_RESETHAND;
      ::sigaction(sig, &sa, nullptr);
    }
    std::atexit(remove_armed_at_exit);
  });
}

}  // namespace

int remember(const std::string& path) {
  if (path.size() >= sizeof(Slot::path)) return -1;
  install_once();
  for (int i = 0; i < kSlots; ++i) {
    Slot& s = g_slots[i];
    int expected = kFree;
    if (!s.state.compare_exchange_strong(expected, kBusy, std::memory_order_acq_rel)) continue;
    s.owner = ::getpid();
    std::memcpy(s.path, path.c_str(), path.size() + 1);
    s.state.store(kArmed, std::memory_order_release);
    return i;
  }
  return -1;
}

void forget(int slot) {
  if (slot < 0 || slot >= kSlots) return;
  g_slots[slot].state.store(kFree, std::memory_order_release);
}

}  // namespace instrument::temporary_cleanup
