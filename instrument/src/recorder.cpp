#include "instrument/recorder.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "instrument/memory_budget.hpp"

namespace instrument {

Recorder::Recorder(std::size_t trace_capacity) : trace_capacity_(trace_capacity) {
#if INSTRUMENT_ENABLED
  conversion_ = &provisional_conversion();  // calibrates once per process, before any hook
  origin_ = now_ticks();
#endif
  // The events are reserved up front (recording never allocates): a capacity too large for
  // this process is refused with the figure and the limit, never a bad_alloc. Callers that
  // size the trace from input check it collectively first (sweep3d: require_run_resources).
  require_memory(saturating_product({trace_capacity_, sizeof(RecordedEvent)}), "--trace", "",
                 "a trace of " + std::to_string(trace_capacity_) + " events (" +
                     std::to_string(sizeof(RecordedEvent)) + " bytes each)");
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

double Recorder::seconds(PhaseId id) const { return totals(id).inclusive; }

PhaseTotals Recorder::totals(PhaseId id) const {
  const PhaseTicks& p = phases_.at(id);
  if (conversion_ == nullptr) return PhaseTotals{0.0, 0.0, p.calls};  // hooks compiled out
  return PhaseTotals{conversion_->seconds(p.inclusive) + p.added_seconds,
                     conversion_->seconds(p.exclusive) + p.added_seconds, p.calls};
}

std::vector<PhaseTotals> Recorder::phase_totals() const {
  std::vector<PhaseTotals> out;
  out.reserve(phases_.size());
  for (PhaseId id = 0; id < phases_.size(); ++id) out.push_back(totals(id));
  return out;
}

void Recorder::reset() noexcept {
  for (auto& p : phases_) p = PhaseTicks{};
  for (auto& c : counters_) c = 0;
  events_.clear();
  dropped_ = 0;
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

}  // namespace instrument
