// A received message's face records put where their tasks read them (sweep_plan.hpp's record
// layout): each record's values into the ghost slot of its (face, direction), or the lagged
// slot for the next iteration, and the task it feeds told one input more has come. The sweep
// engine calls it for every message it receives; the calibration times it on synthetic
// records (unpack_probe.hpp), so the models price the unpack the run really does.
#pragma once
#include <cstddef>
#include <vector>

#include "ready_queue.hpp"
#include "tycho/sweep_plan.hpp"

namespace tycho {

// std::logic_error naming the rank, face and direction for a record that is not one of
// plan's remote (face, direction) pairs.
void unpack_face_records(const SweepPlan& plan, const double* records, std::size_t count, std::vector<double>& ghost,
                         std::vector<double>& lag_next, ReadyQueueImpl& ready);

}  // namespace tycho
