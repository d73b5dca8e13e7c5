// Ticks converted on different ranks agree: a rank's converted time lies within rank 0's
// round trip around it (Cristian's bound), and the offsets gather measures between ranks of
// one host are within their stated uncertainty of the true offset, 0.
#include <catch2/catch.hpp>
#include <mpi.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "instrument/clock.hpp"
#include "instrument/clock_offsets.hpp"
#include "instrument/run_results.hpp"

using namespace instrument;

namespace {
void busy_for(double seconds) {
  const double t0 = now_seconds();
  while (now_seconds() - t0 < seconds) {
  }
}
}  // namespace

TEST_CASE("converted tick times agree across the processes of a node") {
  int me = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  clock_calibration();
  busy_for(0.2);
  const ClockConversion conv = final_conversion();
  // Each process's line is pinned to steady_clock at its two pairs to within half their
  // brackets (tens of ns unless a pair was preempted): the bound allows those, and 200 ns.
  double slack = 0.5 * static_cast<double>(conv.start.bracket + conv.end.bracket) / conv.hz;
  MPI_Allreduce(MPI_IN_PLACE, &slack, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  for (int r = 1; r < p; ++r) {
    MPI_Barrier(MPI_COMM_WORLD);
    if (me == 0) {
      double best_rtt = 1.0, best_error = 0.0;
      for (int i = 0; i < 50; ++i) {
        double t_r = 0.0;
        const double t0 = conv.steady_seconds(now_ticks());
        MPI_Send(&t0, 1, MPI_DOUBLE, r, 1, MPI_COMM_WORLD);
        MPI_Recv(&t_r, 1, MPI_DOUBLE, r, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        const double t1 = conv.steady_seconds(now_ticks());
        if (t1 - t0 < best_rtt) {
          best_rtt = t1 - t0;
          best_error = t_r < t0 ? t0 - t_r : (t_r > t1 ? t_r - t1 : 0.0);
        }
      }
      INFO("rank " << r << ": best round trip " << best_rtt * 1e6 << " us, pair slack "
                    << slack * 1e6 << " us");
      CHECK(best_error < 0.2e-6 + 2.0 * slack);  // outside the round trip by < 200 ns
    } else if (me == r) {
      for (int i = 0; i < 50; ++i) {
        double ignored = 0.0;
        MPI_Recv(&ignored, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
        const double t_r = conv.steady_seconds(now_ticks());
        MPI_Send(&t_r, 1, MPI_DOUBLE, 0, 1, MPI_COMM_WORLD);
      }
    }
  }
}

TEST_CASE("offsets measured between ranks of one host are 0 within their uncertainty") {
  int me = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  std::vector<int> probe(static_cast<std::size_t>(p), 1);
  probe[0] = 0;
  const ClockOffsets o = estimate_clock_offsets(MPI_COMM_WORLD, probe);
  if (me != 0) return;
  CHECK(o.offset[0] == 0.0);
  for (int r = 1; r < p; ++r) {
    INFO("rank " << r);
    CHECK(o.uncertainty[static_cast<std::size_t>(r)] > 0.0);
    CHECK(std::abs(o.offset[static_cast<std::size_t>(r)]) <=
          o.uncertainty[static_cast<std::size_t>(r)]);
  }
}

TEST_CASE("gather records the clock and, when asked, applies measured offsets") {
  int me = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  Recorder rec(4);
  { ScopedPhase s(rec, rec.define_phase("work")); }
  const RunInfo info = make_run_info("test", MPI_COMM_WORLD);
  const RunResults one_host = gather_results(rec, info, MPI_COMM_WORLD);
  setenv("SUITE_CLOCK_OFFSETS", "always", 1);
  const RunResults probed = gather_results(rec, info, MPI_COMM_WORLD);
  unsetenv("SUITE_CLOCK_OFFSETS");
  if (me != 0) return;
  const ClockInfo& c = one_host.clock;
  CHECK(c.source == clock_source_name(clock_source()));
  CHECK(c.frequency_hz > 1e8);
  CHECK(c.check == "passed");
  CHECK(c.tolerance_ppm == kClockTolerance * 1e6);
  CHECK(std::abs(c.disagreement_ppm) <= c.tolerance_ppm);
  CHECK_THAT(c.sync, Catch::StartsWith("one host"));
  CHECK(c.offset == std::vector<double>(static_cast<std::size_t>(p), 0.0));
  if (p > 1) {
    CHECK_THAT(probed.clock.sync, Catch::Contains(std::to_string(p - 1) + " rank(s) probed"));
    for (std::size_t r = 1; r < static_cast<std::size_t>(p); ++r) {
      CHECK(probed.clock.offset_uncertainty[r] > 0.0);
      CHECK(std::abs(probed.clock.offset[r]) <= probed.clock.offset_uncertainty[r]);
    }
  }
  // Each event moves by the rank's offset, nothing else (times relative to the earliest start).
  for (int r = 0; r < p; ++r) {
    const auto& a = one_host.trace.per_rank[static_cast<std::size_t>(r)].at(0);
    const auto& b = probed.trace.per_rank[static_cast<std::size_t>(r)].at(0);
    CHECK(b.t_end - b.t_begin == Approx(a.t_end - a.t_begin).margin(1e-12));
  }
}
