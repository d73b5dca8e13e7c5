// T_unpack, a message's fixed part and a record's, timed on synthetic messages (unpack_probe.hpp).
#include "tycho/unpack_probe.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "face_records_unpack.hpp"
#include "instrument/clock.hpp"
#include "ready_queue.hpp"
#include "tycho/ld_tet.hpp"

namespace tycho {

namespace {

double median_of(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

// Reads `bytes` of `stream` a line at a time (what a step or a sweep leaves in the caches).
void read_lines(const std::vector<std::uint64_t>& stream, std::size_t bytes, volatile std::uint64_t& sink) {
  std::uint64_t sum = 0;
  const std::size_t words = std::min(stream.size(), bytes / sizeof(std::uint64_t) + 1);
  for (std::size_t i = 0; i < words; i += 8) sum += stream[i];
  sink = sink + sum;
}

}  // namespace

std::size_t step_working_set_bytes(std::size_t step_tasks, int groups) {
  if (groups < 1) throw std::invalid_argument("tycho step working set: groups must be >= 1, got " + std::to_string(groups));
  const std::size_t G = static_cast<std::size_t>(groups);
  // A task: its psi (G x 4 doubles), its cell's source (G x 4) and geometry, 3 inflow faces
  // (G x 3 each).
  return step_tasks * (sizeof(LdTet) + (4 + 4 + 9) * G * sizeof(double));
}

UnpackCost measure_unpack_cost(std::size_t cells, int directions, int groups, std::size_t step_tasks) {
  if (cells < 1 || directions < 1 || groups < 1 || step_tasks < 1)
    throw std::invalid_argument("tycho unpack probe: cells, directions, groups and step tasks must be >= 1, got " +
                                std::to_string(cells) + ", " + std::to_string(directions) + ", " +
                                std::to_string(groups) + ", " + std::to_string(step_tasks));
  const std::size_t D = static_cast<std::size_t>(directions);
  // A rank of `cells` cells, or of as many as kMaxTasks tasks allow (already past the caches).
  const std::size_t n = std::max<std::size_t>(1, std::min(cells, kUnpackProbeMaxTasks / D));
  const std::size_t tasks = n * D;
  SweepPlan plan;
  plan.rank = 0;
  plan.ranks = 2;
  plan.directions = directions;
  plan.groups = groups;
  plan.cells.resize(n);
  for (std::size_t i = 0; i < n; ++i) plan.cells[i] = static_cast<Index>(i);
  plan.lagged_mask.assign(tasks, 0);  // no lagged face: every record feeds a task
  // The cut: 2 n^(2/3) faces (a plane through a cube of n cells), their cells spread over the
  // rank with a stride coprime to n.
  const std::size_t faces =
      std::max<std::size_t>(1, std::min(n, static_cast<std::size_t>(2 * std::cbrt(static_cast<double>(n) * n))));
  std::size_t stride = n / 2 + 1;
  while (std::gcd(stride, n) != 1) ++stride;
  plan.remote_slot_of_face.resize(faces);
  plan.remote_faces.resize(faces);
  for (std::size_t f = 0; f < faces; ++f) {
    plan.remote_slot_of_face[f] = static_cast<std::int32_t>(f);
    plan.remote_faces[f] = RemoteFace{static_cast<Index>(f), static_cast<Index>((f * stride) % n),
                                      static_cast<std::uint8_t>(f % 4), 1};
  }
  std::vector<double> ghost(faces * D * static_cast<std::size_t>(groups) * 3, 0.0), lag_next;
  std::mt19937_64 random(0x7ac0u);
  const std::size_t levels = std::min(kUnpackProbeMaxLevels, tasks);
  std::vector<std::uint32_t> waiting(tasks), level(tasks);
  for (std::size_t t = 0; t < tasks; ++t) {
    waiting[t] = 1 + static_cast<std::uint32_t>(random() % 2);
    level[t] = static_cast<std::uint32_t>(random() % levels);
  }
  ReadyQueueImpl ready(false, levels, tasks);

  // Every (face, direction) slot once a pass, in a random order.
  std::vector<std::uint64_t> slots(faces * D);
  std::iota(slots.begin(), slots.end(), std::uint64_t{0});
  const std::size_t width = plan.record_doubles();
  std::vector<double> message(kUnpackProbeLargeRecords * width);
  const std::size_t psi_bytes = tasks * static_cast<std::size_t>(groups) * 4 * sizeof(double);
  const std::size_t step_bytes = step_working_set_bytes(step_tasks, groups);
  std::vector<std::uint64_t> stream(std::min(std::max(psi_bytes, step_bytes), kUnpackProbeMaxStreamBytes) /
                                        sizeof(std::uint64_t) + 1, 1);
  volatile std::uint64_t sink = 0;
  std::vector<double> small, large;
  for (int pass = 0; pass < kUnpackProbePasses; ++pass) {
    std::shuffle(slots.begin(), slots.end(), random);
    ready.reset(waiting, level);
    read_lines(stream, psi_bytes, sink);
    std::size_t next = 0;
    for (std::size_t m = 0; m < kUnpackProbeMessagesPerPass; ++m) {
      const std::size_t k = m % 2 ? kUnpackProbeLargeRecords : kUnpackProbeSmallRecords;
      read_lines(stream, step_bytes, sink);  // the step between two messages
      for (std::size_t r = 0; r < k; ++r, ++next) {
        // A rank with fewer slots than a pass's records visits them again (its tasks then
        // count below 0, harmlessly: they are never queued twice).
        const std::uint64_t slot = slots[next % slots.size()];
        const std::uint32_t key[2] = {static_cast<std::uint32_t>(slot / D), static_cast<std::uint32_t>(slot % D)};
        std::memcpy(&message[r * width], key, sizeof key);
        for (std::size_t v = 1; v < width; ++v) message[r * width + v] = static_cast<double>(r + v);
      }
      const double start = instrument::now_seconds();
      unpack_face_records(plan, message.data(), k, ghost, lag_next, ready);
      (k == kUnpackProbeSmallRecords ? small : large).push_back(instrument::now_seconds() - start);
    }
  }
  const double s = median_of(small), l = median_of(large);
  UnpackCost c;
  c.s_per_record = (l - s) / static_cast<double>(kUnpackProbeLargeRecords - kUnpackProbeSmallRecords);
  if (!(c.s_per_record > 0)) {  // noise larger than the records' part: all of it per record
    c.s_per_record = std::max(l / static_cast<double>(kUnpackProbeLargeRecords), 1e-10);
    return c;
  }
  c.s_per_message = std::max(0.0, s - static_cast<double>(kUnpackProbeSmallRecords) * c.s_per_record);
  return c;
}

}  // namespace tycho
