// hook-overhead: what one instrument hook costs, in ns, to publish beside every figure the
// hooks produce.
//
// A hook is never used alone: it wraps some work. So the cost of a phase scope is measured
// as a program sees it, inside a loop doing a little real work (a dependent chain of kChain
// multiply-adds per iteration, ~40 ns here): each repetition times the loop
// without the scope and the same loop with it, back to back, and the cost is the median over
// repetitions of their difference per iteration. The clock reads are included (the scope
// makes two). Also printed: the clock in use and the cost of one read of it and of
// steady_clock (back-to-back reads), and the scope's cost around shorter and longer work,
// down to none (an empty loop: the upper bound, nothing to overlap the clock reads with).
//
// Usage: hook-overhead [--reps R] [--n N]   (single process; no MPI traffic)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <vector>

#include "instrument/clock.hpp"
#include "instrument/error.hpp"
#include "instrument/option_table.hpp"
#include "instrument/recorder.hpp"
#include "instrument/run_app.hpp"
#include "instrument/statistics.hpp"

using instrument::Recorder;
using instrument::ScopedPhase;

namespace {

constexpr int kChain = 16;  // multiply-adds per iteration of the headline work loop

volatile double sink = 0.0;

// A little real work that the compiler can neither drop nor reorder across iterations: a
// dependent chain of `Chain` multiply-adds (no FMA contraction in this build). Each loop is
// a function of its own (noinline) so that every variant gets the same code around it.
template <int Chain>
inline double work(double x) {
  for (int k = 0; k < Chain; ++k) x = x * 0.999999 + 1e-7;
  return x;
}

template <int Chain>
__attribute__((noinline)) void loop_bare(long n) {
  double x = 1.0;
  for (long i = 0; i < n; ++i) x = work<Chain>(x);
  sink = x;
}

template <int Chain>
__attribute__((noinline)) void loop_scoped(long n, Recorder& rec, instrument::PhaseId p) {
  double x = 1.0;
  for (long i = 0; i < n; ++i) {
    ScopedPhase s(rec, p);
    x = work<Chain>(x);
  }
  sink = x;
}

__attribute__((noinline)) void loop_counted(long n, Recorder& rec, instrument::CounterId c) {
  double x = 1.0;
  for (long i = 0; i < n; ++i) {
    x = work<kChain>(x);
    rec.count(c, i);
  }
  sink = x;
}

double seconds_of(const std::function<void()>& f) {
  const double t0 = instrument::now_seconds();
  f();
  return instrument::now_seconds() - t0;
}

// Median over repetitions of (with - without) per iteration, ns; the two alternate.
double median_extra_ns(int reps, long n, const std::function<void(long)>& without,
                       const std::function<void(long)>& with) {
  std::vector<double> d;
  for (int r = 0; r < reps; ++r) {
    const double a = seconds_of([&] { without(n); });
    const double b = seconds_of([&] { with(n); });
    d.push_back((b - a) * 1e9 / static_cast<double>(n));
  }
  return instrument::median(d);
}

double median_ns_per_op(int reps, long n, const std::function<void(long)>& body) {
  std::vector<double> ns;
  for (int r = 0; r < reps; ++r) ns.push_back(seconds_of([&] { body(n); }) * 1e9 / static_cast<double>(n));
  return instrument::median(ns);
}

}  // namespace

int measure(int reps, long n);

int main(int argc, char** argv) {
  int reps = 21;
  long n = 2'000'000;
  // --reps: medians of up to 10^4 timings; --n: operations per timing, up to 10^10 (tens of
  // seconds of clock reads each). Nothing is allocated by either.
  instrument::OptionTable table("hook-overhead");
  table.notes("What one instrument hook costs, in ns (single process; no MPI traffic).")
      .whole("--reps", "R", reps, 1, 10000, "", "repetitions, the median kept")
      .whole("--n", "N", n, 1, 10000000000, "", "iterations a timing");
  return instrument::run_serial_app(argc, argv, table, [&] { return measure(reps, n); });
}

int measure(int reps, long n) {
  // The reads are summed (unsigned: wrapping is harmless) so that none can be dropped.
  volatile std::uint64_t isink = 0;
  const double tick_read_ns = median_ns_per_op(reps, n, [&](long m) {
    std::uint64_t s = 0;
    for (long i = 0; i < m; ++i) s += static_cast<std::uint64_t>(instrument::now_ticks());
    isink = s;
  });
  const double steady_read_ns = median_ns_per_op(reps, n, [&](long m) {
    std::uint64_t s = 0;
    for (long i = 0; i < m; ++i)
      s += static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count());
    isink = s;
  });

  Recorder plain;
  const auto p = plain.define_phase("p");
  const auto outer = plain.define_phase("outer");
  const auto c = plain.define_counter("c");
  Recorder traced(static_cast<std::size_t>(n));
  const auto tp = traced.define_phase("p");

  const auto bare = [](long m) { loop_bare<kChain>(m); };
  const double loop_ns = median_ns_per_op(reps, n, bare);
  const double scope_ns =
      median_extra_ns(reps, n, bare, [&](long m) { loop_scoped<kChain>(m, plain, p); });
  const double nested_ns = median_extra_ns(reps, n, bare, [&](long m) {
    ScopedPhase o(plain, outer);
    loop_scoped<kChain>(m, plain, p);
  });
  const double traced_ns = median_extra_ns(reps, n, bare, [&](long m) {
    traced.reset();  // keep every event inside the reserved buffer
    loop_scoped<kChain>(m, traced, tp);
  });
  const double counter_ns =
      median_extra_ns(reps, n, bare, [&](long m) { loop_counted(m, plain, c); });
  // The scope's cost depends on how much work its clock reads can overlap with.
  struct Row {
    int chain;
    double loop_ns, scope_ns;
  };
  std::vector<Row> by_work;
  const auto measure = [&]<int Chain>() {
    const auto without = [](long m) { loop_bare<Chain>(m); };
    by_work.push_back(
        Row{Chain, median_ns_per_op(reps, n, without),
            median_extra_ns(reps, n, without, [&](long m) { loop_scoped<Chain>(m, plain, p); })});
  };
  measure.template operator()<0>();
  measure.template operator()<2>();
  measure.template operator()<8>();
  measure.template operator()<32>();
  measure.template operator()<128>();
  const auto source = instrument::clock_source();
  std::printf("hook-overhead (median of %d repetitions of %ld iterations, INSTRUMENT_ENABLED=%d)\n",
              reps, n, INSTRUMENT_ENABLED);
  std::printf("  clock in use: %s%s\n", instrument::clock_source_name(source),
              source == instrument::ClockSource::tsc
                  ? " (invariant TSC: /proc/cpuinfo constant_tsc and nonstop_tsc)"
                  : " (no invariant TSC reported, non-x86, or SUITE_CLOCK=steady)");
#if INSTRUMENT_ENABLED
  const auto& cal = instrument::clock_calibration();
  std::printf("  %-44s %8.4f GHz\n", "tick rate (start calibration)", cal.start_hz * 1e-9);
#endif
  std::printf("  %-44s %8.1f ns\n", "one read of the hooks' clock (now_ticks)", tick_read_ns);
  std::printf("  %-44s %8.1f ns\n", "one read of steady_clock", steady_read_ns);
  std::printf("  %-44s %8.1f ns  (%d dependent mul-adds)\n", "work loop iteration, no hook",
              loop_ns, kChain);
  std::printf("  %-44s %8.1f ns\n", "phase scope around the work (begin+end)", scope_ns);
  std::printf("  %-44s %8.1f ns\n", "  the same nested in another scope", nested_ns);
  std::printf("  %-44s %8.1f ns\n", "  the same with a trace event", traced_ns);
  std::printf("  %-44s %8.2f ns\n", "counter update beside the work", counter_ns);
  std::printf("  phase scope cost by the work it wraps (0: an empty loop, the upper bound):\n");
  std::printf("    %10s %14s %14s\n", "mul-adds", "loop ns/iter", "+scope ns");
  for (const auto& r : by_work)
    std::printf("    %10d %14.1f %14.1f\n", r.chain, r.loop_ns, r.scope_ns);
  (void)isink;
  return 0;
}
