// The per-step records of the sweep (step_history.hpp) laid out per iteration and step number,
// as the models of Kerbyson, Hoisie & Pautz index them: Work(P, S) and the messages N_c(S, P)
// of rank P in step S of one iteration. Steps are numbered per rank and per iteration from 0;
// a step a rank did not record (it finished its sweep earlier) counts as no work and no
// message, which is how eq. 4 and eq. 6 take "max over P" of a step some ranks never reached.
//
// The histories come from the sweep, not from a user: a record that breaks the contract (a
// negative iteration, step, work or byte count, a step recorded twice) is a bug and throws std::invalid_argument naming the rank and the record.
#pragma once
#include <cstdint>
#include <vector>

#include "tycho/step_history.hpp"

namespace tycho::model {

// The iteration numbers present in any rank's step records, ascending, each once.
std::vector<std::int32_t> iterations_in(const std::vector<RankHistory>& ranks);

// Work(rank, S) of `iteration`: cell-angle tasks, indexed by step number S; its size is 1 + the
// largest step number recorded (empty if the rank recorded none in that iteration).
std::vector<std::int64_t> work_by_step(const RankHistory& history, int rank,
                                       std::int32_t iteration);

// The messages `rank` sent in each step of `iteration` (indexed by step number, each in the
// order the rank sent them); size 1 + the largest step of a step record or a sent message.
std::vector<std::vector<MessageRecord>> sends_by_step(const RankHistory& history, int rank,
                                                      std::int32_t iteration);

}  // namespace tycho::model
