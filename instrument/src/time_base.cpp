#include "time_base.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "instrument/clock_offsets.hpp"

namespace instrument::detail {

namespace {

bool on_root_host(MPI_Comm comm, int root) {
  char mine[MPI_MAX_PROCESSOR_NAME] = {}, root_name[MPI_MAX_PROCESSOR_NAME] = {};
  int len = 0;
  MPI_Get_processor_name(mine, &len);
  std::memcpy(root_name, mine, sizeof root_name);
  MPI_Bcast(root_name, MPI_MAX_PROCESSOR_NAME, MPI_CHAR, root, comm);
  return std::strncmp(mine, root_name, MPI_MAX_PROCESSOR_NAME) == 0;
}

std::string describe(const std::vector<int>& probe, const ClockOffsets& o) {
  std::size_t n = 0;
  double max_offset = 0.0, max_uncertainty = 0.0;
  for (std::size_t r = 0; r < probe.size(); ++r) {
    if (!probe[r]) continue;
    ++n;
    max_offset = std::max(max_offset, std::abs(o.offset[r]));
    max_uncertainty = std::max(max_uncertainty, o.uncertainty[r]);
  }
  if (n == 0) return "one host: ranks share steady_clock (CLOCK_MONOTONIC); no offsets applied";
  char buf[320];
  std::snprintf(buf, sizeof buf,
                "%zu rank(s) probed: offset to rank 0's steady_clock by min-RTT ping-pong "
                "(Cristian, %d rounds), subtracted from their trace times; largest |offset| "
                "%.3g s, largest uncertainty (RTT/2) %.3g s",
                n, kOffsetRounds, max_offset, max_uncertainty);
  return buf;
}

}  // namespace

RankClock rank_clock(const ClockConversion& conv) {
  return RankClock{conv.source == ClockSource::tsc ? 1.0 : 0.0, conv.hz,
                   clock_calibration().read_ns, conv.disagreement, conv.uncertainty,
                   conv.consistent ? 1.0 : 0.0};
}

ClockInfo summarise_clocks(const std::vector<RankClock>& ranks) {
  ClockInfo c;
  const RankClock& r0 = ranks.at(0);
  c.source = clock_source_name(r0.tsc != 0.0 ? ClockSource::tsc : ClockSource::steady);
  c.frequency_hz = r0.hz;
  c.read_ns = r0.read_ns;
  c.tolerance_ppm = kClockTolerance * 1e6;
  c.check = "passed";
  for (std::size_t r = 0; r < ranks.size(); ++r) {
    const RankClock& k = ranks[r];
    if (std::abs(k.disagreement) > std::abs(c.disagreement_ppm) * 1e-6)
      c.disagreement_ppm = k.disagreement * 1e6;
    if ((k.tsc != 0.0) != (r0.tsc != 0.0)) c.source = "mixed";
    if (k.consistent == 0.0 && c.check == "passed") {
      char buf[240];
      std::snprintf(buf, sizeof buf,
                    "failed on rank %zu: the tick rate over the run differs from the start "
                    "calibration by %.1f ppm (tolerance %.0f ppm + uncertainty %.1f ppm)",
                    r, k.disagreement * 1e6, kClockTolerance * 1e6, k.uncertainty * 1e6);
      c.check = buf;
    }
  }
  return c;
}

TimeBase common_time_base(const Recorder& rec, MPI_Comm comm, int root) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  int traced = rec.tracing() ? 1 : 0, any_traced = 0;
  MPI_Allreduce(&traced, &any_traced, 1, MPI_INT, MPI_MAX, comm);
  TimeBase base;
  base.offset.assign(static_cast<std::size_t>(size), 0.0);
  base.uncertainty = base.offset;
  if (!any_traced) {
    base.sync = "no trace: per-rank durations only, no common time base needed";
    return base;
  }
  const char* forced = std::getenv("SUITE_CLOCK_OFFSETS");
  const bool always = forced && std::strcmp(forced, "always") == 0;
  int mine = always || !on_root_host(comm, root) ? 1 : 0;
  std::vector<int> probe(static_cast<std::size_t>(size), 0);
  MPI_Allgather(&mine, 1, MPI_INT, probe.data(), 1, MPI_INT, comm);
  probe[static_cast<std::size_t>(root)] = 0;
  const ClockOffsets o = estimate_clock_offsets(comm, probe, root);
  base.offset = o.offset;
  base.uncertainty = o.uncertainty;
  base.sync = describe(probe, o);
  return base;
}

}  // namespace instrument::detail
