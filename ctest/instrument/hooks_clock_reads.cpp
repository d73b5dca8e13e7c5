// Every hook's clock reads, counted through the one clock function (a build with
// INSTRUMENT_COUNT_CLOCK_READS=1, see hooks_clock_reads.cmake). Built twice from the
// instrument sources: with hooks on, each hook reads the clock exactly as often as it must
// (2 per timed interval, 0 for counters and added times); with hooks compiled out
// (INSTRUMENT_ENABLED=0), no hook, no Recorder and no Comm reads it at all, and nothing is
// recorded.
#include <catch2/catch.hpp>
#include <mpi.h>

#include <functional>
#include <string>
#include <vector>

#include "instrument/clock.hpp"
#include "instrument/comm.hpp"
#include "instrument/recorder.hpp"

using namespace instrument;

namespace {
constexpr std::int64_t kOn = INSTRUMENT_ENABLED ? 1 : 0;

struct Hook {
  std::string what;
  std::int64_t reads_when_on;
  std::function<void()> run;
};
}  // namespace

TEST_CASE("every hook reads the clock as often as it must, and never when compiled out") {
  REQUIRE(INSTRUMENT_COUNT_CLOCK_READS == 1);
  const std::int64_t at_start = clock_reads();
  Recorder rec(256);
  Comm comm(MPI_COMM_WORLD, rec);
  // Construction calibrates the clock with hooks on (outside every hook), never when off.
  if (kOn) CHECK(clock_reads() > at_start);
  else CHECK(clock_reads() == 0);

  const int me = comm.rank(), p = comm.size();
  const int right = (me + 1) % p, left = (me + p - 1) % p;
  const PhaseId a = rec.define_phase("a"), b = rec.define_phase("b");
  const CounterId c = rec.define_counter("c");
  std::vector<double> out(8, 1.0), in(8, 0.0);
  const bool pair = p >= 2 && me < 2;

  const std::vector<Hook> hooks = {
      {"begin + end", 2, [&] { rec.begin(a); rec.end(a, 5); }},
      {"ScopedPhase", 2, [&] { ScopedPhase s(rec, a); s.set_work(3); }},
      {"nested ScopedPhase", 4, [&] { ScopedPhase s(rec, a); ScopedPhase t(rec, b); }},
      {"count", 0, [&] { rec.count(c, 7); }},
      {"add_time", 0, [&] { rec.add_time(b, 1e-3); }},
      {"add_ticks", 0, [&] { rec.add_ticks(b, 1000); }},
      {"set_time, set_ticks, set_count", 0,
       [&] { rec.set_time(rec.define_phase("d1"), 1.0, 1); rec.set_ticks(rec.define_phase("d2"), 5, 1);
             rec.set_count(c, 9); }},
      {"record_interval", 0, [&] { rec.record_interval(a, 10, 20, 1, 8, 0, 3, 4); }},
      {"record_event", 0, [&] { rec.record_event(a, 1.0, 2.0, 1, 8); }},
      {"send / recv", pair ? 2 : 0,
       [&] {
         if (pair && me == 0) comm.send(out.data(), 8, MPI_DOUBLE, 1, 1);
         if (pair && me == 1) comm.recv(in.data(), 8, MPI_DOUBLE, 0, 1);
       }},
      {"irecv + isend + 2 waits", 8,
       [&] {
         auto r = comm.irecv(in.data(), 8, MPI_DOUBLE, left, 2);
         auto s = comm.isend(out.data(), 8, MPI_DOUBLE, right, 2);
         comm.wait(s);
         comm.wait(r);
       }},
      {"wait_all of 2", 8,
       [&] {
         Comm::Request rq[2] = {comm.irecv(in.data(), 8, MPI_DOUBLE, left, 3),
                                comm.isend(out.data(), 8, MPI_DOUBLE, right, 3)};
         comm.wait_all(rq, 2);
       }},
      {"allreduce", 2, [&] { comm.allreduce(out.data(), in.data(), 8, MPI_DOUBLE, MPI_SUM); }},
      {"barrier", 2, [&] { comm.barrier(); }},
      {"bcast", 2, [&] { comm.bcast(out.data(), 8, MPI_DOUBLE, 0); }},
      {"split", 0, [&] { (void)comm.split(); }},
      {"publish_split", 0, [&] { comm.publish_split(); }},
  };
  for (const auto& h : hooks) {
    const std::int64_t before = clock_reads();
    h.run();
    INFO(h.what << " (hooks " << (kOn ? "on" : "off") << ", rank " << me << ")");
    CHECK(clock_reads() - before == kOn * h.reads_when_on);
  }

  if (kOn) {  // the hooks did record: the counts above are of working hooks
    CHECK(rec.calls(a) == 3);  // begin+end, the scope, the outer nested scope
    CHECK(rec.calls(b) == 3);  // the inner nested scope, add_time, add_ticks
    CHECK(rec.value(c) == 9);
    CHECK(rec.seconds(a) > 0.0);
    CHECK(rec.calls(rec.phase_id("wait")) == 4);
    CHECK(rec.value(rec.counter_id("messages_sent")) == 2 + (pair && me == 0 ? 1 : 0));
    CHECK(!rec.trace_events().empty());
    CHECK(rec.nesting_error().empty());
  } else {  // nothing recorded, every total reads 0
    CHECK(clock_reads() == 0);
    for (PhaseId id = 0; id < rec.phase_names().size(); ++id) {
      CHECK(rec.seconds(id) == 0.0);
      CHECK(rec.calls(id) == 0);
    }
    CHECK(rec.value(c) == 0);
    CHECK(rec.trace_events().empty());
    CHECK(comm.peers().empty());
    CHECK(comm.split().send_transfer == 0.0);
  }
}
