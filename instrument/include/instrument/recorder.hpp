// Recorder: the per-rank store of named phases, counters and (optionally) trace events.
//
// Names are defined once at set-up (define_phase / define_counter allocate); code that only
// needs an existing name looks it up with phase_id / counter_id, which throw on an unknown
// name, so a typo is an error rather than a new, silently empty phase. The hot path then
// works on small integer ids into preallocated arrays: begin/end read the tick clock
// (clock.hpp) and push and pop a fixed-depth stack, counters are one add, trace events go
// into a buffer reserved up front (events past its capacity are counted as dropped, never
// reallocated). Times are kept in ticks and become seconds only when read (seconds(),
// totals()) or gathered (gather_results, with the rate measured over the whole run).
// Phases nest: each keeps inclusive time (all of it) and exclusive time (less the phases
// nested inside), so a parent's own work is visible. end(id) checks that id is the innermost
// open phase; the first mismatch is kept (nesting_error()) and gather_results refuses a run
// that has one.
//
// With INSTRUMENT_ENABLED=0 (-DSUITE_INSTRUMENT=OFF) every hook (begin, end, count, add_*,
// set_*, record_*, ScopedPhase) is an empty inline function: no clock read, no store. Names
// can still be defined and looked up; every total reads 0.
//
// One Recorder per rank and per thread: it is deliberately not thread-safe (a lock would
// cost more than the timing). Time an OpenMP region from outside, or give threads their own.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "instrument/clock.hpp"
#include "instrument/huge_pages.hpp"

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

// What the recorder keeps per phase: ticks of now_ticks() from begin/end and add_ticks, and
// seconds the caller measured otherwise (add_time, set_time), kept apart so they stay exact.
struct PhaseTicks {
  Ticks inclusive = 0;
  Ticks exclusive = 0;
  std::int64_t calls = 0;
  double added_seconds = 0.0;  // counts in both inclusive and exclusive time
};

// One interval on one rank as recorded (ticks). `kind` is a phase id; `peer` is -1 when no
// message is involved. For messages, (peer, tag) are what MPI matches on and `request` links
// the post of a non-blocking call (isend/irecv) to the wait that completes it (per rank).
struct RecordedEvent {
  Ticks t_begin = 0;
  Ticks t_end = 0;
  std::int32_t kind = 0;
  std::int32_t peer = -1;
  std::int64_t bytes = 0;
  std::int64_t work = 0;  // work units (cells, cell-angles, ...) done inside the interval
  std::int32_t tag = -1;  // MPI tag, -1 when no message is involved
  std::int32_t request = -1;
};

// The same interval gathered (gather_results): seconds from the earliest rank's recorder
// start, on one time base for all ranks (see run_results.hpp).
struct TraceEvent {
  double t_begin = 0.0;
  double t_end = 0.0;
  std::int32_t kind = 0;
  std::int32_t peer = -1;
  std::int64_t bytes = 0;
  std::int64_t work = 0;
  std::int32_t tag = -1;
  std::int32_t request = -1;
};

class Recorder {
 public:
  static constexpr int kMaxDepth = 32;

  // trace_capacity = 0 records no events (totals only). Calibrates the tick clock on the
  // process's first construction (clock_calibration(), ~5 ms) unless hooks are compiled out.
  explicit Recorder(std::size_t trace_capacity = 0);

  // Define a name, or return the id it already has; allocates, so call at set-up only.
  PhaseId define_phase(std::string_view name);
  CounterId define_counter(std::string_view name);
  // Look up a defined name; std::invalid_argument naming it when it was never defined.
  PhaseId phase_id(std::string_view name) const;
  CounterId counter_id(std::string_view name) const;

  // ---- hooks (compiled to nothing when INSTRUMENT_ENABLED=0) ----------------------------

  void begin(PhaseId id) noexcept {
#if INSTRUMENT_ENABLED
    const Ticks t = now_ticks();
    if (depth_ < kMaxDepth) stack_[depth_] = Frame{id, t, 0};
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
    const Ticks t = now_ticks();
    if (depth_ == 0) {
      note_nesting_error(id, kNoPhase);
      return;
    }
    --depth_;
    if (depth_ >= kMaxDepth) return;  // deeper than the stack: not timed, see overflowed()
    const Frame f = stack_[depth_];
    if (f.id != id) note_nesting_error(id, f.id);
    const Ticks dt = t - f.t0;
    PhaseTicks& p = phases_[f.id];  // the time belongs to the phase that was open
    p.inclusive += dt;
    p.exclusive += dt - f.child;
    ++p.calls;
    if (depth_ > 0) stack_[depth_ - 1].child += dt;
    if (trace_capacity_ != 0)
      push_event(RecordedEvent{f.t0, t, static_cast<std::int32_t>(f.id), peer, bytes, work});
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

  // Adds time the caller measured with now_ticks() to a phase. It counts as time spent
  // inside the phase open now (whose exclusive time shrinks): call it at top level for
  // quantities outside the nesting.
  void add_ticks(PhaseId id, Ticks ticks, std::int64_t calls = 1) noexcept {
#if INSTRUMENT_ENABLED
    PhaseTicks& p = phases_[id];
    p.inclusive += ticks;
    p.exclusive += ticks;
    p.calls += calls;
    if (depth_ > 0 && depth_ <= kMaxDepth) stack_[depth_ - 1].child += ticks;
#else
    (void)id; (void)ticks; (void)calls;
#endif
  }

  // add_ticks for seconds measured otherwise (kept exact; the enclosing phase's exclusive
  // time shrinks by them converted with the start calibration's rate).
  void add_time(PhaseId id, double seconds, std::int64_t calls = 1) noexcept {
#if INSTRUMENT_ENABLED
    PhaseTicks& p = phases_[id];
    p.added_seconds += seconds;
    p.calls += calls;
    if (depth_ > 0 && depth_ <= kMaxDepth) stack_[depth_ - 1].child += conversion_->ticks(seconds);
#else
    (void)id; (void)seconds; (void)calls;
#endif
  }

  // Sets a derived phase (one no scope encloses, e.g. a wait/transfer split) or a counter to
  // totals computed elsewhere; setting the same values again changes nothing.
  void set_ticks(PhaseId id, Ticks ticks, std::int64_t calls) noexcept {
#if INSTRUMENT_ENABLED
    phases_[id] = PhaseTicks{ticks, ticks, calls, 0.0};
#else
    (void)id; (void)ticks; (void)calls;
#endif
  }
  void set_time(PhaseId id, double seconds, std::int64_t calls) noexcept {
#if INSTRUMENT_ENABLED
    phases_[id] = PhaseTicks{0, 0, calls, seconds};
#else
    (void)id; (void)seconds; (void)calls;
#endif
  }
  void set_count(CounterId id, std::int64_t value) noexcept {
#if INSTRUMENT_ENABLED
    counters_[id] = value;
#else
    (void)id; (void)value;
#endif
  }

  // Records an interval the caller timed with now_ticks() (the MPI wrappers do).
  void record_interval(PhaseId id, Ticks t_begin, Ticks t_end, std::int32_t peer = -1,
                       std::int64_t bytes = 0, std::int64_t work = 0, std::int32_t tag = -1,
                       std::int32_t request = -1) noexcept {
#if INSTRUMENT_ENABLED
    if (trace_capacity_ != 0)
      push_event(RecordedEvent{t_begin, t_end, static_cast<std::int32_t>(id), peer, bytes, work,
                               tag, request});
#else
    (void)id; (void)t_begin; (void)t_end; (void)peer; (void)bytes; (void)work; (void)tag;
    (void)request;
#endif
  }
  // The same for an interval timed with now_seconds(): converted with the start
  // calibration's rate, so less exact over a long run than begin/end or record_interval.
  void record_event(PhaseId id, double t_begin, double t_end, std::int32_t peer,
                    std::int64_t bytes, std::int64_t work = 0, std::int32_t tag = -1,
                    std::int32_t request = -1) noexcept {
#if INSTRUMENT_ENABLED
    if (trace_capacity_ != 0)
      record_interval(id, conversion_->ticks_at(t_begin), conversion_->ticks_at(t_end), peer,
                      bytes, work, tag, request);
#else
    (void)id; (void)t_begin; (void)t_end; (void)peer; (void)bytes; (void)work; (void)tag;
    (void)request;
#endif
  }

  // ---- set-up and reading ---------------------------------------------------------------

  // Zero every total and drop the trace, keeping the names (e.g. after a warm-up).
  void reset() noexcept;

  // A phase's inclusive seconds and closed calls so far (0 with hooks compiled out), with
  // the start calibration's rate: for figures printed during the run. Results use
  // gather_results, which converts with the rate over the whole run.
  double seconds(PhaseId id) const;
  std::int64_t calls(PhaseId id) const { return phases_.at(id).calls; }
  PhaseTotals totals(PhaseId id) const;
  std::vector<PhaseTotals> phase_totals() const;

  const std::vector<std::string>& phase_names() const noexcept { return phase_names_; }
  const std::vector<PhaseTicks>& phase_ticks() const noexcept { return phases_; }
  const std::vector<std::string>& counter_names() const noexcept { return counter_names_; }
  const std::vector<std::int64_t>& counter_values() const noexcept { return counters_; }
  const std::vector<RecordedEvent>& trace_events() const noexcept { return events_; }
  std::int64_t trace_dropped() const noexcept { return dropped_; }
  bool tracing() const noexcept { return trace_capacity_ != 0; }
  // Touches the storage of the next `events` trace events (at most to the capacity), outside
  // the caller's timed work: the buffer is reserved, not touched, so a first touch inside a
  // timed loop (~10 us a 4 KiB page of 85 events on a guest with shadow paging) was timed as
  // its work (in tycho's steps, the trace's share of ~0.8 us a step at MCPS 64, with the step
  // history's growth). Nothing is recorded.
  void touch_trace_room(std::size_t events) noexcept {
    // Within the reserve: no allocation.
    touch_room(events_, events_.size() + std::min(events, trace_capacity_ - events_.size()));
  }
  Ticks origin() const noexcept { return origin_; }  // now_ticks() at construction
  int open_depth() const noexcept { return depth_; }
  bool overflowed() const noexcept { return overflowed_; }
  // The first mis-nesting, e.g. "end(sweep) while send is open"; "" when there was none.
  std::string nesting_error() const;
  // The innermost open phase's name, "" when none is open.
  std::string open_phase() const;

  std::int64_t value(CounterId id) const { return counters_.at(id); }

 private:
  static constexpr PhaseId kNoPhase = ~PhaseId{0};
  struct Frame {
    PhaseId id;
    Ticks t0;
    Ticks child;  // ticks spent in phases nested inside this one
  };
  // Cold path: keeps the first mismatch as ids (no allocation in a noexcept hook).
  void note_nesting_error(PhaseId ended, PhaseId open) noexcept {
    if (nesting_ended_ != kNoPhase) return;
    nesting_ended_ = ended;
    nesting_open_ = open;
  }
  void push_event(const RecordedEvent& e) noexcept {
    if (events_.size() < trace_capacity_) events_.push_back(e);  // never reallocates
    else ++dropped_;
  }

  std::array<Frame, kMaxDepth> stack_{};
  int depth_ = 0;
  bool overflowed_ = false;
  std::vector<std::string> phase_names_;
  std::vector<PhaseTicks> phases_;
  std::vector<std::string> counter_names_;
  std::vector<std::int64_t> counters_;
  std::size_t trace_capacity_ = 0;
  std::vector<RecordedEvent> events_;
  std::int64_t dropped_ = 0;
  Ticks origin_ = 0;
  const ClockConversion* conversion_ = nullptr;  // the start calibration's (hooks on only)
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
