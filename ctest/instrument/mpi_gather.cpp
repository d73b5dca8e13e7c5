// gather_results: union of names across ranks, per-rank values in rank order, stats,
// trace events remapped to the union's ids.
#include <catch2/catch.hpp>
#include <mpi.h>

#include <stdexcept>
#include <string>

#include "instrument/run_results.hpp"

using namespace instrument;

TEST_CASE("rank statistics") {
  const auto s = rank_stats({4.0, 1.0, 3.0, 2.0});
  CHECK(s.min == 1.0);
  CHECK(s.max == 4.0);
  CHECK(s.mean == 2.5);
  CHECK(s.median == 2.5);
  CHECK(rank_stats({5.0, 1.0, 3.0}).median == 3.0);
}

TEST_CASE("gather unites names that differ between ranks") {
  int me = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  Recorder rec(8);
  // Every rank has "common"; odd ranks register "odd_only" first, so ids differ by rank.
  if (me % 2 == 1) rec.add_time(rec.define_phase("odd_only"), 1.0 + me, 1);
  const auto common = rec.define_phase("common");
  rec.add_time(common, 0.5 * me, me + 1);
  rec.count(rec.define_counter("cells"), 100 + me);
  {
    ScopedPhase s(rec, common);
    s.set_work(me);
  }
  const RunInfo info = make_run_info("test", MPI_COMM_WORLD);
  const RunResults res = gather_results(rec, info, MPI_COMM_WORLD);
  if (me != 0) {
    CHECK(res.phases.empty());
    return;
  }
  CHECK(res.info.nranks == p);
  CHECK(res.info.app == "test");
  CHECK(!res.info.mpi_library.empty());
  CHECK(res.info.date.size() == 20);
  const auto* c = res.find_phase("common");
  REQUIRE(c != nullptr);
  for (int r = 0; r < p; ++r) {
    CHECK(c->calls[r] == r + 2);  // add_time's calls + the scope
    CHECK(c->inclusive[r] >= 0.5 * r);
    CHECK(res.find_counter("cells")->values[r] == 100 + r);
    REQUIRE(res.trace.per_rank[r].size() == 1);
    const auto& e = res.trace.per_rank[r][0];
    CHECK(res.trace.kinds.at(e.kind) == "common");
    CHECK(e.work == r);
  }
  const auto* odd = res.find_phase("odd_only");
  if (p == 1) {
    CHECK(odd == nullptr);
  } else {
    REQUIRE(odd != nullptr);
    for (int r = 0; r < p; ++r) CHECK(odd->inclusive[r] == (r % 2 ? 1.0 + r : 0.0));
  }
}

TEST_CASE("gather refuses a run whose phases were mis-nested on any rank") {
  int me = 0, p = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &me);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  Recorder rec;
  const auto sweep = rec.define_phase("sweep");
  const auto send = rec.define_phase("send");
  const int culprit = p - 1;  // the last rank mis-nests; every rank must learn it
  rec.begin(sweep);
  rec.begin(send);
  if (me == culprit) {
    rec.end(sweep);
    rec.end(send);
  } else {
    rec.end(send);
    rec.end(sweep);
  }
  const RunInfo info = make_run_info("test", MPI_COMM_WORLD);
  try {
    gather_results(rec, info, MPI_COMM_WORLD);
    FAIL("gather_results should have refused the run");
  } catch (const std::logic_error& e) {
    CHECK_THAT(e.what(), Catch::Contains("rank " + std::to_string(culprit) +
                                         ": end(sweep) while send is open"));
  }
}

TEST_CASE("gather refuses a run with a phase still open") {
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  Recorder rec;
  rec.begin(rec.define_phase("iteration"));
  const RunInfo info = make_run_info("test", MPI_COMM_WORLD);
  CHECK_THROWS_WITH(gather_results(rec, info, MPI_COMM_WORLD),
                    Catch::Contains("rank 0: phase iteration still open"));
}
