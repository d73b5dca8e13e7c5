#include "instrument/recorder.hpp"

#include <algorithm>
#include <stdexcept>

namespace instrument {

Recorder::Recorder(std::size_t trace_capacity)
    : trace_capacity_(trace_capacity), origin_(now_seconds()) {
  events_.reserve(trace_capacity_);
  phase_names_.reserve(64);
  phases_.reserve(64);
  counter_names_.reserve(64);
  counters_.reserve(64);
}

namespace {
template <class Id>
Id find_name(const std::vector<std::string>& names, std::string_view name, const char* what) {
  const auto it = std::find(names.begin(), names.end(), name);
  if (it == names.end())
    throw std::invalid_argument(std::string("Recorder: no ") + what + " named '" +
                                std::string(name) + "' (define it at set-up)");
  return static_cast<Id>(it - names.begin());
}
}  // namespace

PhaseId Recorder::phase_id(std::string_view name) const {
  return find_name<PhaseId>(phase_names_, name, "phase");
}

CounterId Recorder::counter_id(std::string_view name) const {
  return find_name<CounterId>(counter_names_, name, "counter");
}

PhaseId Recorder::define_phase(std::string_view name) {
  const auto it = std::find(phase_names_.begin(), phase_names_.end(), name);
  if (it != phase_names_.end()) return static_cast<PhaseId>(it - phase_names_.begin());
  phase_names_.emplace_back(name);
  phases_.emplace_back();
  return static_cast<PhaseId>(phases_.size() - 1);
}

CounterId Recorder::define_counter(std::string_view name) {
  const auto it = std::find(counter_names_.begin(), counter_names_.end(), name);
  if (it != counter_names_.end()) return static_cast<CounterId>(it - counter_names_.begin());
  counter_names_.emplace_back(name);
  counters_.push_back(0);
  return static_cast<CounterId>(counters_.size() - 1);
}

void Recorder::add_time(PhaseId id, double seconds, std::int64_t calls) noexcept {
  PhaseTotals& p = phases_[id];
  p.inclusive += seconds;
  p.exclusive += seconds;
  p.calls += calls;
  if (depth_ > 0 && depth_ <= kMaxDepth) stack_[depth_ - 1].child += seconds;
}

void Recorder::set_time(PhaseId id, double seconds, std::int64_t calls) noexcept {
#if INSTRUMENT_ENABLED
  phases_[id] = PhaseTotals{seconds, seconds, calls};
#else
  (void)id; (void)seconds; (void)calls;
#endif
}

void Recorder::set_count(CounterId id, std::int64_t value) noexcept {
#if INSTRUMENT_ENABLED
  counters_[id] = value;
#else
  (void)id; (void)value;
#endif
}

void Recorder::record_event(PhaseId id, double t_begin, double t_end, std::int32_t peer,
                            std::int64_t bytes, std::int64_t work, std::int32_t tag,
                            std::int32_t request) noexcept {
  if (trace_capacity_ == 0) return;
  push_event(TraceEvent{t_begin - origin_, t_end - origin_, static_cast<std::int32_t>(id), peer,
                        bytes, work, tag, request});
}

std::string Recorder::nesting_error() const {
  if (nesting_ended_ == kNoPhase) return "";
  const auto name = [&](PhaseId id) {
    return id < phase_names_.size() ? phase_names_[id] : "phase " + std::to_string(id);
  };
  if (nesting_open_ == kNoPhase) return "end(" + name(nesting_ended_) + ") with no phase open";
  return "end(" + name(nesting_ended_) + ") while " + name(nesting_open_) + " is open";
}

std::string Recorder::open_phase() const {
  if (depth_ <= 0 || depth_ > kMaxDepth) return depth_ > kMaxDepth ? "(deeper than the stack)" : "";
  return phase_names_.at(stack_[depth_ - 1].id);
}

void Recorder::reset() noexcept {
  for (auto& p : phases_) p = PhaseTotals{};
  for (auto& c : counters_) c = 0;
  events_.clear();
  dropped_ = 0;
}

}  // namespace instrument
