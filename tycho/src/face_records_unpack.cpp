// Face records into the ghost and lagged slots (face_records_unpack.hpp).
#include "face_records_unpack.hpp"

#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>

namespace tycho {

void unpack_face_records(const SweepPlan& plan, const double* records, std::size_t count, std::vector<double>& ghost,
                         std::vector<double>& lag_next, ReadyQueueImpl& ready) {
  const std::size_t D = static_cast<std::size_t>(plan.directions);
  const std::size_t G = static_cast<std::size_t>(plan.groups);
  const std::size_t width = plan.record_doubles();
  for (std::size_t r = 0; r < count; ++r) {
    const double* rec = records + r * width;
    std::uint32_t key[2];
    std::memcpy(key, rec, sizeof key);
    const std::uint32_t face = key[0], d = key[1];
    const std::int32_t slot = face < plan.remote_slot_of_face.size() ? plan.remote_slot_of_face[face] : -1;
    if (slot < 0 || d >= D)
      throw std::logic_error("tycho sweep: rank " + std::to_string(plan.rank) + " received a record for face " +
                             std::to_string(face) + ", direction " + std::to_string(d) + ", not one of its own");
    const RemoteFace& rf = plan.remote_faces[static_cast<std::size_t>(slot)];
    const std::size_t t = plan.task(rf.cell, d);
    double* to;
    const bool lagged = plan.lagged_mask[t] & (1u << rf.local_face);
    if (lagged) to = &lag_next[plan.lag_slot.at(std::uint64_t{face} * D + d) * G * 3];
    else to = &ghost[(static_cast<std::size_t>(slot) * D + d) * G * 3];
    std::memcpy(to, rec + 1, G * 3 * sizeof(double));
    if (!lagged) ready.satisfy(static_cast<std::uint32_t>(t));
  }
}

}  // namespace tycho
