// A recorded trace as a replay program (replay_trace.hpp), on traces small enough to work
// out by hand: the calls and the compute between them, the span of complete epochs, the costs
// of a calibration table, and the traces that cannot be replayed.
#include <catch2/catch.hpp>

#include <cstdint>
#include <limits>
#include <string>

#include "../input_error_text.hpp"
#include "instrument/replay_trace.hpp"

using namespace instrument;
using namespace instrument::replay;

namespace {

enum Kind { kIteration, kSweep, kKernel, kSend, kRecv, kAllreduce, kIsend, kIrecv, kWait, kSource };

GatheredTrace make_trace(int nranks) {
  GatheredTrace t;
  t.kinds = {"iteration", "sweep", "kernel", "send", "recv", "allreduce", "isend", "irecv", "wait", "source"};
  t.per_rank.resize(static_cast<std::size_t>(nranks));
  t.dropped.assign(static_cast<std::size_t>(nranks), 0);
  return t;
}

void add(GatheredTrace& t, int rank, Kind k, double b, double e, std::int64_t work = 0, int peer = -1,
         std::int64_t bytes = 0, int tag = -1, int request = -1) {
  TraceEvent ev;
  ev.t_begin = b;
  ev.t_end = e;
  ev.kind = k;
  ev.work = work;
  ev.peer = peer;
  ev.bytes = bytes;
  ev.tag = tag;
  ev.request = request;
  t.per_rank[static_cast<std::size_t>(rank)].push_back(ev);
}

// Rank 0 computes, sends, computes, reduces; rank 1 posts a receive from any source, waits,
// computes, reduces. Rank 0 starts a second iteration that rank 1 never does.
GatheredTrace two_rank_trace() {
  GatheredTrace t = make_trace(2);
  add(t, 0, kSource, 0.0, 0.1);  // before the first iteration: not replayed
  add(t, 0, kKernel, 1.0, 2.0, 100);
  add(t, 0, kSend, 2.5, 2.6, 0, 1, 800, 7);
  add(t, 0, kKernel, 3.0, 4.0, 100);
  add(t, 0, kAllreduce, 4.5, 5.0, 0, -1, 8);
  add(t, 0, kIteration, 1.0, 5.0);
  add(t, 0, kKernel, 5.0, 6.0, 100);
  add(t, 0, kIteration, 5.0, 6.0);
  add(t, 1, kIrecv, 1.2, 1.3, 0, -1, 1000, 7, 0);  // posted for any source, up to 1000 bytes
  add(t, 1, kWait, 2.0, 2.8, 0, 0, 800, 7, 0);     // matched rank 0's 800 bytes
  add(t, 1, kKernel, 2.8, 3.8, 100);
  add(t, 1, kAllreduce, 4.6, 5.1, 0, -1, 8);
  add(t, 1, kIteration, 1.2, 5.1);
  return t;
}

}  // namespace

TEST_CASE("self: the calls of the complete iterations, the measured gaps between them") {
  const RecordedProgram p = program_from_trace(two_rank_trace(), "run.h5");
  REQUIRE(p.program.ranks() == 2);
  CHECK(p.epochs == 1);
  CHECK(p.span == "iterations 1..1 (complete on every rank)");
  CHECK(p.compute_from.rfind("self:", 0) == 0);

  const auto& r0 = p.program.per_rank[0];
  REQUIRE(r0.size() == 4);
  CHECK(r0[0].kind == OpKind::compute);
  CHECK(r0[0].seconds == Approx(1.5));  // [1.0, 2.5]: the kernel and the time after it
  CHECK(r0[0].work == 100);
  CHECK(r0[1].kind == OpKind::send);
  CHECK(r0[1].peer == 1);
  CHECK(r0[1].tag == 7);
  CHECK(r0[1].bytes == 800);
  CHECK(r0[2].kind == OpKind::compute);
  CHECK(r0[2].seconds == Approx(1.9));  // [2.6, 4.5]
  CHECK(r0[3].kind == OpKind::collective);
  CHECK(r0[3].collective == Collective::allreduce);
  CHECK(r0[3].bytes == 8);
  CHECK(p.program.source_index[0][1] == 2);  // the send is event 2 of rank 0's trace
  CHECK(p.program.source_index[0][0] == -1);

  const auto& r1 = p.program.per_rank[1];
  REQUIRE(r1.size() == 6);
  CHECK(r1[0].kind == OpKind::compute);
  CHECK(r1[0].seconds == Approx(0.2));  // rank 1 enters the iteration 0.2 s after rank 0
  CHECK(r1[1].kind == OpKind::irecv);
  CHECK(r1[1].peer == 0);     // from its wait: what MPI matched
  CHECK(r1[1].bytes == 800);
  CHECK(r1[1].request == 0);
  CHECK(r1[2].seconds == Approx(0.7));  // [1.3, 2.0]
  CHECK(r1[3].kind == OpKind::wait);
  CHECK(r1[3].request == 0);
  CHECK(r1[4].seconds == Approx(1.8));  // [2.8, 4.6]
  CHECK(r1[4].work == 100);
  CHECK(r1[5].kind == OpKind::collective);

  CHECK(p.start_skew == Approx(0.2));
  CHECK(p.measured[0].compute == Approx(3.4));
  CHECK(p.measured[0].send == Approx(0.1));
  CHECK(p.measured[0].collective == Approx(0.5));
  CHECK(p.measured[0].end == Approx(4.0));
  CHECK(p.measured[1].compute == Approx(2.7));
  CHECK(p.measured[1].receive == Approx(0.1));
  CHECK(p.measured[1].wait == Approx(0.8));
  CHECK(p.measured[1].end == Approx(4.1));
  CHECK(p.measured_total == Approx(4.1));
}

TEST_CASE("no epoch phase in the trace: the whole trace is replayed") {
  GatheredTrace t = make_trace(1);
  t.kinds[kIteration] = "step";  // no "iteration" kind
  add(t, 0, kKernel, 0.5, 1.0, 10);
  add(t, 0, kAllreduce, 1.5, 2.0, 0, -1, 8);
  add(t, 0, kKernel, 2.0, 3.0, 10);
  const RecordedProgram p = program_from_trace(t, "run.h5");
  CHECK(p.epochs == 0);
  CHECK(p.span.rfind("the whole trace", 0) == 0);
  const auto& ops = p.program.per_rank[0];
  REQUIRE(ops.size() == 3);
  CHECK(ops[0].seconds == Approx(1.0));  // [0.5, 1.5]: from the first event's begin
  CHECK(ops[1].kind == OpKind::collective);
  CHECK(ops[2].seconds == Approx(1.0));  // [2.0, 3.0]: to the last event's end
  CHECK(p.measured_total == Approx(2.5));
}

namespace {

// A one-rank calibration: per iteration the source (1 s), kernels of 400 work units in
// 4 s, 4 s untimed inside the sweep and 1 s untimed in the iteration after the sweep.
GatheredTrace calibration_trace() {
  GatheredTrace t = make_trace(1);
  add(t, 0, kSource, 0.0, 1.0);
  add(t, 0, kKernel, 1.0, 3.0, 200);
  add(t, 0, kKernel, 4.0, 6.0, 200);
  add(t, 0, kSweep, 1.0, 9.0);
  add(t, 0, kIteration, 0.0, 10.0);
  return t;
}

}  // namespace

TEST_CASE("the cost table of a calibration: per work unit, per unit of the scope's work") {
  const CostTable c = cost_table_from(calibration_trace(), "cal.h5");
  CHECK(c.file == "cal.h5");
  CHECK(c.nranks == 1);
  REQUIRE(c.per_work.count("kernel") == 1);
  CHECK(c.per_work.at("kernel").rate() == Approx(0.01));  // 4 s / 400
  REQUIRE(c.per_scope.count("source") == 1);
  CHECK(c.per_scope.at("source").rate() == Approx(1.0 / 400));  // scope: the iteration's 400
  REQUIRE(c.per_scope.count("sweep (untimed)") == 1);
  CHECK(c.per_scope.at("sweep (untimed)").seconds == Approx(4.0));  // [3, 4] and [6, 9]
  CHECK(c.per_scope.at("sweep (untimed)").units == Approx(400.0));  // one sweep, counted once
  CHECK(c.per_scope.at("sweep (untimed)").pieces == 2);
  CHECK(c.per_scope.at("iteration (untimed)").rate() == Approx(1.0 / 400));
  CHECK(c.per_piece.empty());
}

TEST_CASE("costs from a table: work x rate, the rest in proportion to the scope's work") {
  GatheredTrace t = make_trace(2);
  add(t, 0, kSource, 0.0, 0.5);
  add(t, 0, kKernel, 0.5, 1.5, 100);
  add(t, 0, kSend, 2.0, 2.1, 0, 1, 800, 3);
  add(t, 0, kKernel, 2.5, 3.5, 100);
  add(t, 0, kSweep, 0.5, 5.0);
  add(t, 0, kAllreduce, 5.5, 6.0, 0, -1, 8);
  add(t, 0, kIteration, 0.0, 6.0);
  add(t, 1, kRecv, 0.0, 2.1, 0, 0, 800, 3);
  add(t, 1, kAllreduce, 5.5, 6.0, 0, -1, 8);
  add(t, 1, kIteration, 0.0, 6.0);
  const CostTable c = cost_table_from(calibration_trace(), "cal.h5");
  TraceOptions o;
  o.costs = &c;
  const RecordedProgram p = program_from_trace(t, "run.h5", o);
  CHECK(p.compute_from.rfind("costs from cal.h5 (1 rank)", 0) == 0);
  const auto& r0 = p.program.per_rank[0];
  REQUIRE(r0.size() == 4);
  // Before the send: source (1/400 x the iteration's 200 units), a kernel (100 x 0.01), one
  // of the sweep's three untimed pieces (0.01 x the sweep's 200 units / 3).
  CHECK(r0[0].seconds == Approx(0.5 + 1.0 + 2.0 / 3));
  CHECK(r0[0].work == 100);
  // After it: two untimed sweep pieces, a kernel, the iteration's untimed [5, 5.5].
  CHECK(r0[2].seconds == Approx(2.0 / 3 + 1.0 + 2.0 / 3 + 0.5));
  CHECK(p.measured[0].compute == Approx(2.0 + 3.4));  // the measured gaps, for comparison
  // Rank 1's [2.1, 5.5] is untimed in an iteration without work: the calibration has no
  // rate per piece for it, so it is replayed as 0 s and said so.
  const auto& r1 = p.program.per_rank[1];
  REQUIRE(r1.size() == 2);
  CHECK(r1[0].kind == OpKind::recv);
  CHECK(r1[1].kind == OpKind::collective);
  CHECK(p.uncovered_pieces == 1);
  CHECK(p.uncovered_measured_seconds == Approx(3.4));
  REQUIRE(p.uncovered_labels.size() == 1);
  CHECK(p.uncovered_labels[0] == "iteration (untimed)");
}

TEST_CASE("traces that cannot be replayed are refused with the file, the place and why") {
  CHECK(input_error_text([] { program_from_trace(GatheredTrace{}, "run.h5"); }).rfind("run.h5:/trace: a trace of the run (none recorded: was it run with --trace N?)", 0) == 0);

  GatheredTrace dropped = two_rank_trace();
  dropped.dropped[1] = 3;
  CHECK(input_error_text([&] { program_from_trace(dropped, "run.h5"); }) ==
        "run.h5:/trace/dropped: rank 1 dropped 3 events: an incomplete trace cannot be replayed; re-run with a larger --trace");

  GatheredTrace unknown = two_rank_trace();
  unknown.per_rank[1][0].peer = 0;     // posted for rank 0 (no wait needed to say which)
  unknown.per_rank[1][1].request = 5;  // a wait on a request never posted
  CHECK(input_error_text([&] { program_from_trace(unknown, "run.h5"); }) ==
        "run.h5:/trace/rank_1 event 1 (wait): a wait on a request posted earlier in the replayed span; request 5 is not");

  GatheredTrace no_epoch = two_rank_trace();
  no_epoch.per_rank[1].pop_back();  // rank 1's only iteration
  CHECK(input_error_text([&] { program_from_trace(no_epoch, "run.h5"); }) ==
        "run.h5:/trace/rank_1: at least one complete \"iteration\" (the epochs replayed) on every rank; rank 1 has none");

  GatheredTrace bad_peer = two_rank_trace();
  bad_peer.per_rank[0][2].peer = 2;
  CHECK(input_error_text([&] { program_from_trace(bad_peer, "run.h5"); }) ==
        "run.h5:/trace/rank_0 event 2 (send): a peer among the other ranks of this 2-rank run; got 2");

  GatheredTrace bad_kind = two_rank_trace();
  bad_kind.per_rank[0][3].kind = 99;
  CHECK(input_error_text([&] { program_from_trace(bad_kind, "run.h5"); }) ==
        "run.h5:/trace/rank_0 event 3: kind 99 is not one of the 10 kinds of /trace/kinds");

  // A calibration without the phase that carries the replayed run's work.
  GatheredTrace cal = calibration_trace();
  cal.kinds[kKernel] = "other_kernel";
  const CostTable c = cost_table_from(cal, "cal.h5");
  TraceOptions o;
  o.costs = &c;
  CHECK(input_error_text([&] { program_from_trace(two_rank_trace(), "run.h5", o); }).rfind(
            "cal.h5:/trace: a cost per work unit of \"kernel\", which carries work in the replayed run; the "
            "calibration's phases with work: other_kernel",
            0) == 0);

  GatheredTrace no_work = make_trace(1);
  add(no_work, 0, kSource, 0.0, 1.0);
  add(no_work, 0, kIteration, 0.0, 1.0);
  CHECK(input_error_text([&] { cost_table_from(no_work, "cal.h5"); }).rfind("cal.h5:/trace: compute phases that carry work", 0) == 0);
}

TEST_CASE("work outside [0, 2^50] units is refused with the rank, the event and the range") {
  GatheredTrace huge = two_rank_trace();
  huge.per_rank[0][3].work = std::numeric_limits<std::int64_t>::max();  // the fuzzer's nest overflow
  CHECK(input_error_text([&] { program_from_trace(huge, "run.h5"); }) ==
        "run.h5:/trace/rank_0 event 3: work in [0, 2^50] units (a physical count of one phase's work); got "
        "9223372036854775807");
  GatheredTrace negative = two_rank_trace();
  negative.per_rank[1][2].work = -1;
  CHECK(input_error_text([&] { cost_table_from(negative, "cal.h5"); }) ==
        "cal.h5:/trace/rank_1 event 2: work in [0, 2^50] units (a physical count of one phase's work); got -1");
  GatheredTrace largest = two_rank_trace();
  largest.per_rank[0][3].work = kMaxEventWork;  // the bound itself is a count
  CHECK(program_from_trace(largest, "run.h5").program.per_rank[0][2].work == kMaxEventWork);
}

TEST_CASE("sums of work saturate at the largest count instead of overflowing") {
  // 2^13 kernels of 2^50 units in one gap: their sum is 2^63, one past the largest count.
  GatheredTrace t = make_trace(1);
  const int kernels = 1 << 13;
  for (int i = 0; i < kernels; ++i) add(t, 0, kKernel, i, i + 1.0, kMaxEventWork);
  add(t, 0, kSweep, 0.0, kernels);
  add(t, 0, kIteration, 0.0, kernels);
  const RecordedProgram p = program_from_trace(t, "run.h5");
  REQUIRE(p.program.per_rank[0].size() == 1);
  CHECK(p.program.per_rank[0][0].work == std::numeric_limits<std::int64_t>::max());
  CHECK(p.program.per_rank[0][0].seconds == Approx(kernels));
}

TEST_CASE("times, spans and rates outside their physical ranges are refused") {
  // The fuzzer's totals-not-finite: a calibration leaf of 1e308 s gave ~5e304 s per work unit.
  GatheredTrace far = calibration_trace();
  far.per_rank[0][1].t_begin = -1e308;
  far.per_rank[0][1].t_end = 5.04e-5;
  CHECK(input_error_text([&] { cost_table_from(far, "cal.h5"); }) ==
        "cal.h5:/trace/rank_0 event 1: times within 1e9 s of the trace's time base; got [-1e+308, 5.04e-05] s");

  GatheredTrace wide = make_trace(1);
  add(wide, 0, kKernel, -6e8, -6e8 + 1, 10);
  add(wide, 0, kKernel, 6e8, 6e8 + 1, 10);
  CHECK(input_error_text([&] { program_from_trace(wide, "run.h5"); }) ==
        "run.h5:/trace/rank_0: events within 1e9 s of each other; this rank's span [-6e+08, 6e+08] s");

  GatheredTrace slow = make_trace(1);  // one work unit in 2000 s
  add(slow, 0, kKernel, 0.0, 2000.0, 1);
  add(slow, 0, kIteration, 0.0, 2000.0);
  CHECK(input_error_text([&] { cost_table_from(slow, "cal.h5"); }) ==
        "cal.h5:/trace: seconds per work unit of \"kernel\" in [0, 1e3] s (a physical rate); got 2e+03 (2e+03 s "
        "over 1)");

  GatheredTrace slow_scope = make_trace(1);  // 1 unit of work in the iteration, 1500 s of source
  add(slow_scope, 0, kKernel, 0.0, 1.0, 1);
  add(slow_scope, 0, kSource, 1.0, 1501.0);
  add(slow_scope, 0, kIteration, 0.0, 1501.0);
  CHECK(input_error_text([&] { cost_table_from(slow_scope, "cal.h5"); }) ==
        "cal.h5:/trace: seconds per work unit of its scopes for \"source\" in [0, 1e3] s (a physical rate); got "
        "1.5e+03 (1.5e+03 s over 1)");
}

TEST_CASE("an instant that ends where a call begins is not inside the call") {
  // Rank 0: a kernel, an instant phase at 1.0 (recorded before the isend: it happened first),
  // the isend that begins at 1.0, its wait. The instant is not inside the isend, which stays a
  // call (the fuzzer's r2048_922: the isend vanished and its wait was "not posted").
  GatheredTrace t = make_trace(2);
  t.kinds[kIteration] = "step";  // the whole trace
  add(t, 0, kKernel, 0.0, 1.0, 10);
  add(t, 0, kSource, 1.0, 1.0);
  add(t, 0, kIsend, 1.0, 1.5, 0, 1, 64, 3, 0);
  add(t, 0, kWait, 1.5, 2.0, 0, 1, 64, 3, 0);
  add(t, 1, kRecv, 0.0, 2.0, 0, 0, 64, 3);
  const RecordedProgram p = program_from_trace(t, "run.h5");
  const auto& r0 = p.program.per_rank[0];
  REQUIRE(r0.size() == 3);
  CHECK(r0[0].kind == OpKind::compute);
  CHECK(r0[0].seconds == Approx(1.0));
  CHECK(r0[1].kind == OpKind::isend);
  CHECK(p.program.source_index[0][1] == 2);
  CHECK(r0[2].kind == OpKind::wait);
}

TEST_CASE("an instant at a phase's end recorded after the phase is not inside it") {
  // An instant call at a kernel's end, recorded after the kernel, follows it: the kernel
  // stays a leaf that carries work (inside it, the kernel's time would be untimed and the
  // calibration would have no work).
  GatheredTrace cal = make_trace(1);
  add(cal, 0, kKernel, 0.0, 1.0, 100);
  add(cal, 0, kAllreduce, 1.0, 1.0, 0, -1, 8);
  add(cal, 0, kIteration, 0.0, 1.0);
  const CostTable c = cost_table_from(cal, "cal.h5");
  REQUIRE(c.per_work.count("kernel") == 1);
  CHECK(c.per_work.at("kernel").rate() == Approx(0.01));
  CHECK(c.per_scope.empty());
}

TEST_CASE("an epoch phase named in the kinds but never recorded: the whole trace is replayed") {
  GatheredTrace t = make_trace(1);  // "iteration" is kind 0, with no event of it
  add(t, 0, kKernel, 0.5, 1.0, 10);
  add(t, 0, kAllreduce, 1.5, 2.0, 0, -1, 8);
  add(t, 0, kKernel, 2.0, 3.0, 10);
  const RecordedProgram p = program_from_trace(t, "run.h5");
  CHECK(p.epochs == 0);
  CHECK(p.span.rfind("the whole trace", 0) == 0);
  REQUIRE(p.program.per_rank[0].size() == 3);
  CHECK(p.measured_total == Approx(2.5));
}

TEST_CASE("a negative count of dropped events is refused") {
  GatheredTrace t = two_rank_trace();
  t.dropped[1] = -2;
  CHECK(input_error_text([&] { program_from_trace(t, "run.h5"); }) ==
        "run.h5:/trace/dropped: a count of dropped events >= 0 per rank; rank 1 has -2");
}
