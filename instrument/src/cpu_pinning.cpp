// A one-rank run pinned to one CPU (cpu_pinning.hpp).
#include "instrument/cpu_pinning.hpp"

#include <fcntl.h>
#include <sched.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <string>
#include <vector>

#include "instrument/error.hpp"

namespace instrument {

namespace {
int g_pinned_cpu = -1;

std::string lock_dir() {
  for (const char* name : {"SUITE_CPU_LOCK_DIR", "TMPDIR"})
    if (const char* d = std::getenv(name); d && *d) return d;
  return "/tmp";
}

// Claims CPU c for this process's lifetime: an exclusive, non-blocking flock on a per-CPU file
// that the kernel releases when the process ends (however it ends). The descriptor is kept
// open on purpose; close-on-exec keeps children from holding the claim.
bool claim(int c) {
  const std::string path = lock_dir() + "/hpc-perfmodel-suite-cpu" + std::to_string(c) + ".lock";
  const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0666);
  if (fd < 0) return false;
  (void)::fchmod(fd, 0666);  // another user's run may claim the same CPU later (umask)
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return false;
  }
  return true;
}
}  // namespace

int pin_one_rank_run(int ranks, int threads) {
  if (ranks != 1 || threads != 1) return -1;
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0 || CPU_COUNT(&mask) <= 1) return -1;
  std::vector<int> cpus;
  for (int c = 0; c < CPU_SETSIZE; ++c)
    if (CPU_ISSET(c, &mask)) cpus.push_back(c);
  // The lowest CPU no other pinned suite run holds: a lone run always lands on the same CPU,
  // and one-rank runs started side by side (ctest -j, a job array on one node) spread over
  // the CPUs instead of sharing the lowest. When every CPU is held, the lowest.
  int chosen = cpus.front();
  for (int c : cpus)
    if (claim(c)) {
      chosen = c;
      break;
    }
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(chosen, &one);
  if (sched_setaffinity(0, sizeof one, &one) != 0) return -1;  // a container may refuse: run unpinned
  g_pinned_cpu = chosen;
  return chosen;
}

int pin_one_rank_run_to(int cpu, int ranks, int threads) {
  if (ranks != 1)
    throw InputError("command line", "--pin-cpu",
                     "expected a one-rank run (" + std::to_string(ranks) + " ranks: the launcher binds them)");
  if (threads != 1)
    throw InputError("command line", "--pin-cpu",
                     "expected one thread (" + std::to_string(threads) + " asked: one CPU would serialise them)");
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(cpu, &one);
  if (sched_setaffinity(0, sizeof one, &one) != 0)
    throw InputError("command line", "--pin-cpu",
                     "expected a CPU this process may run on; CPU " + std::to_string(cpu) +
                         " is refused (not online, or outside its cpuset)");
  (void)claim(cpu);  // a run pinned by default side by side passes it over where it can
  g_pinned_cpu = cpu;
  return cpu;
}

int pinned_cpu() noexcept { return g_pinned_cpu; }

}  // namespace instrument
