// page-fault-cost: what the first write of a page costs here, in small pages and in huge ones,
// the figure behind heap_reuse.hpp and huge_pages.hpp (a set-up pays it for every page it
// writes first).
//
// Each repetition maps a fresh region of --mib MiB (aligned to 2 MiB), writes one byte a 4 KiB
// page, and unmaps it: once advised for small pages (MADV_NOHUGEPAGE: a fault each 4 KiB) and
// once for transparent huge pages (a fault each 2 MiB where the kernel gives them), alternately. Printed:
// per repetition the time a 4 KiB page and the faults counted; then the medians. The first
// huge-page repetition may be dearer than the rest: on a guest whose host takes back freed
// memory its pages are backed at their first touch, and later ones reuse what the process
// unmapped moments before (the host keeps it for a few seconds).
//
// Usage: page-fault-cost [--mib M] [--reps R]   (single process)
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <sys/mman.h>

#include "instrument/clock.hpp"
#include "instrument/error.hpp"
#include "instrument/huge_pages.hpp"
#include "instrument/option_table.hpp"
#include "instrument/process_usage.hpp"
#include "instrument/run_app.hpp"
#include "instrument/statistics.hpp"

namespace {

struct Touch {
  double us_a_page;  // per 4 KiB page written
  long faults;
};

// A fresh region of `bytes` (a multiple of 2 MiB), advised for huge pages or not, written one
// byte a 4 KiB page, then unmapped.
Touch touch_fresh(std::size_t bytes, bool huge) {
  const std::size_t extra = instrument::kHugePageBytes;
  void* mapped = mmap(nullptr, bytes + extra, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (mapped == MAP_FAILED) return {-1.0, -1};
  const auto at = (reinterpret_cast<std::uintptr_t>(mapped) + extra - 1) & ~std::uintptr_t{extra - 1};
  volatile char* region = reinterpret_cast<volatile char*>(at);
  // Small pages asked for too: under THP "always" an unadvised region would get huge ones.
  (void)madvise(reinterpret_cast<void*>(at), bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE);
  const instrument::ProcessUsage before = instrument::process_usage();
  const double t0 = instrument::now_seconds();
  for (std::size_t i = 0; i < bytes; i += 4096) region[i] = 1;
  const double seconds = instrument::now_seconds() - t0;
  const long faults = (instrument::process_usage() - before).minor_faults;
  munmap(mapped, bytes + extra);
  return {seconds * 1e6 / static_cast<double>(bytes / 4096), faults};
}

int measure(int mib, int reps) {
  const std::size_t bytes = static_cast<std::size_t>(mib) << 20;
  std::vector<double> small, huge;
  std::printf("page-fault-cost: %d MiB written one byte a 4 KiB page, %d repetitions\n", mib, reps);
  std::printf("%4s %22s %22s\n", "rep", "4 KiB pages: us/page", "huge pages: us/page");
  for (int r = 0; r < reps; ++r) {
    const Touch s = touch_fresh(bytes, false), h = touch_fresh(bytes, true);
    if (s.faults < 0 || h.faults < 0) {
      std::fprintf(stderr, "page-fault-cost: mmap of %d MiB failed\n", mib);
      return 1;
    }
    small.push_back(s.us_a_page);
    huge.push_back(h.us_a_page);
    std::printf("%4d %10.3f (%6ld faults) %10.3f (%6ld faults)\n", r + 1, s.us_a_page, s.faults, h.us_a_page, h.faults);
  }
  std::printf("median: 4 KiB pages %.3f us a page, huge pages %.3f us a 4 KiB page (%.1fx)\n", instrument::median(small),
              instrument::median(huge), instrument::median(small) / instrument::median(huge));
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int mib = 64, reps = 5;
  instrument::OptionTable table("page-fault-cost");
  table.notes("What a first write of a page costs, in 4 KiB and in huge pages (single process).")
      .whole("--mib", "M", mib, 2, 65536, "(even)", "MiB mapped and written a repetition")
      .whole("--reps", "R", reps, 1, 1000, "", "repetitions, each page size once, alternately");
  return instrument::run_serial_app(argc, argv, table, [&] {
    // Whole 2 MiB pages: an odd size would leave a small page at the end of the huge-page run.
    if (mib % 2 != 0) throw instrument::InputError("command line", "--mib", "expected an even number of MiB, got " + std::to_string(mib));
    return measure(mib, reps);
  });
}
