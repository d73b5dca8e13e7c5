// How gather_results puts every rank's ticks on one time base and what it records of the
// clocks (private to the instrument library; clock.hpp and clock_offsets.hpp hold the method).
#pragma once
#include <mpi.h>

#include <vector>

#include "instrument/clock.hpp"
#include "instrument/run_results.hpp"

namespace instrument::detail {

// What each rank knows of its clock, shipped to root as plain doubles.
struct RankClock {
  double tsc = 0.0;  // 1 for the TSC, 0 for steady_clock
  double hz = 0.0;
  double read_ns = 0.0;
  double disagreement = 0.0;
  double uncertainty = 0.0;
  double consistent = 1.0;
};

RankClock rank_clock(const ClockConversion& conversion);

// Root's summary of every rank's clock: source, rate, the end check (ClockInfo minus the
// time base fields).
ClockInfo summarise_clocks(const std::vector<RankClock>& ranks);

struct TimeBase {
  std::vector<double> offset;       // [nranks] s, each rank's steady_clock minus root's
  std::vector<double> uncertainty;  // [nranks] s, half the kept round trip (0: not probed)
  std::string sync;            // how it was found, for ClockInfo::sync
};

// Collective. When any rank traced: offsets of the ranks on other hosts than root (of all
// ranks with SUITE_CLOCK_OFFSETS=always) by estimate_clock_offsets; 0 for the others.
// Valid on root.
TimeBase common_time_base(const Recorder& rec, MPI_Comm comm, int root);

}  // namespace instrument::detail
