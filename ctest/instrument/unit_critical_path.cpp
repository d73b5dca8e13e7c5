// The critical-path walk on traces small enough to follow by hand.
#include <catch2/catch.hpp>

#include <algorithm>

#include "instrument/critical_path.hpp"

using namespace instrument::critical_path;

namespace {

// Phase indices of the test traces.
enum Phase { kIteration, kSweep, kKernel, kSend, kRecv, kAllreduce, kIsend, kWait, kSource, kBefore, kAfter };

Trace make_trace(int nranks) {
  Trace t;
  t.phases = {"iteration", "sweep", "kernel", "send", "recv", "allreduce", "isend", "wait", "source",
              "w_before", "w_after"};
  t.ranks.resize(static_cast<std::size_t>(nranks));
  return t;
}

void add(Trace& t, int rank, Phase p, double b, double e, int peer = -1, int tag = -1, int request = -1) {
  Event ev;
  ev.begin = b;
  ev.end = e;
  ev.phase = p;
  ev.peer = peer;
  ev.tag = tag;
  ev.request = request;
  t.ranks[static_cast<std::size_t>(rank)].push_back(ev);
}

Rules rules() {
  Rules r;
  r.categories = {"computation", "communication", "reductions", "before", "after"};
  r.category_of = {{"kernel", "computation"}, {"send", "communication"}, {"recv", "communication"},
                   {"isend", "communication"}, {"irecv", "communication"}, {"wait", "communication"},
                   {"sweep", "communication"},
                   {"allreduce", "reductions"}, {"source", "before"}, {"w_before", "before"},
                   {"w_after", "after"}};
  return r;
}

double cat(const Result& r, const char* name) { return r.total(name); }

}  // namespace

TEST_CASE("one rank: kernels, and the gap between them charged to the enclosing phase") {
  Trace t = make_trace(1);
  add(t, 0, kIteration, 0.0, 4.0);
  add(t, 0, kSource, 0.0, 0.5);
  add(t, 0, kSweep, 0.5, 4.0);
  add(t, 0, kKernel, 0.5, 1.5);
  add(t, 0, kKernel, 2.0, 4.0);  // [1.5, 2.0]: untimed, inside the sweep
  const Result r = walk(t, rules());
  REQUIRE(r.epochs() == 1);
  CHECK(cat(r, "computation") == Approx(3.0));
  CHECK(cat(r, "communication") == Approx(0.5));
  CHECK(cat(r, "before") == Approx(0.5));
  CHECK(r.epoch_length[0] == Approx(4.0));
}

TEST_CASE("a receive that waited: the path goes to the sender when it began to send") {
  Trace t = make_trace(2);
  // Rank 0 computes [0, 2] then sends [2, 2.5]; rank 1 posts its receive at 0.5, gets the
  // message at 2.7, computes [2.7, 4].
  add(t, 0, kIteration, 0.0, 2.5);
  add(t, 0, kKernel, 0.0, 2.0);
  add(t, 0, kSend, 2.0, 2.5, 1, 7);
  add(t, 1, kIteration, 0.0, 4.0);
  add(t, 1, kRecv, 0.5, 2.7, 0, 7);
  add(t, 1, kKernel, 2.7, 4.0);
  const Result r = walk(t, rules());
  // 1.3 (rank 1's kernel) + 0.7 (the message, from its send to its receipt) + 2.0 (rank 0).
  CHECK(cat(r, "computation") == Approx(3.3));
  CHECK(cat(r, "communication") == Approx(0.7));
  CHECK(r.epoch_length[0] == Approx(4.0));
  CHECK(r.unmatched == 0);
}

TEST_CASE("a send that waited for a late receiver (rendezvous): its wait is off the path") {
  Trace t = make_trace(2);
  // Rank 0 sends from 1.0; the receiver computes until 2.5, then the transfer ends at 3.1.
  add(t, 0, kIteration, 0.0, 3.0);
  add(t, 0, kKernel, 0.0, 1.0);
  add(t, 0, kSend, 1.0, 3.0, 1, 3);
  add(t, 1, kIteration, 0.0, 4.0);
  add(t, 1, kKernel, 0.0, 2.5);
  add(t, 1, kRecv, 2.5, 3.1, 0, 3);
  add(t, 1, kKernel, 3.1, 4.0);
  const Result r = walk(t, rules());
  CHECK(cat(r, "computation") == Approx(2.5 + 0.9));
  CHECK(cat(r, "communication") == Approx(0.6));

  // The same trace walked from the sender's end (make rank 0 finish last): its send waited
  // for the receive posted at 2.5, so the path goes to rank 1 there.
  Trace u = make_trace(2);
  add(u, 0, kIteration, 0.0, 5.0);
  add(u, 0, kKernel, 0.0, 1.0);
  add(u, 0, kSend, 1.0, 3.0, 1, 3);
  add(u, 0, kKernel, 3.0, 5.0);
  add(u, 1, kIteration, 0.0, 3.1);
  add(u, 1, kKernel, 0.0, 2.5);
  add(u, 1, kRecv, 2.5, 3.1, 0, 3);
  const Result s = walk(u, rules());
  CHECK(cat(s, "computation") == Approx(2.0 + 2.5));
  CHECK(cat(s, "communication") == Approx(0.5));
  CHECK(s.epoch_length[0] == Approx(5.0));
}

TEST_CASE("messages match by source, tag and order") {
  Trace t = make_trace(2);
  // Two messages with the same tag: the second receive matches the second send, which began
  // at 3.0; a message with another tag sent in between does not count.
  add(t, 0, kIteration, 0.0, 3.2);
  add(t, 0, kSend, 0.0, 0.1, 1, 5);
  add(t, 0, kSend, 1.0, 1.1, 1, 6);
  add(t, 0, kKernel, 1.1, 3.0);
  add(t, 0, kSend, 3.0, 3.2, 1, 5);
  add(t, 1, kIteration, 0.0, 3.5);
  add(t, 1, kRecv, 0.0, 0.2, 0, 5);
  add(t, 1, kRecv, 0.2, 1.2, 0, 6);
  add(t, 1, kRecv, 1.2, 3.5, 0, 5);
  const Result r = walk(t, rules());
  // 3.5 - 3.0 (second tag-5 message) on the path, then rank 0 from 3.0: kernel 1.9, the
  // tag-6 send 0.1, the gap [0.1, 1.0] (inside the iteration: fallback "other"), the first send 0.1.
  CHECK(cat(r, "communication") == Approx(0.5 + 0.1 + 0.1));
  CHECK(cat(r, "computation") == Approx(1.9));
  CHECK(cat(r, "other") == Approx(0.9));
  CHECK(r.epoch_length[0] == Approx(3.5));
}

TEST_CASE("a collective waits for the rank that entered it last") {
  Trace t = make_trace(2);
  add(t, 0, kIteration, 0.0, 2.0);
  add(t, 0, kKernel, 0.0, 1.0);
  add(t, 0, kAllreduce, 1.0, 2.0);
  add(t, 1, kIteration, 0.0, 2.0);
  add(t, 1, kKernel, 0.0, 1.8);
  add(t, 1, kAllreduce, 1.8, 2.0);
  const Result r = walk(t, rules());
  CHECK(cat(r, "reductions") == Approx(0.2));
  CHECK(cat(r, "computation") == Approx(1.8));
}

TEST_CASE("a non-blocking send: the receive waits for the post, the wait for the receive") {
  Trace t = make_trace(2);
  // Rank 0 posts at 1.0 (request 4) and waits [1.2, 2.6] for the send to complete; rank 1
  // computes until 2.0 and receives [2.0, 2.5] (the message was posted before: no wait).
  add(t, 0, kIteration, 0.0, 2.6);
  add(t, 0, kKernel, 0.0, 1.0);
  add(t, 0, kIsend, 1.0, 1.1, 1, 9, 4);
  add(t, 0, kWait, 1.2, 2.6, 1, 9, 4);
  add(t, 1, kIteration, 0.0, 2.5);
  add(t, 1, kKernel, 0.0, 2.0);
  add(t, 1, kRecv, 2.0, 2.5, 0, 9);
  const Result r = walk(t, rules());
  // From rank 0's end (2.6): its wait began at 1.2, its partner (the receive) at 2.0: the
  // wait waited for it, so [2.0, 2.6] and then rank 1's kernel [0, 2.0].
  CHECK(cat(r, "communication") == Approx(0.6));
  CHECK(cat(r, "computation") == Approx(2.0));
  CHECK(r.unmatched == 0);
}

TEST_CASE("epochs: each iteration's share, only those complete on every rank") {
  Trace t = make_trace(2);
  // Iteration 1 [0, 3], iteration 2 [3, 7]; rank 1 computes longer and enters each
  // reduction last. Rank 0 has begun a third iteration that no rank finished.
  add(t, 0, kIteration, 0.0, 3.0);
  add(t, 0, kKernel, 0.0, 2.0);
  add(t, 0, kAllreduce, 2.0, 3.0);
  add(t, 1, kIteration, 0.0, 3.0);
  add(t, 1, kKernel, 0.0, 2.5);
  add(t, 1, kAllreduce, 2.5, 3.0);
  add(t, 0, kIteration, 3.0, 7.0);
  add(t, 0, kKernel, 3.0, 5.0);
  add(t, 0, kAllreduce, 5.0, 7.0);
  add(t, 1, kIteration, 3.0, 7.0);
  add(t, 1, kKernel, 3.0, 6.5);
  add(t, 1, kAllreduce, 6.5, 7.0);
  add(t, 0, kKernel, 7.0, 8.0);
  const Result r = walk(t, rules());
  REQUIRE(r.epochs() == 2);
  CHECK(r.seconds[0][0] == Approx(2.5));  // iteration 1: rank 1's kernel
  CHECK(r.seconds[0][2] == Approx(0.5));  // and its reduction, from when rank 1 entered it
  CHECK(r.seconds[1][0] == Approx(3.5));
  CHECK(r.seconds[1][2] == Approx(0.5));
  CHECK(r.epoch_length[0] == Approx(3.0));
  CHECK(r.epoch_length[1] == Approx(4.0));
}

TEST_CASE("a gap that ends one phase and begins another is charged piece by piece") {
  Trace t = make_trace(1);
  // Iteration 1: kernel, a reduction, then 4 s untimed inside w_after (a print), 1 s
  // untimed in the iteration after w_after. Iteration 2: 0.5 s untimed in w_before before
  // the source, then a kernel.
  add(t, 0, kIteration, 0.0, 10.0);
  add(t, 0, kKernel, 0.0, 4.0);  // recorded before its sweep, as the Recorder does (at its end)
  add(t, 0, kSweep, 0.0, 4.0);
  add(t, 0, kAfter, 4.0, 9.0);
  add(t, 0, kAllreduce, 4.0, 5.0);
  add(t, 0, kIteration, 10.0, 20.0);
  add(t, 0, kBefore, 10.0, 12.0);
  add(t, 0, kSource, 10.5, 12.0);
  add(t, 0, kKernel, 12.0, 20.0);
  add(t, 0, kSweep, 12.0, 20.0);
  const Result r = walk(t, rules());
  REQUIRE(r.epochs() == 2);
  const auto col = [&](const char* c) {
    return static_cast<std::size_t>(std::find(r.categories.begin(), r.categories.end(), c) - r.categories.begin());
  };
  CHECK(r.seconds[0][col("computation")] == Approx(4.0));
  CHECK(r.seconds[0][col("reductions")] == Approx(1.0));
  CHECK(r.seconds[0][col("after")] == Approx(4.0));
  CHECK(r.seconds[0][col("other")] == Approx(1.0));
  CHECK(r.seconds[1][col("before")] == Approx(2.0));
  CHECK(r.seconds[1][col("computation")] == Approx(8.0));
  CHECK(r.epoch_length[0] == Approx(10.0));
  CHECK(r.epoch_length[1] == Approx(10.0));
  // The path itself, from its end backward, covers both iterations without a hole.
  double covered = 0.0;
  for (const Segment& s : r.path) covered += s.end - s.begin;
  CHECK(covered == Approx(20.0));
  CHECK(r.path.front().end == Approx(20.0));
  CHECK(r.path.back().begin == Approx(0.0));
}

TEST_CASE("a trace without a complete epoch gives an empty result, not an error") {
  Trace t = make_trace(1);
  add(t, 0, kKernel, 0.0, 1.0);
  const Result r = walk(t, rules());
  CHECK(r.epochs() == 0);
  CHECK(r.path.empty());
}

TEST_CASE("an eager send and a post never wait for their partner") {
  // Rank 0 sends 64 bytes [1.0, 1.2]; rank 1's receive is posted at 1.1, while the send is
  // under way. Eager (the limit is 1000 bytes): the send did not depend on the receiver, so
  // the path stays on rank 0 (its kernel before). Above the limit it would go to rank 1.
  for (const std::int64_t limit : {std::int64_t{1000}, std::int64_t{1}}) {
    Trace t = make_trace(2);
    add(t, 0, kIteration, 0.0, 3.0);
    add(t, 0, kKernel, 0.0, 1.0);
    add(t, 0, kSend, 1.0, 1.2, 1, 4);
    t.ranks[0].back().bytes = 64;
    add(t, 0, kKernel, 1.2, 3.0);
    add(t, 1, kIteration, 0.0, 2.0);
    add(t, 1, kKernel, 0.0, 1.1);
    add(t, 1, kRecv, 1.1, 1.3, 0, 4);
    Rules rl = rules();
    rl.send_waits_from_bytes = limit;
    const Result r = walk(t, rl);
    if (limit == 1000) {
      CHECK(cat(r, "computation") == Approx(1.0 + 1.8));
      CHECK(cat(r, "communication") == Approx(0.2));
    } else {
      CHECK(cat(r, "computation") == Approx(1.1 + 1.8));  // rank 1's kernel [0, 1.1]
      CHECK(cat(r, "communication") == Approx(0.1));
    }
  }
  // The post of a non-blocking send [1.0, 1.1] while the receive was posted at 1.05: the
  // post did not wait (its wait would).
  Trace u = make_trace(2);
  add(u, 0, kIteration, 0.0, 2.0);
  add(u, 0, kKernel, 0.0, 1.0);
  add(u, 0, kIsend, 1.0, 1.1, 1, 4, 7);
  add(u, 0, kKernel, 1.1, 2.0);
  add(u, 1, kIteration, 0.0, 1.5);
  add(u, 1, kKernel, 0.0, 1.05);
  add(u, 1, kRecv, 1.05, 1.5, 0, 4);
  const Result s = walk(u, rules());
  CHECK(cat(s, "computation") == Approx(1.0 + 0.9));
  CHECK(cat(s, "communication") == Approx(0.1));
}

TEST_CASE("a receive posted for any source is matched by what its wait received") {
  // Rank 1 posts an irecv for any source (-2) and any tag (-1) as request 5; its wait
  // recorded what matched: source 0, tag 3. Rank 0 sends at 1.5.
  Trace t = make_trace(2);
  t.phases.push_back("irecv");
  const auto kIrecv = static_cast<Phase>(t.phases.size() - 1);
  add(t, 0, kIteration, 0.0, 1.6);
  add(t, 0, kKernel, 0.0, 1.5);
  add(t, 0, kSend, 1.5, 1.6, 1, 3);
  add(t, 1, kIteration, 0.0, 2.0);
  add(t, 1, kIrecv, 0.1, 0.2, -2, -1, 5);
  add(t, 1, kWait, 0.2, 1.7, 0, 3, 5);
  add(t, 1, kKernel, 1.7, 2.0);
  const Result r = walk(t, rules());
  CHECK(r.unmatched == 0);
  // From rank 1's end: its kernel 0.3, the wait waited for the send (begun at 1.5) 0.2,
  // then rank 0's kernel 1.5.
  CHECK(cat(r, "computation") == Approx(0.3 + 1.5));
  CHECK(cat(r, "communication") == Approx(0.2));
}

TEST_CASE("equal intervals: the one recorded later encloses the other") {
  // A kernel and its sweep share their bounds exactly (recorded kernel first, then sweep);
  // the kernel must be the leaf, whatever the sort does with the tie.
  Trace t = make_trace(1);
  add(t, 0, kIteration, 0.0, 2.0);
  for (int k = 0; k < 40; ++k) {  // enough events that the sort is not an insertion sort
    add(t, 0, kKernel, 0.05 * k, 0.05 * (k + 1));
    add(t, 0, kSweep, 0.05 * k, 0.05 * (k + 1));
  }
  const Result r = walk(t, rules());
  CHECK(cat(r, "computation") == Approx(2.0));
}
