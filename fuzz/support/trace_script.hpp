// Structure-aware input for the replay reader (instrument/replay_trace.hpp): the fuzz input
// read as a short script of a message-passing run, laid out as the GatheredTrace its
// recorders would have gathered, so that most inputs are traces a real run could make and
// reach the engine, not only the reader's first checks.
//
// The script: a header (ranks 1..8, whether epochs are recorded), then steps until the input
// ends: compute on a rank (a leaf with or without work), untimed time, a message between two
// ranks (blocking or posted on either side, a posted receive from any source or tag resolved
// by its wait, as comm.cpp records them), a wait on one of a rank's outstanding requests, a
// collective on every rank, a sweep phase opened or closed around later events, the end of an
// epoch ("iteration"), or a damage to an event already laid out: a kind unknown or out of
// range, times reversed, not finite or huge, a peer, tag, bytes, work or request out of range,
// dropped events, an event lost, duplicated or moved. Steps issued in one global order make
// an undamaged program deadlock-free, so the engine runs it to the end.
//
// Bounded so that no input makes the reader or the engine run long: at most kMaxTraceRanks
// ranks of at most kMaxTraceEvents events each.
#pragma once
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include "instrument/recorder.hpp"
#include "instrument/run_results.hpp"

namespace fuzz {

inline constexpr int kMaxTraceRanks = 8;
inline constexpr std::size_t kMaxTraceEvents = 256;  // per rank

// The phase names of a traced run: an app's compute phases (sweep3d's) and the Comm
// wrappers' (instrument/comm.hpp), indexed as the script's kinds.
enum TraceKind : std::int32_t {
  kIteration, kSweep, kSweepCompute, kSource, kFluxErr,
  kSend, kRecv, kIsend, kIrecv, kWait, kAllreduce, kBarrier, kBcast, kTraceKinds
};
inline constexpr std::array<const char*, kTraceKinds> kTraceKindNames = {
    "iteration", "sweep", "sweep_compute", "source", "flux_err", "send", "recv",
    "isend",     "irecv", "wait",          "allreduce", "barrier", "bcast"};

class TraceScript {
 public:
  explicit TraceScript(FuzzedDataProvider& in) : in_(in) {}

  instrument::GatheredTrace build() {
    const int nranks = in_.ConsumeIntegralInRange<int>(1, kMaxTraceRanks);
    epochs_ = in_.ConsumeIntegralInRange<int>(0, 7) != 0;  // mostly: whole traces are rarer
    damages_left_ = in_.ConsumeBool() ? 0 : in_.ConsumeIntegralInRange<int>(1, 3);  // half intact
    ranks_.resize(static_cast<std::size_t>(nranks));
    trace_.kinds.assign(kTraceKindNames.begin(), kTraceKindNames.end());
    trace_.dropped.assign(static_cast<std::size_t>(nranks), 0);
    for (auto& r : ranks_) r.t = r.epoch_begin = tick() * in_.ConsumeIntegralInRange<int>(0, 50);
    while (in_.remaining_bytes() > 0 && !full()) step();
    finish();
    trace_.per_rank.resize(ranks_.size());
    for (std::size_t r = 0; r < ranks_.size(); ++r) {
      auto& ev = ranks_[r].events;
      if (ev.size() > kMaxTraceEvents) ev.resize(kMaxTraceEvents);  // a duplicating damage
      trace_.per_rank[r] = std::move(ev);
    }
    return std::move(trace_);
  }

 private:
  // An isend or irecv waiting for its wait: what the wait records.
  struct Outstanding {
    std::int32_t request = -1, peer = -1, tag = -1;
    std::int64_t bytes = 0;
  };
  struct Rank {
    double t = 0.0;  // its clock: the next event begins here
    std::vector<instrument::TraceEvent> events;  // in the order they end (recorded)
    std::vector<Outstanding> outstanding;
    std::int32_t next_request = 0;
    double epoch_begin = 0.0, sweep_begin = 0.0;
    bool in_sweep = false;
  };

  static constexpr double tick() { return 1e-7; }
  // Room for the last step (a message or collective adds one event to a rank) and for
  // finish(): a sweep and an iteration closed, and every outstanding request waited.
  static constexpr std::size_t kMaxOutstanding = 32;
  static constexpr std::size_t kScriptEvents = kMaxTraceEvents - kMaxOutstanding - 4;

  bool full() const {
    return std::any_of(ranks_.begin(), ranks_.end(),
                       [](const Rank& r) { return r.events.size() >= kScriptEvents; });
  }

  int nranks() const { return static_cast<int>(ranks_.size()); }
  int some_rank() { return in_.ConsumeIntegralInRange<int>(0, nranks() - 1); }
  Rank& rank(int r) { return ranks_[static_cast<std::size_t>(r)]; }
  double duration() { return tick() * in_.ConsumeIntegralInRange<int>(1, 256); }

  std::int64_t message_bytes() {
    // Around the machine's s = 64 and S = 1024 (the fuzz target's): eager and rendezvous.
    static constexpr std::array<std::int64_t, 12> kBytes = {0,    1,    8,    63,    64,    65,
                                                            1023, 1024, 1025, 4096, 65536, 1 << 20};
    return kBytes[in_.ConsumeIntegralInRange<std::size_t>(0, kBytes.size() - 1)];
  }

  // Appends a completed event of rank r: [t, t + d], the clock moves to its end.
  instrument::TraceEvent& emit(int r, TraceKind kind, double d) {
    Rank& rk = rank(r);
    instrument::TraceEvent e;
    e.t_begin = rk.t;
    e.t_end = rk.t + d;
    e.kind = kind;
    rk.t = e.t_end;
    rk.events.push_back(e);
    return rk.events.back();
  }

  void step() {
    switch (in_.ConsumeIntegralInRange<int>(0, 15)) {
      case 0: case 1: case 2: compute(some_rank()); break;
      case 3: rank(some_rank()).t += tick() * in_.ConsumeIntegralInRange<int>(0, 100); break;
      case 4: case 5: case 6: case 7: message(); break;
      case 8: case 9: wait_one(some_rank(), false); break;
      case 10: collective(); break;
      case 11: toggle_sweep(some_rank()); break;
      case 12: end_epoch(); break;
      default:
        if (damages_left_ > 0) {
          --damages_left_;
          damage();
        }
        break;
    }
  }

  void compute(int r) {
    if (in_.ConsumeBool()) {
      emit(r, kSweepCompute, duration()).work = in_.ConsumeIntegralInRange<std::int64_t>(1, 4096);
    } else {
      emit(r, in_.ConsumeBool() ? kSource : kFluxErr, duration());
    }
  }

  void message() {
    if (nranks() < 2) return;
    const int from = some_rank();
    const int to = (from + in_.ConsumeIntegralInRange<int>(1, nranks() - 1)) % nranks();
    const std::int32_t tag = in_.ConsumeIntegralInRange<std::int32_t>(0, 3);
    const std::int64_t bytes = message_bytes();
    // The sender.
    const bool posted_send = in_.ConsumeBool() && rank(from).outstanding.size() < kMaxOutstanding;
    auto& s = emit(from, posted_send ? kIsend : kSend, duration());
    s.peer = to;
    s.tag = tag;
    s.bytes = bytes;
    if (posted_send) post(from, s, Outstanding{-1, to, tag, bytes});
    // The receiver: a post may ask for any source (-2 = MPI_ANY_SOURCE in MPICH) or any tag
    // (-1), and a capacity above the message; its wait records what was matched.
    const bool posted_recv = in_.ConsumeBool() && rank(to).outstanding.size() < kMaxOutstanding;
    auto& q = emit(to, posted_recv ? kIrecv : kRecv, duration());
    q.peer = posted_recv && in_.ConsumeBool() ? -2 : from;
    q.tag = posted_recv && in_.ConsumeBool() ? -1 : tag;
    q.bytes = bytes + (in_.ConsumeBool() ? 0 : 64);
    if (posted_recv) post(to, q, Outstanding{-1, from, tag, bytes});
    if (posted_send && in_.ConsumeBool()) wait_one(from, true);
    if (posted_recv && in_.ConsumeBool()) wait_one(to, true);
  }

  void post(int r, instrument::TraceEvent& e, Outstanding o) {
    e.request = o.request = rank(r).next_request++;
    rank(r).outstanding.push_back(o);
  }

  // Waits on one outstanding request of rank r: the latest one, or one the input picks.
  void wait_one(int r, bool latest) {
    auto& out = rank(r).outstanding;
    if (out.empty()) return;
    const std::size_t i = latest ? out.size() - 1 : in_.ConsumeIntegralInRange<std::size_t>(0, out.size() - 1);
    const Outstanding o = out[i];
    out.erase(out.begin() + static_cast<std::ptrdiff_t>(i));
    auto& w = emit(r, kWait, duration());
    w.peer = o.peer;
    w.tag = o.tag;
    w.bytes = o.bytes;
    w.request = o.request;
  }

  void collective() {
    const int which = in_.ConsumeIntegralInRange<int>(0, 2);
    const TraceKind kind = which == 0 ? kAllreduce : which == 1 ? kBarrier : kBcast;
    const std::int64_t bytes = kind == kBarrier ? 0 : message_bytes();
    const int root = some_rank();
    for (int r = 0; r < nranks(); ++r) {
      auto& e = emit(r, kind, duration());
      e.bytes = bytes;
      e.peer = kind == kBcast ? root : -1;
    }
  }

  void toggle_sweep(int r) {
    Rank& rk = rank(r);
    if (!rk.in_sweep) {
      rk.sweep_begin = rk.t;
      rk.in_sweep = true;
      return;
    }
    close_sweep(r);
  }

  void close_sweep(int r) {
    Rank& rk = rank(r);
    if (!rk.in_sweep) return;
    instrument::TraceEvent e;
    e.t_begin = rk.sweep_begin;
    e.t_end = rk.t;
    e.kind = kSweep;
    rk.events.push_back(e);  // its work is its leaves'
    rk.in_sweep = false;
  }

  // Every rank closes its sweep and iteration (waiting for its outstanding requests first,
  // unless the input leaves them to the next epoch) and opens the next.
  void end_epoch() {
    const bool drain = in_.ConsumeIntegralInRange<int>(0, 3) != 0;
    for (int r = 0; r < nranks(); ++r) {
      if (drain)
        while (!rank(r).outstanding.empty()) wait_one(r, true);
      close_sweep(r);
      Rank& rk = rank(r);
      if (epochs_) {
        instrument::TraceEvent e;
        e.t_begin = rk.epoch_begin;
        e.t_end = rk.t;
        e.kind = kIteration;
        rk.events.push_back(e);
      }
      rk.epoch_begin = rk.t;
    }
  }

  void finish() {
    if (in_.ConsumeIntegralInRange<int>(0, 3) != 0) {
      end_epoch();
    } else {  // the last epoch left incomplete: a run cut off
      for (int r = 0; r < nranks(); ++r) close_sweep(r);
    }
  }

  // ---- damages -------------------------------------------------------------------------

  void damage() {
    const int r = some_rank();
    auto& ev = rank(r).events;
    if (ev.empty()) return;
    const std::size_t i = in_.ConsumeIntegralInRange<std::size_t>(0, ev.size() - 1);
    instrument::TraceEvent& e = ev[i];
    switch (in_.ConsumeIntegralInRange<int>(0, 11)) {
      case 0: e.kind = odd_kind(); break;
      case 1: odd_times(e); break;
      case 2: e.peer = pick<std::int32_t>({-1, -2, nranks(), r, 0, std::numeric_limits<std::int32_t>::min(),
                                           std::numeric_limits<std::int32_t>::max()}); break;
      case 3: e.tag = pick<std::int32_t>({-1, -2, 4, std::numeric_limits<std::int32_t>::min(),
                                          std::numeric_limits<std::int32_t>::max()}); break;
      case 4: e.bytes = pick<std::int64_t>({-1, std::int64_t{1} << 40, std::numeric_limits<std::int64_t>::min(),
                                            std::numeric_limits<std::int64_t>::max()}); break;
      case 5: e.work = pick<std::int64_t>({-1, 0, std::int64_t{1} << 62, std::numeric_limits<std::int64_t>::min(),
                                           std::numeric_limits<std::int64_t>::max()}); break;
      case 6: e.request = pick<std::int32_t>({-1, 0, 1, rank(r).next_request,
                                              std::numeric_limits<std::int32_t>::max()}); break;
      case 7: trace_.dropped[static_cast<std::size_t>(r)] = pick<std::int64_t>({1, -1, std::numeric_limits<std::int64_t>::max()}); break;
      case 8: ev.erase(ev.begin() + static_cast<std::ptrdiff_t>(i)); break;
      case 9: ev.push_back(ev[i]); break;
      case 10: std::swap(ev[i], ev[in_.ConsumeIntegralInRange<std::size_t>(0, ev.size() - 1)]); break;
      default: ev.clear(); break;
    }
  }

  template <class T>
  T pick(std::initializer_list<T> values) {
    return values.begin()[in_.ConsumeIntegralInRange<std::size_t>(0, values.size() - 1)];
  }

  // A kind the reader does not know as a call: a new phase name (maybe a call's name with a
  // difference, or empty), a duplicate of a known name, or an index outside /trace/kinds.
  std::int32_t odd_kind() {
    switch (in_.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: trace_.kinds.push_back(in_.ConsumeRandomLengthString(12)); break;
      case 1: trace_.kinds.push_back(kTraceKindNames[in_.ConsumeIntegralInRange<std::size_t>(0, kTraceKinds - 1)]); break;
      case 2: return static_cast<std::int32_t>(trace_.kinds.size());
      default: return pick<std::int32_t>({-1, std::numeric_limits<std::int32_t>::min(), std::numeric_limits<std::int32_t>::max()});
    }
    return static_cast<std::int32_t>(trace_.kinds.size() - 1);
  }

  void odd_times(instrument::TraceEvent& e) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    const double odd = pick<double>({std::numeric_limits<double>::quiet_NaN(), inf, -inf, 1e308, -1e308,
                                     std::numeric_limits<double>::max(), 0.0, -1.0,
                                     std::numeric_limits<double>::denorm_min()});
    switch (in_.ConsumeIntegralInRange<int>(0, 3)) {
      case 0: e.t_begin = odd; break;
      case 1: e.t_end = odd; break;
      case 2: std::swap(e.t_begin, e.t_end); break;  // reversed
      default: e.t_begin -= tick() * in_.ConsumeIntegralInRange<int>(1, 300); break;  // overlaps others
    }
  }

  FuzzedDataProvider& in_;
  instrument::GatheredTrace trace_;
  std::vector<Rank> ranks_;
  bool epochs_ = true;
  int damages_left_ = 0;
};

}  // namespace fuzz
