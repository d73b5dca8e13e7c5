// T_unpack timed on synthetic records (unpack_probe.hpp).
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

namespace tycho {

double measure_unpack_seconds_per_record(std::size_t cells, int directions, int groups) {
  if (cells < 1 || directions < 1 || groups < 1)
    throw std::invalid_argument("tycho unpack probe: cells, directions and groups must be >= 1, got " +
                                std::to_string(cells) + ", " + std::to_string(directions) + ", " +
                                std::to_string(groups));
  const std::size_t D = static_cast<std::size_t>(directions);
  // A rank of `cells` cells, or of as many as kMaxTasks tasks allow (already past the caches).
  const std::size_t n = std::max<std::size_t>(1, std::min(cells, kUnpackProbeMaxTasks / D));
  SweepPlan plan;
  plan.rank = 0;
  plan.ranks = 2;
  plan.directions = directions;
  plan.groups = groups;
  plan.cells.resize(n);
  for (std::size_t i = 0; i < n; ++i) plan.cells[i] = static_cast<Index>(i);
  plan.lagged_mask.assign(n * D, 0);  // no lagged face: every record feeds a task
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
  // Tasks that wait for more inputs than the probe gives them: satisfy never queues one, so
  // every pass costs the same.
  ReadyQueueImpl ready(false, 1, n * D);
  ready.reset(std::vector<std::uint32_t>(n * D, 0x40000000u), std::vector<std::uint32_t>(n * D, 0));

  const std::size_t width = plan.record_doubles();
  std::vector<double> records(kUnpackProbeRecordsPerPass * width);
  std::mt19937_64 random(0x7ac0u);
  std::uniform_int_distribution<std::uint32_t> face_of(0, static_cast<std::uint32_t>(faces - 1)),
      direction_of(0, static_cast<std::uint32_t>(D - 1));
  // Between two visits of a task's slots the sweep streams its psi (the tasks' records,
  // cells x directions x groups x 4 doubles): that much is read before each pass.
  const std::size_t psi_bytes = n * D * static_cast<std::size_t>(groups) * 4 * sizeof(double);
  std::vector<std::uint64_t> stream(std::min(psi_bytes, kUnpackProbeMaxStreamBytes) / sizeof(std::uint64_t) + 1, 1);
  volatile std::uint64_t sink = 0;
  std::vector<double> per_record;
  for (int pass = 0; pass < kUnpackProbePasses; ++pass) {
    for (std::size_t r = 0; r < kUnpackProbeRecordsPerPass; ++r) {
      const std::uint32_t key[2] = {face_of(random), direction_of(random)};
      std::memcpy(&records[r * width], key, sizeof key);
      for (std::size_t v = 1; v < width; ++v) records[r * width + v] = static_cast<double>(r + v);
    }
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < stream.size(); i += 8) sum += stream[i];  // a line each
    sink = sink + sum;
    const double start = instrument::now_seconds();
    for (std::size_t r = 0; r < kUnpackProbeRecordsPerPass; r += kUnpackProbeRecordsPerMessage)
      unpack_face_records(plan, &records[r * width],
                          std::min(kUnpackProbeRecordsPerMessage, kUnpackProbeRecordsPerPass - r), ghost, lag_next,
                          ready);
    per_record.push_back((instrument::now_seconds() - start) / static_cast<double>(kUnpackProbeRecordsPerPass));
  }
  std::sort(per_record.begin(), per_record.end());
  return per_record[per_record.size() / 2];
}

}  // namespace tycho
