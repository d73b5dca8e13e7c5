// The sweep's schedule at any P, in lockstep rounds (schedule_projection.hpp).
#include "tycho/schedule_projection.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tycho/sweep_dag.hpp"
#include "tycho/sweep_plan.hpp"

namespace tycho {

namespace {

double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// One rank's ready tasks in the engine's blevel order: the higher band of b-levels first
// (kBlevelBand), then the lower direction, then the higher b-level, then the last pushed
// (the engine's bucket per (band, direction, b-level) is a stack). A heap, where the engine's plan numbers its pairs densely: P ranks' arrays of
// b-levels x directions buckets would not fit at P = 4096.
class ProjectedQueue {
 public:
  bool empty() const { return heap_.empty(); }
  void push(std::uint32_t task, std::uint16_t blevel, std::uint16_t direction_rank) {
    // Band (16 - B bits: 0xFFFF >> B), direction (16), level in the band (B =
    // kBlevelBandBits), push count (32).
    constexpr unsigned B = kBlevelBandBits;
    static_assert(B <= 16, "the key holds band, direction, level and push count in 64 bits");
    const std::uint64_t key = (std::uint64_t{blevel / kBlevelBand} << (48 + B)) |
                              (std::uint64_t{direction_rank} << (32 + B)) | (std::uint64_t{blevel % kBlevelBand} << 32) |
                              pushed_++;
    heap_.push_back({key, task});
    std::push_heap(heap_.begin(), heap_.end());
  }
  std::uint32_t pop() {  // precondition: !empty()
    std::pop_heap(heap_.begin(), heap_.end());
    const std::uint32_t t = heap_.back().second;
    heap_.pop_back();
    return t;
  }

 private:
  std::vector<std::pair<std::uint64_t, std::uint32_t>> heap_;
  std::uint32_t pushed_ = 0;  // wraps only past 2^32 pushes on one rank: more tasks than a plan allows
};

}  // namespace

ProjectedSchedule project_schedule(const Mesh& mesh, const mesh::Partition& partition, const std::vector<Vec3>& omega,
                                   int groups, std::int64_t mcps) {
  if (mcps < 1) throw std::invalid_argument("project_schedule: MCPS must be >= 1, got " + std::to_string(mcps));
  if (omega.empty()) throw std::invalid_argument("project_schedule: no direction");
  if (groups < 1) throw std::invalid_argument("project_schedule: groups must be >= 1");
  if (omega.size() > 0xFFFF)
    throw std::invalid_argument("project_schedule: at most 65535 directions, got " + std::to_string(omega.size()));
  const std::size_t N = mesh.cells.size(), D = omega.size();
  if (partition.part_of_cell.size() != N || partition.parts < 1)
    throw std::invalid_argument("project_schedule: the partition is not of this mesh's " + std::to_string(N) + " cells");
  const int P = partition.parts;
  const std::int64_t record_bytes = 8 + 24 * static_cast<std::int64_t>(groups);

  // Per task t = d * N + c: its unresolved inflow count and its b-level; per direction, the
  // lagged faces (they carry nothing within a sweep).
  const std::vector<Vec3> normals = face_area_normals(mesh);
  std::vector<std::uint8_t> waiting(N * D, 0);
  std::vector<std::uint16_t> level(N * D, 0);
  std::vector<std::vector<std::uint8_t>> lagged(D);
  ProjectedSchedule out;
  for (std::size_t d = 0; d < D; ++d) {
    const DirectionOrder order = direction_order(mesh, normals, omega[d]);
    out.lagged_faces += order.lagged.size();
    lagged[d].assign(mesh.faces.size(), 0);
    for (Index f : order.lagged) lagged[d][f] = 1;
    for (std::size_t c = 0; c < N; ++c) {
      level[d * N + c] = static_cast<std::uint16_t>(std::min<std::uint32_t>(order.blevel[c], 0xFFFF));
    }
    for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
      const Face& face = mesh.faces[f];
      if (face.on_boundary() || lagged[d][f]) continue;
      const double s = dot(omega[d], normals[f]);
      if (s > 0) ++waiting[d * N + face.cells[1]];
      if (s < 0) ++waiting[d * N + face.cells[0]];
    }
  }

  std::vector<ProjectedQueue> ready(static_cast<std::size_t>(P));
  const auto push = [&](std::size_t p, std::uint32_t u) {
    ready[p].push(u, level[u], static_cast<std::uint16_t>(D - 1 - u / N));
  };
  std::vector<std::int64_t> left(static_cast<std::size_t>(P), 0);
  for (std::size_t d = 0; d < D; ++d)
    for (std::size_t c = 0; c < N; ++c) {
      const auto p = static_cast<std::size_t>(partition.part_of_cell[c]);
      ++left[p];
      if (waiting[d * N + c] == 0) push(p, static_cast<std::uint32_t>(d * N + c));
    }

  out.ranks.resize(static_cast<std::size_t>(P));
  std::vector<std::int32_t> next_step(static_cast<std::size_t>(P), 0);
  // This round's messages: per receiving rank, per sending rank, the tasks they release.
  std::vector<std::vector<std::uint32_t>> to_peer(static_cast<std::size_t>(P));  // of the sender in this step
  std::vector<int> peers_touched;
  struct Delivery {
    int from;
    std::vector<std::uint32_t> tasks;
  };
  std::vector<std::vector<Delivery>> inbox(static_cast<std::size_t>(P));
  std::vector<std::uint32_t> batch, released;
  std::int64_t remaining = static_cast<std::int64_t>(N * D);
  while (remaining > 0) {
    ++out.rounds;
    std::vector<std::int32_t> step_of(static_cast<std::size_t>(P), -1);  // this round's step, if any
    for (int p = 0; p < P; ++p) {
      ProjectedQueue& q = ready[static_cast<std::size_t>(p)];
      if (q.empty()) continue;
      batch.clear();
      while (static_cast<std::int64_t>(batch.size()) < mcps && !q.empty()) batch.push_back(q.pop());
      released.clear();
      for (std::uint32_t t : batch) {
        const std::size_t d = t / N, c = t % N;
        for (Index f : mesh.cells[c].faces) {
          const Face& face = mesh.faces[f];
          if (face.on_boundary() || lagged[d][f]) continue;
          const double s = dot(omega[d], normals[f]);
          const Index down = s > 0 && face.cells[0] == c ? face.cells[1] : s < 0 && face.cells[1] == c ? face.cells[0] : kBoundary;
          if (down == kBoundary) continue;
          const std::uint32_t u = static_cast<std::uint32_t>(d * N + down);
          const int owner = partition.part_of_cell[down];
          if (owner == p) {
            if (--waiting[u] == 0) released.push_back(u);
          } else {
            if (to_peer[static_cast<std::size_t>(owner)].empty()) peers_touched.push_back(owner);
            to_peer[static_cast<std::size_t>(owner)].push_back(u);
          }
        }
      }
      for (std::uint32_t u : released) push(static_cast<std::size_t>(p), u);
      left[static_cast<std::size_t>(p)] -= static_cast<std::int64_t>(batch.size());
      remaining -= static_cast<std::int64_t>(batch.size());

      RankHistory& h = out.ranks[static_cast<std::size_t>(p)];
      const std::int32_t step = next_step[static_cast<std::size_t>(p)]++;
      step_of[static_cast<std::size_t>(p)] = static_cast<std::int32_t>(h.steps.size());
      StepRecord rec;
      rec.step = step;
      rec.work = static_cast<std::int64_t>(batch.size());
      std::sort(peers_touched.begin(), peers_touched.end());
      for (int peer : peers_touched) {
        std::vector<std::uint32_t>& tasks = to_peer[static_cast<std::size_t>(peer)];
        const std::int64_t bytes = static_cast<std::int64_t>(tasks.size()) * record_bytes;
        ++rec.sends;
        rec.send_bytes += bytes;
        out.records += static_cast<std::int64_t>(tasks.size());
        h.messages.push_back(MessageRecord{0, step, peer, bytes, true});
        inbox[static_cast<std::size_t>(peer)].push_back(Delivery{p, std::move(tasks)});
        tasks.clear();
      }
      peers_touched.clear();
      h.steps.push_back(rec);
    }
    // Receives, after every rank's sends: senders in ascending order.
    for (int p = 0; p < P; ++p) {
      std::vector<Delivery>& in = inbox[static_cast<std::size_t>(p)];
      if (in.empty()) continue;
      RankHistory& h = out.ranks[static_cast<std::size_t>(p)];
      if (step_of[static_cast<std::size_t>(p)] < 0) {  // nothing was ready: a step that only receives
        StepRecord rec;
        rec.step = next_step[static_cast<std::size_t>(p)]++;
        step_of[static_cast<std::size_t>(p)] = static_cast<std::int32_t>(h.steps.size());
        h.steps.push_back(rec);
      }
      StepRecord& rec = h.steps[static_cast<std::size_t>(step_of[static_cast<std::size_t>(p)])];
      for (Delivery& m : in) {
        const std::int64_t bytes = static_cast<std::int64_t>(m.tasks.size()) * record_bytes;
        ++rec.receives;
        rec.receive_bytes += bytes;
        h.messages.push_back(MessageRecord{0, rec.step, m.from, bytes, false});
        for (std::uint32_t u : m.tasks)
          if (--waiting[u] == 0) push(static_cast<std::size_t>(p), u);
      }
      in.clear();
    }
    if (remaining > 0) {
      bool any_ready = false;
      for (const ProjectedQueue& q : ready) any_ready = any_ready || !q.empty();
      if (!any_ready) throw std::logic_error("project_schedule: no task ready and " + std::to_string(remaining) + " left");
    }
  }
  return out;
}

}  // namespace tycho
