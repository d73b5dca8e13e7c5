// A one-rank run pinned to one CPU (cpu_pinning.hpp).
#include "instrument/cpu_pinning.hpp"

#include <sched.h>

namespace instrument {

namespace {
int g_pinned_cpu = -1;
}

int pin_one_rank_run(int ranks, int threads) {
  if (ranks != 1 || threads != 1) return -1;
  cpu_set_t mask;
  CPU_ZERO(&mask);
  if (sched_getaffinity(0, sizeof mask, &mask) != 0 || CPU_COUNT(&mask) <= 1) return -1;
  int lowest = -1;
  for (int c = 0; c < CPU_SETSIZE && lowest < 0; ++c)
    if (CPU_ISSET(c, &mask)) lowest = c;
  cpu_set_t one;
  CPU_ZERO(&one);
  CPU_SET(lowest, &one);
  if (sched_setaffinity(0, sizeof one, &one) != 0) return -1;  // a container may refuse: run unpinned
  g_pinned_cpu = lowest;
  return lowest;
}

int pinned_cpu() noexcept { return g_pinned_cpu; }

}  // namespace instrument
