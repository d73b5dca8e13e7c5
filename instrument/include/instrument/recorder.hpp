// Recorder: the per-rank store of named phases, counters and (optionally) trace events.
//
// Names are defined once at set-up (define_phase / define_counter allocate); code that only
// needs an existing name looks it up with phase_id / counter_id, which throw on an unknown
// name, so a typo is an error rather than a new, silently empty phase. The hot path then
// works on small integer ids into preallocated arrays: begin/end push and pop a fixed-depth stack, counters
// are one add, trace events go into a buffer reserved up front (events past its capacity are
// counted as dropped, never reallocated). Phases nest: each keeps inclusive time (all of
// it) and exclusive time (less the phases nested inside), so a parent's own work is visible.
// end(id) checks that id is the innermost open phase; the first mismatch is kept
// (nesting_error()) and gather_results refuses a run that has one.
//
// One Recorder per rank and per thread: it is deliberately not thread-safe (a lock would
// cost more than the timing). Time an OpenMP region from outside, or give threads their own.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "instrument/clock.hpp"

#ifndef INSTRUMENT_ENABLED
#define INSTRUMENT_ENABLED 1
#endif

namespace instrument {

using PhaseId = std::uint32_t;
using CounterId = std::uint32_t;

struct PhaseTotals {
  double inclusive = 0.0;  // seconds, including nested phases
  double exclusive = 0.0;  // seconds, less the nested phases
  std::int64_t calls = 0;
};

// One interval on one rank. `kind` is a phase id; `peer` is -1 when no message is involved.
// For messages, (peer, tag) are what MPI matches on and `request` links the post of a
// non-blocking call (isend/irecv) to the wait that completes it (a per-rank number).
struct TraceEvent {
  double t_begin = 0.0;  // seconds since the Recorder's origin
  double t_end = 0.0;
  std::int32_t kind = 0;
  std::int32_t peer = -1;
  std::int64_t bytes = 0;
  std::int64_t work = 0;  // work units (cells, cell-angles, ...) done inside the interval
  std::int32_t tag = -1;  // MPI tag, -1 when no message is involved
  std::int32_t request = -1;
};

class Recorder {
 public:
  static constexpr int kMaxDepth = 32;

  // trace_capacity = 0 records no events (totals only).
  explicit Recorder(std::size_t trace_capacity = 0);

  // Define a name, or return the id it already has; allocates, so call at set-up only.
  PhaseId define_phase(std::string_view name);
  CounterId define_counter(std::string_view name);
  // Look up a defined name; std::invalid_argument naming it when it was never defined.
  PhaseId phase_id(std::string_view name) const;
  CounterId counter_id(std::string_view name) const;

  void begin(PhaseId id) noexcept {
#if INSTRUMENT_ENABLED
    if (depth_ < kMaxDepth) stack_[depth_] = Frame{id, now_seconds(), 0.0};
    else overflowed_ = true;
    ++depth_;
#else
    (void)id;
#endif
  }

  // Closes the innermost open phase, which must be `id` (a mismatch is kept as
  // nesting_error() and the innermost phase is closed); `work` is stored in the trace.
  void end(PhaseId id, std::int64_t work = 0, std::int32_t peer = -1,
           std::int64_t bytes = 0) noexcept {
#if INSTRUMENT_ENABLED
    const double t = now_seconds();
    if (depth_ == 0) {
      note_nesting_error(id, kNoPhase);
      return;
    }
    --depth_;
    if (depth_ >= kMaxDepth) return;  // deeper than the stack: not timed, see overflowed()
    const Frame f = stack_[depth_];
    if (f.id != id) note_nesting_error(id, f.id);
    id = f.id;  // the time belongs to the phase that was open
    const double dt = t - f.t0;
    PhaseTotals& p = phases_[id];
    p.inclusive += dt;
    p.exclusive += dt - f.child;
    ++p.calls;
    if (depth_ > 0 && depth_ <= kMaxDepth) stack_[depth_ - 1].child += dt;
    if (trace_capacity_ != 0) push_event(TraceEvent{f.t0 - origin_, t - origin_,
                                                    static_cast<std::int32_t>(id), peer, bytes, work});
#else
    (void)id; (void)work; (void)peer; (void)bytes;
#endif
  }

  void count(CounterId id, std::int64_t n = 1) noexcept {
#if INSTRUMENT_ENABLED
    counters_[id] += n;
#else
    (void)id; (void)n;
#endif
  }

  // Adds time measured by the caller to a phase. The time counts as spent inside the phase
  // open now (its exclusive time shrinks), so call it at top level for derived quantities.
  void add_time(PhaseId id, double seconds, std::int64_t calls = 1) noexcept;
  // Sets a derived phase (one no scope encloses, e.g. a wait/transfer split) or a counter to
  // totals computed elsewhere; setting the same values again changes nothing.
  void set_time(PhaseId id, double seconds, std::int64_t calls) noexcept;
  void set_count(CounterId id, std::int64_t value) noexcept;
  // Records an interval measured by the caller (used by the MPI wrappers).
  void record_event(PhaseId id, double t_begin, double t_end, std::int32_t peer,
                    std::int64_t bytes, std::int64_t work = 0, std::int32_t tag = -1,
                    std::int32_t request = -1) noexcept;

  // Zero every total and drop the trace, keeping the names (e.g. after a warm-up).
  void reset() noexcept;

  const std::vector<std::string>& phase_names() const noexcept { return phase_names_; }
  const std::vector<PhaseTotals>& phase_totals() const noexcept { return phases_; }
  const std::vector<std::string>& counter_names() const noexcept { return counter_names_; }
  const std::vector<std::int64_t>& counter_values() const noexcept { return counters_; }
  const std::vector<TraceEvent>& trace_events() const noexcept { return events_; }
  std::int64_t trace_dropped() const noexcept { return dropped_; }
  bool tracing() const noexcept { return trace_capacity_ != 0; }
  double origin() const noexcept { return origin_; }
  int open_depth() const noexcept { return depth_; }
  bool overflowed() const noexcept { return overflowed_; }
  // The first mis-nesting, e.g. "end(sweep) while send is open"; "" when there was none.
  std::string nesting_error() const;
  // The innermost open phase's name, "" when none is open.
  std::string open_phase() const;

  const PhaseTotals& totals(PhaseId id) const { return phases_.at(id); }
  std::int64_t value(CounterId id) const { return counters_.at(id); }

 private:
  static constexpr PhaseId kNoPhase = ~PhaseId{0};
  struct Frame {
    PhaseId id;
    double t0;
    double child;
  };
  // Cold path: keeps the first mismatch as ids (no allocation in a noexcept hook).
  void note_nesting_error(PhaseId ended, PhaseId open) noexcept {
    if (nesting_ended_ != kNoPhase) return;
    nesting_ended_ = ended;
    nesting_open_ = open;
  }
  void push_event(const TraceEvent& e) noexcept {
    if (events_.size() < trace_capacity_) events_.push_back(e);  // never reallocates
    else ++dropped_;
  }

  std::array<Frame, kMaxDepth> stack_{};
  int depth_ = 0;
  bool overflowed_ = false;
  std::vector<std::string> phase_names_;
  std::vector<PhaseTotals> phases_;
  std::vector<std::string> counter_names_;
  std::vector<std::int64_t> counters_;
  std::size_t trace_capacity_ = 0;
  std::vector<TraceEvent> events_;
  std::int64_t dropped_ = 0;
  double origin_ = 0.0;
  PhaseId nesting_ended_ = kNoPhase;  // the first end() that did not match, or kNoPhase
  PhaseId nesting_open_ = kNoPhase;   // the phase open at that end(), kNoPhase if none
};

// RAII phase scope: `ScopedPhase s(rec, id);` times the rest of the block.
class ScopedPhase {
 public:
  ScopedPhase(Recorder& r, PhaseId id) noexcept : r_(r), id_(id) { r_.begin(id_); }
  ~ScopedPhase() { r_.end(id_, work_); }
  ScopedPhase(const ScopedPhase&) = delete;
  ScopedPhase& operator=(const ScopedPhase&) = delete;
  // Work units done inside this scope, stored with its trace event.
  void set_work(std::int64_t w) noexcept { work_ = w; }

 private:
  Recorder& r_;
  PhaseId id_;
  std::int64_t work_ = 0;
};

}  // namespace instrument
