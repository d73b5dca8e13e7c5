#include "instrument/recorder.hpp"

#include <algorithm>

namespace instrument {

Recorder::Recorder(std::size_t trace_capacity)
    : trace_capacity_(trace_capacity), origin_(now_seconds()) {
  events_.reserve(trace_capacity_);
  phase_names_.reserve(64);
  phases_.reserve(64);
  counter_names_.reserve(64);
  counters_.reserve(64);
}

PhaseId Recorder::phase(std::string_view name) {
  const auto it = std::find(phase_names_.begin(), phase_names_.end(), name);
  if (it != phase_names_.end()) return static_cast<PhaseId>(it - phase_names_.begin());
  phase_names_.emplace_back(name);
  phases_.emplace_back();
  return static_cast<PhaseId>(phases_.size() - 1);
}

CounterId Recorder::counter(std::string_view name) {
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

void Recorder::record_event(PhaseId id, double t_begin, double t_end, std::int32_t peer,
                            std::int64_t bytes, std::int64_t work) noexcept {
  if (trace_capacity_ == 0) return;
  push_event(TraceEvent{t_begin - origin_, t_end - origin_, static_cast<std::int32_t>(id), peer,
                        bytes, work});
}

void Recorder::reset() noexcept {
  for (auto& p : phases_) p = PhaseTotals{};
  for (auto& c : counters_) c = 0;
  events_.clear();
  dropped_ = 0;
}

}  // namespace instrument
