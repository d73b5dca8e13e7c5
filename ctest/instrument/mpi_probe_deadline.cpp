// The probe loops' time limit (probe_measure.hpp, check_deadline): past Pair::deadline on
// rank 0's clock, every loop the apps' short probe runs stops on both ranks of the pair at the
// same point (a rank that went on alone would wait for its partner for ever), and without a
// deadline the loops run to the end. Ranks are paired (0, 1), (2, 3); at 1 rank the check
// itself is tested on a communicator of one.
#include <catch2/catch.hpp>
#include <mpi.h>

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "instrument/clock.hpp"
#include "instrument/probe_cold.hpp"
#include "instrument/probe_measure.hpp"

namespace probe = instrument::probe;
using instrument::now_seconds;

namespace {

constexpr std::int64_t kBytes = 1024;

int rank_in(MPI_Comm c) {
  int r = 0;
  MPI_Comm_rank(c, &r);
  return r;
}

// This rank's pair (ranks 2k and 2k + 1 of the world), or MPI_COMM_NULL for an odd last rank.
MPI_Comm make_pair_comm() {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  const bool paired = rank / 2 * 2 + 1 < size;
  MPI_Comm c = MPI_COMM_NULL;
  MPI_Comm_split(MPI_COMM_WORLD, paired ? rank / 2 : MPI_UNDEFINED, rank, &c);
  return c;
}

// Runs `loop` on the pair `c`, rank 0 with deadline `deadline0` and rank 1 with `deadline1`;
// returns whether it stopped with ProbeOutOfTime, after checking that both ranks agree.
bool stopped(MPI_Comm c, double deadline0, double deadline1, const std::function<void(probe::Pair&)>& loop) {
  const int r = rank_in(c);
  probe::Pair p{r, 1 - r, std::vector<char>(kBytes, 'a'), std::vector<char>(kBytes, 'b'), c,
                r == 0 ? deadline0 : deadline1};
  int out = 0;
  try {
    loop(p);
  } catch (const probe::ProbeOutOfTime&) {
    out = 1;
  }
  int both[2] = {-1, -1};
  MPI_Allgather(&out, 1, MPI_INT, both, 1, MPI_INT, c);
  CHECK(both[0] == both[1]);
  return out != 0;
}

// The loops of loggps_short_probe.cpp, at tiny sizes.
const std::vector<std::pair<const char*, std::function<void(probe::Pair&)>>>& loops() {
  static const std::vector<std::pair<const char*, std::function<void(probe::Pair&)>>> all{
      {"median_round_trips",
       [](probe::Pair& p) {
         const std::vector<double> m = probe::median_round_trips(p, {8, kBytes}, {0.0, 0.0}, 3);
         if (p.rank == 0) CHECK((m[0] > 0.0 && m[1] > 0.0));
       }},
      {"send_waits_for_late_receiver",
       [](probe::Pair& p) {
         probe::LateSend log;
         (void)probe::send_waits_for_late_receiver(p, 8, log, 1);
         if (p.rank == 0) CHECK(log.sizes == std::vector<std::int64_t>{8});
       }},
      {"measure_cold_messages",
       [](probe::Pair& p) {
         const probe::ColdMessages c = probe::measure_cold_messages(p, {0, 4096}, 8, kBytes, {}, 3);
         if (p.rank == 0) CHECK(c.points.size() == 2);
       }},
      {"measure_after_stream",
       [](probe::Pair& p) {
         const probe::AfterStreamMeasurement a = probe::measure_after_stream(p, {0, 2}, kBytes, probe::kStreamGap, 3);
         if (p.rank == 0) CHECK(a.points.size() == 2);
       }},
  };
  return all;
}

}  // namespace

TEST_CASE("the check alone: past the deadline it throws, before it or without one it does not", "[probe_deadline]") {
  probe::Pair self{0, 0, {}, {}, MPI_COMM_SELF, 0.0};
  CHECK_NOTHROW(probe::check_deadline(self));
  self.deadline = now_seconds() + 3600.0;
  CHECK_NOTHROW(probe::check_deadline(self));
  self.deadline = now_seconds() - 1.0;
  CHECK_THROWS_AS(probe::check_deadline(self), probe::ProbeOutOfTime);
}

TEST_CASE("every loop of the short probe stops on both ranks when rank 0 is past the deadline", "[probe_deadline]") {
  MPI_Comm c = make_pair_comm();
  if (c == MPI_COMM_NULL) return;  // the one rank of 1, which has no partner: the case above
  for (const auto& [name, loop] : loops()) {
    INFO(name);
    // No deadline: runs to the end (and checks its results on rank 0).
    CHECK_FALSE(stopped(c, 0.0, 0.0, loop));
    // Rank 0 past it: both stop, though rank 1's own clock is far from it.
    CHECK(stopped(c, now_seconds() - 1.0, now_seconds() + 3600.0, loop));
    // Rank 0 before it: neither stops, though rank 1's own is past (rank 0's clock decides).
    CHECK_FALSE(stopped(c, now_seconds() + 3600.0, now_seconds() - 1.0, loop));
  }
  MPI_Comm_free(&c);
}
