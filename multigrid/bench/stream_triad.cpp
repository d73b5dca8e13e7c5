// stream_triad: the memory bandwidth a streaming loop gets on this machine, STREAM's triad
// a[i] = b[i] + s c[i] over three arrays of doubles far larger than the caches, so that the
// smoother benchmark (multigrid_smoother_bench --stream-gbs) can say how close its cell loop
// comes to the memory bound.
//
// Bytes are counted as STREAM counts them, 24 per element (read b, read c, write a). A cache
// that allocates on write first reads a's line from memory, so the traffic the memory really
// carries is 32 B per element; both figures are printed, the second "with write-allocate".
// Printed: best and median over the repetitions (each timed alone).
//
// Usage: stream_triad [--n N] [--reps R] [--threads T]
// Defaults: N = 2^25 elements per array (768 MiB in all), 20 repetitions, one thread (no
// OpenMP team at all); T > 1 runs every loop as an OpenMP static parallel for.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <new>
#include <string>
#include <vector>

#include "instrument/clock.hpp"
#include "instrument/error.hpp"
#include "instrument/option_table.hpp"
#include "instrument/run_app.hpp"
#include "instrument/statistics.hpp"

namespace {

constexpr double kScalar = 3.0;

struct FreeDeleter {
  void operator()(double* p) const noexcept { std::free(p); }
};
using Array = std::unique_ptr<double[], FreeDeleter>;

// Not zeroed here: the OS places a page in the memory nearest the thread that first writes
// it, and that must be the thread that streams it in the triad.
Array allocate(std::size_t n) {
  const std::size_t bytes = (n * sizeof(double) + 63) / 64 * 64;
  auto* p = static_cast<double*>(std::aligned_alloc(64, bytes));
  if (!p) throw std::bad_alloc();
  return Array(p);
}

// The initialisation and the triad both go through here, so with T threads each thread
// touches first exactly the elements it later streams (schedule(static) splits [0, n) the
// same way for the same n and T).
template <class Body>
void for_each_index(std::int64_t n, int threads, Body body) {
  if (threads == 1) {
    for (std::int64_t i = 0; i < n; ++i) body(i);
    return;
  }
#pragma omp parallel for schedule(static) num_threads(threads)
  for (std::int64_t i = 0; i < n; ++i) body(i);
}

// Small whole numbers, so b + s c is exact and the check can compare bits; varying with i so
// that an element a thread skipped or wrote twice shows.
double b_value(std::int64_t i) { return 1.0 + static_cast<double>(i % 7); }
double c_value(std::int64_t i) { return 2.0 + static_cast<double>(i % 5); }

// Allocates, checks and times the triad; prints the figures.
int triad(std::int64_t n, int reps, int threads) {
  const auto un = static_cast<std::size_t>(n);
  Array a, b, c;
  try {
    a = allocate(un);
    b = allocate(un);
    c = allocate(un);
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "stream_triad: error: cannot allocate 3 x %lld doubles\n", static_cast<long long>(n));
    return 1;
  }
  double* pa = a.get();
  double* pb = b.get();
  double* pc = c.get();
  for_each_index(n, threads, [=](std::int64_t i) {
    pa[i] = -1.0;
    pb[i] = b_value(i);
    pc[i] = c_value(i);
  });

  std::vector<double> seconds;
  for (int r = 0; r < reps; ++r) {
    const double t0 = instrument::now_seconds();
    for_each_index(n, threads, [=](std::int64_t i) { pa[i] = pb[i] + kScalar * pc[i]; });
    seconds.push_back(instrument::now_seconds() - t0);
  }

  for (int k = 0; k <= 16; ++k) {
    const std::int64_t i = std::min(n - 1, n / 16 * k + k);
    const double expected = b_value(i) + kScalar * c_value(i);
    if (pa[i] != expected) {
      std::fprintf(stderr, "stream_triad: error: a[%lld] = %.17g, expected %.17g\n", static_cast<long long>(i),
                   pa[i], expected);
      return 1;
    }
  }

  const double best = *std::min_element(seconds.begin(), seconds.end());
  const double median = instrument::median(seconds);
  const double elements = static_cast<double>(n);
  const auto gbs = [&](double bytes_per_element, double s) { return bytes_per_element * elements / s * 1e-9; };
  std::printf("stream_triad: a = b + %g c, 3 arrays of %lld doubles (%.1f MiB in all), %d repetitions, %d thread%s\n",
              kScalar, static_cast<long long>(n), 3.0 * 8.0 * elements / (1024.0 * 1024.0), reps, threads,
              threads == 1 ? "" : "s");
  std::printf(" seconds per repetition:             best %.6g  median %.6g\n", best, median);
  std::printf(" triad (24 B/element):               best %.3f GB/s  median %.3f GB/s\n", gbs(24, best),
              gbs(24, median));
  std::printf(" with write-allocate (32 B/element): best %.3f GB/s  median %.3f GB/s\n", gbs(32, best),
              gbs(32, median));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  std::int64_t n = std::int64_t{1} << 25;
  int reps = 20, threads = 1;
  instrument::OptionTable table("stream_triad");
  table.notes("STREAM's triad a = b + 3 c: the memory bandwidth the smoother is compared with.")
      .whole("--n", "N", n, 1, std::int64_t{1} << 34, "(elements per array)", "elements per array")
      .whole("--reps", "R", reps, 1, 100000, "", "repetitions")
      .whole("--threads", "T", threads, 1, 1024, "", "OpenMP threads");
  return instrument::run_serial_app(argc, argv, table, [&] { return triad(n, reps, threads); });
}
