// The set-up's seconds by phase (refinement, METIS, inheritance, the exchange plans, ...), as
// this process measured them, in the order the phases first ran: the run's phase table
// shows them as setup.<phase> beside the cycle's phases, so a slow set-up says where its
// time goes (issue 40).
#pragma once
#include <string>
#include <utility>
#include <vector>

namespace mg {

struct SetupClock {
  std::vector<std::pair<std::string, double>> seconds;  // (phase, seconds), first run first

  // Adds to `phase`'s seconds (a phase that runs once per grid sums over the grids).
  void add(const std::string& phase, double s);
  // Adds every phase of `other`, in its order.
  void add(const SetupClock& other);
  double total() const;
};

// Times a scope into clock->add(phase, ...); a null clock times nothing.
class SetupTimer {
 public:
  SetupTimer(SetupClock* clock, const char* phase);
  SetupTimer(const SetupTimer&) = delete;
  SetupTimer& operator=(const SetupTimer&) = delete;
  ~SetupTimer();

 private:
  SetupClock* clock_;
  const char* phase_;
  double t0_;
};

}  // namespace mg
