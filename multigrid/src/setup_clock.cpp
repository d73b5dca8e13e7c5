// The set-up's seconds by phase (setup_clock.hpp).
#include "multigrid/setup_clock.hpp"

#include "instrument/clock.hpp"

namespace mg {

void SetupClock::add(const std::string& phase, double s) {
  for (auto& [name, total] : seconds)
    if (name == phase) {
      total += s;
      return;
    }
  seconds.emplace_back(phase, s);
}

void SetupClock::add(const SetupClock& other) {
  for (const auto& [name, s] : other.seconds) add(name, s);
}

double SetupClock::total() const {
  double t = 0;
  for (const auto& entry : seconds) t += entry.second;
  return t;
}

SetupTimer::SetupTimer(SetupClock* clock, const char* phase)
    : clock_(clock), phase_(phase), t0_(clock ? instrument::now_seconds() : 0.0) {}

SetupTimer::~SetupTimer() {
  if (clock_) clock_->add(phase_, instrument::now_seconds() - t0_);
}

}  // namespace mg
