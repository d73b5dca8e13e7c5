// The set-up's phases in the run (issue 40): every process has the refinement, the partition
// (METIS at p > 1; nothing to cut at p = 1 but still timed), the inheritance, the node ranks,
// the numbering, the exchange plans, the transfers, the batches, the registration, the load
// and the operator, in the order they first run, their sum within the set-up's wall time; and
// the set-up's CPU time in the kernel and its page faults.
#include <catch2/catch.hpp>
#include <mpi.h>

#include <string>
#include <vector>

#include "multigrid/driver.hpp"

TEST_CASE("the set-up's phases are timed, in order, within the set-up's time") {
  mg::RunOptions o;
  o.cube = 2;
  o.grids = 3;
  o.cycles = 1;
  const mg::RunResult r = mg::run_multigrid(o, nullptr);
  std::vector<std::string> names;
  for (const auto& [name, seconds] : r.setup_phases.seconds) {
    names.push_back(name);
    CHECK(seconds >= 0);
  }
  const std::vector<std::string> expected = {"mesh",           "refinement", "METIS",     "inheritance",
                                             "node-ranks",     "numbering",  "exchange-plans", "transfers",
                                             "batches",        "registration", "load",   "operator"};
  CHECK(names == expected);
  CHECK(r.setup_phases.total() <= r.setup_seconds);  // parts of the intervals it sums
  // The kernel's share (one SPMD section a program: checked on the same run). The grids'
  // vectors, batches and plans are fresh memory, first touched during the set-up.
  CHECK(r.setup_usage.minor_faults > 0);
  CHECK(r.setup_usage.major_faults >= 0);
  CHECK(r.setup_usage.kernel_seconds >= 0);
  CHECK(r.setup_usage.user_seconds >= 0);  // tick-sampled: a set-up this short may read 0
  // One thread a process: CPU time within the wall time, but for the kernel's accounting
  // granularity (a tick, at most 10 ms).
  CHECK(r.setup_usage.kernel_seconds + r.setup_usage.user_seconds <= r.setup_seconds + 0.02);
}
