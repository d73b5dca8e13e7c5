// hook-overhead: what one instrument hook costs, in ns, to publish beside every figure the
// hooks produce. Prints the median over repetitions of: one clock read, one empty phase
// scope (two clock reads + bookkeeping), one scope with tracing on, one counter update.
// Usage: hook-overhead [--reps R] [--n N]   (single process; no MPI traffic)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "instrument/recorder.hpp"

using instrument::Recorder;
using instrument::ScopedPhase;

namespace {

template <class F>
double median_ns_per_op(int reps, long n, F&& body) {
  std::vector<double> ns;
  for (int r = 0; r < reps; ++r) {
    const double t0 = instrument::now_seconds();
    body(n);
    const double t1 = instrument::now_seconds();
    ns.push_back((t1 - t0) * 1e9 / static_cast<double>(n));
  }
  std::sort(ns.begin(), ns.end());
  return ns[ns.size() / 2];
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 21;
  long n = 2'000'000;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--reps")) reps = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--n")) n = std::atol(argv[i + 1]);
  }
  if (reps < 1 || n < 1) {
    std::fprintf(stderr, "hook-overhead: --reps and --n must be positive\n");
    return 1;
  }

  volatile double sink = 0.0;
  const double clock_ns = median_ns_per_op(reps, n, [&](long m) {
    double s = 0.0;
    for (long i = 0; i < m; ++i) s += instrument::now_seconds();
    sink = s;
  });

  Recorder plain;
  const auto p = plain.define_phase("p");
  const auto c = plain.define_counter("c");
  const double scope_ns = median_ns_per_op(reps, n, [&](long m) {
    for (long i = 0; i < m; ++i) ScopedPhase s(plain, p);
  });
  const double nested_ns = median_ns_per_op(reps, n, [&](long m) {
    ScopedPhase outer(plain, plain.define_phase("outer"));
    for (long i = 0; i < m; ++i) ScopedPhase s(plain, p);
  });
  const double counter_ns = median_ns_per_op(reps, n * 10, [&](long m) {
    for (long i = 0; i < m; ++i) plain.count(c, i);
  });

  Recorder traced(static_cast<std::size_t>(n));
  const auto tp = traced.define_phase("p");
  const double traced_ns = median_ns_per_op(reps, n, [&](long m) {
    traced.reset();  // keep every event inside the reserved buffer
    for (long i = 0; i < m; ++i) ScopedPhase s(traced, tp);
  });

  std::printf("hook-overhead (median of %d repetitions of %ld operations, INSTRUMENT_ENABLED=%d)\n",
              reps, n, INSTRUMENT_ENABLED);
  std::printf("  %-38s %8.1f ns\n", "clock read (steady_clock)", clock_ns);
  std::printf("  %-38s %8.1f ns  (= %.2f clock reads)\n", "phase scope, begin+end", scope_ns,
              scope_ns / clock_ns);
  std::printf("  %-38s %8.1f ns\n", "phase scope nested in another", nested_ns);
  std::printf("  %-38s %8.1f ns\n", "phase scope with trace event", traced_ns);
  std::printf("  %-38s %8.2f ns\n", "counter update", counter_ns);
  std::printf("  %-38s %8.1f ns\n", "scope cost beyond its two clock reads", scope_ns - 2 * clock_ns);
  (void)sink;
  return 0;
}
