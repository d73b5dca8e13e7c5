// This process's kernel time and page faults (process_usage.hpp).
#include "instrument/process_usage.hpp"

#include <sys/resource.h>

namespace instrument {

namespace {

double seconds(const timeval& t) { return static_cast<double>(t.tv_sec) + 1e-6 * static_cast<double>(t.tv_usec); }

}  // namespace

ProcessUsage process_usage() {
  rusage u{};
  if (getrusage(RUSAGE_SELF, &u) != 0) return {};
  return {seconds(u.ru_stime), seconds(u.ru_utime), u.ru_minflt, u.ru_majflt};
}

}  // namespace instrument
