// gather_results: union of names across ranks, per-rank values in rank order, stats,
// trace events remapped to the union's ids.
#include <catch2/catch.hpp>
#include <mpi.h>

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
  if (me % 2 == 1) rec.add_time(rec.phase("odd_only"), 1.0 + me, 1);
  const auto common = rec.phase("common");
  rec.add_time(common, 0.5 * me, me + 1);
  rec.count(rec.counter("cells"), 100 + me);
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
