// Recorder: registration, nesting (inclusive vs exclusive), counters, trace capacity, reset.
#include <catch2/catch.hpp>

#include <chrono>
#include <stdexcept>
#include <thread>

#include "instrument/recorder.hpp"

using instrument::Recorder;
using instrument::ScopedPhase;

namespace {
void busy_for(double seconds) {
  const double t0 = instrument::now_seconds();
  while (instrument::now_seconds() - t0 < seconds) {
  }
}
}  // namespace

TEST_CASE("names are defined once and keep their ids") {
  Recorder r;
  const auto a = r.define_phase("sweep");
  const auto b = r.define_phase("source");
  CHECK(a != b);
  CHECK(r.define_phase("sweep") == a);
  CHECK(r.phase_id("sweep") == a);
  CHECK(r.phase_id("source") == b);
  CHECK(r.phase_names().size() == 2);
  const auto c = r.define_counter("cells");
  CHECK(r.define_counter("cells") == c);
  CHECK(r.counter_id("cells") == c);
  CHECK(r.counter_names().size() == 1);
}

TEST_CASE("a lookup of an unknown name throws and creates nothing") {
  Recorder r;
  r.define_phase("sweep");
  r.define_counter("cells");
  CHECK_THROWS_WITH(r.phase_id("swep"), Catch::Contains("no phase named 'swep'"));
  CHECK_THROWS_AS(r.phase_id("swep"), std::invalid_argument);
  CHECK_THROWS_WITH(r.counter_id("cell"), Catch::Contains("no counter named 'cell'"));
  CHECK_THROWS_AS(r.counter_id("sweep"), std::invalid_argument);  // a phase is not a counter
  CHECK(r.phase_names().size() == 1);
  CHECK(r.counter_names().size() == 1);
}

TEST_CASE("end() of a phase that is not the innermost open one is a nesting error") {
  Recorder r;
  const auto sweep = r.define_phase("sweep");
  const auto send = r.define_phase("send");
  const auto other = r.define_phase("other");
  CHECK(r.nesting_error().empty());
  r.begin(sweep);
  r.begin(send);
  CHECK(r.open_phase() == "send");
  r.end(sweep);  // send is still open
  r.end(other);  // a second mismatch: the first one is kept
  CHECK(r.open_depth() == 0);
  CHECK(r.open_phase().empty());
#if INSTRUMENT_ENABLED
  CHECK(r.nesting_error() == "end(sweep) while send is open");
  // The time went to the phases that were open, innermost first.
  CHECK(r.totals(send).calls == 1);
  CHECK(r.totals(sweep).calls == 1);
  CHECK(r.totals(other).calls == 0);
#endif
}

TEST_CASE("end() with no phase open is a nesting error") {
  Recorder r;
  const auto p = r.define_phase("p");
  r.end(p);
  CHECK(r.open_depth() == 0);
#if INSTRUMENT_ENABLED
  CHECK(r.nesting_error() == "end(p) with no phase open");
  CHECK(r.totals(p).calls == 0);
#endif
}

TEST_CASE("set_time and set_count are idempotent") {
  Recorder r;
  const auto p = r.define_phase("derived");
  const auto c = r.define_counter("bytes");
  for (int twice = 0; twice < 2; ++twice) {
    r.set_time(p, 0.25, 3);
    r.set_count(c, 7);
  }
#if INSTRUMENT_ENABLED
  CHECK(r.totals(p).inclusive == 0.25);
  CHECK(r.totals(p).exclusive == 0.25);
  CHECK(r.totals(p).calls == 3);
  CHECK(r.value(c) == 7);
#endif
}

TEST_CASE("nested phases split inclusive and exclusive time") {
  Recorder r;
  const auto outer = r.define_phase("outer");
  const auto inner = r.define_phase("inner");
  {
    ScopedPhase o(r, outer);
    busy_for(0.002);
    for (int i = 0; i < 3; ++i) {
      ScopedPhase in(r, inner);
      busy_for(0.002);
    }
  }
  const auto& po = r.totals(outer);
  const auto& pi = r.totals(inner);
  CHECK(po.calls == 1);
  CHECK(pi.calls == 3);
  CHECK(pi.inclusive >= 0.006);
  CHECK(pi.exclusive == Approx(pi.inclusive));
  CHECK(po.inclusive >= 0.008);
  // The parent's own time excludes exactly what its children took.
  CHECK(po.exclusive == Approx(po.inclusive - pi.inclusive).margin(1e-12));
  CHECK(po.exclusive >= 0.002);
  CHECK(po.exclusive < po.inclusive - 0.005);
  CHECK(r.open_depth() == 0);
}

TEST_CASE("counters add") {
  Recorder r;
  const auto c = r.define_counter("cell_angles");
  r.count(c, 10);
  r.count(c);
  CHECK(r.value(c) == 11);
  r.reset();
  CHECK(r.value(c) == 0);
  CHECK(r.counter_names().size() == 1);
}

TEST_CASE("trace keeps at most its capacity and counts the rest as dropped") {
  Recorder r(4);
  const auto p = r.define_phase("p");
  const auto* before = r.trace_events().data();
  for (int i = 0; i < 10; ++i) {
    ScopedPhase s(r, p);
    s.set_work(i);
  }
  CHECK(r.trace_events().size() == 4);
  CHECK(r.trace_dropped() == 6);
  CHECK(r.trace_events().data() == before);  // never reallocated
  CHECK(r.trace_events()[2].work == 2);
  CHECK(r.trace_events()[2].t_end >= r.trace_events()[2].t_begin);
  CHECK(r.trace_events()[3].t_begin >= r.trace_events()[2].t_end);
}

TEST_CASE("touch_trace_room records nothing, moves nothing and stops at the capacity") {
  Recorder r(6);
  const auto p = r.define_phase("p");
  const auto* before = r.trace_events().data();
  { ScopedPhase s(r, p); s.set_work(7); }
  r.touch_trace_room(3);
  CHECK(r.trace_events().size() == 1);
  CHECK(r.trace_events()[0].work == 7);  // the event recorded before it kept
  r.touch_trace_room(1000);              // past the capacity: up to it only
  CHECK(r.trace_events().size() == 1);
  CHECK(r.trace_events().data() == before);
  for (int i = 0; i < 8; ++i) { ScopedPhase s(r, p); s.set_work(i); }
  CHECK(r.trace_events().size() == 6);
  CHECK(r.trace_dropped() == 3);
  CHECK(r.trace_events()[5].work == 4);
  CHECK(r.trace_events().data() == before);
  Recorder untraced;
  untraced.touch_trace_room(10);  // no capacity: nothing to touch
  CHECK(untraced.trace_events().empty());
  CHECK(untraced.trace_events().capacity() == 0);
}

TEST_CASE("no trace is recorded without capacity") {
  Recorder r;
  const auto p = r.define_phase("p");
  { ScopedPhase s(r, p); }
  CHECK(r.trace_events().empty());
  CHECK(r.totals(p).calls == 1);
}

TEST_CASE("add_time counts as time spent inside the open phase") {
  Recorder r;
  const auto parent = r.define_phase("parent");
  const auto timed_by_hand = r.define_phase("timed_by_hand");
  {
    ScopedPhase s(r, parent);
    const double t0 = instrument::now_seconds();
    busy_for(0.003);
    r.add_time(timed_by_hand, instrument::now_seconds() - t0, 2);
  }
  CHECK(r.totals(timed_by_hand).inclusive >= 0.003);
  CHECK(r.totals(timed_by_hand).calls == 2);
  CHECK(r.totals(parent).inclusive >= 0.003);
  // The parent's exclusive time loses the added seconds as ticks: exact to half a tick.
  CHECK(r.totals(parent).exclusive ==
        Approx(r.totals(parent).inclusive - r.totals(timed_by_hand).inclusive).margin(1e-9));
  CHECK(r.totals(parent).exclusive < 0.001);
}

TEST_CASE("nesting deeper than the stack is ignored, not corrupting") {
  Recorder r;
  const auto p = r.define_phase("p");
  for (int i = 0; i < Recorder::kMaxDepth + 5; ++i) r.begin(p);
  for (int i = 0; i < Recorder::kMaxDepth + 5; ++i) r.end(p);
  CHECK(r.overflowed());
  CHECK(r.open_depth() == 0);
  CHECK(r.totals(p).calls == Recorder::kMaxDepth);
}
