#include "tycho/model/history_steps.hpp"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace tycho::model {

namespace {

[[noreturn]] void bad_record(int rank, std::int32_t iteration, const std::string& what) {
  throw std::invalid_argument("tycho model: rank " + std::to_string(rank) + ", iteration " +
                              std::to_string(iteration) + ": " + what);
}

// A step number as an index, refusing what no sweep records.
std::size_t step_index(std::int32_t step, int rank, std::int32_t iteration, const char* record) {
  if (step < 0) bad_record(rank, iteration, std::string(record) + " with negative step " + std::to_string(step));
  return static_cast<std::size_t>(step);
}

}  // namespace

std::vector<std::int32_t> iterations_in(const std::vector<RankHistory>& ranks) {
  std::set<std::int32_t> seen;
  for (std::size_t p = 0; p < ranks.size(); ++p) {
    for (const StepRecord& s : ranks[p].steps) {
      if (s.iteration < 0) bad_record(static_cast<int>(p), s.iteration, "a step record of a negative iteration");
      seen.insert(s.iteration);
    }
  }
  return {seen.begin(), seen.end()};
}

std::vector<std::int64_t> work_by_step(const RankHistory& history, int rank,
                                       std::int32_t iteration) {
  std::vector<std::int64_t> work;
  std::vector<bool> recorded;
  for (const StepRecord& s : history.steps) {
    if (s.iteration != iteration) continue;
    const std::size_t i = step_index(s.step, rank, iteration, "a step record");
    if (s.work < 0) bad_record(rank, iteration, "step " + std::to_string(s.step) + " has negative work " + std::to_string(s.work));
    if (i >= work.size()) {
      work.resize(i + 1, 0);
      recorded.resize(i + 1, false);
    }
    if (recorded[i]) bad_record(rank, iteration, "step " + std::to_string(s.step) + " recorded twice");
    recorded[i] = true;
    work[i] = s.work;
  }
  return work;
}

std::vector<std::vector<MessageRecord>> sends_by_step(const RankHistory& history, int rank,
                                                      std::int32_t iteration) {
  std::size_t steps = 0;
  for (const StepRecord& s : history.steps) {
    if (s.iteration == iteration) steps = std::max(steps, step_index(s.step, rank, iteration, "a step record") + 1);
  }
  std::vector<std::vector<MessageRecord>> sends(steps);
  for (const MessageRecord& m : history.messages) {
    if (m.iteration != iteration || !m.sent) continue;
    const std::size_t i = step_index(m.step, rank, iteration, "a message");
    if (m.bytes < 0) bad_record(rank, iteration, "a message of step " + std::to_string(m.step) + " has negative bytes");
    if (i >= sends.size()) sends.resize(i + 1);
    sends[i].push_back(m);
  }
  return sends;
}

}  // namespace tycho::model
