// The sweep's schedule at any P, in lockstep rounds (schedule_projection.hpp).
#include "tycho/schedule_projection.hpp"

#include <algorithm>
#include <array>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "tycho/quadrature.hpp"
#include "tycho/sweep_dag.hpp"
#include "tycho/sweep_plan.hpp"

namespace tycho {

namespace {

double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

// One rank's ready tasks in the engine's order: the larger priority first (the plan's key,
// blevel_key, octant_priority or band_octant_priority), then the last pushed (the engine's
// bucket per priority level is a stack). A heap, where the engine's plan numbers its levels
// densely: P ranks' arrays of buckets would not fit at P = 4096.
class ProjectedQueue {
 public:
  bool empty() const { return heap_.empty(); }
  void push(std::uint32_t task, std::uint64_t priority) {
    heap_.push_back({priority, pushed_++, task});
    std::push_heap(heap_.begin(), heap_.end());
  }
  std::uint32_t pop() {  // precondition: !empty()
    std::pop_heap(heap_.begin(), heap_.end());
    const std::uint32_t t = heap_.back().task;
    heap_.pop_back();
    return t;
  }

 private:
  struct Entry {
    std::uint64_t priority;
    std::uint32_t pushed, task;
    bool operator<(const Entry& o) const { return priority < o.priority || (priority == o.priority && pushed < o.pushed); }
  };
  std::vector<Entry> heap_;
  std::uint32_t pushed_ = 0;  // wraps only past 2^32 pushes on one rank: more tasks than a plan allows
};

// blevel's key (sweep_plan.hpp): the band (16 - B bits: 0xFFFF >> B), the direction's rank
// D - 1 - d (16), the level in the band (B = kBlevelBandBits). The engine packs the same
// three fields, its band in more bits; the two orders agree for b-levels under 65536 (kept
// here in 16 bits: a downwind path of 65536 cells, never on meshes of today). band-octant's
// bands come from the same 16-bit b-levels, with the same limit.
std::uint32_t blevel_key(std::uint16_t blevel, std::uint16_t direction_rank) {
  constexpr unsigned B = kBlevelBandBits;
  static_assert(B <= 16, "the key holds band, direction and level in 32 bits");
  return (std::uint32_t{blevel} / kBlevelBand << (16 + B)) | (std::uint32_t{direction_rank} << B) | (blevel % kBlevelBand);
}

}  // namespace

ProjectedSchedule project_schedule(const Mesh& mesh, const mesh::Partition& partition, const std::vector<Vec3>& omega,
                                   int groups, std::int64_t mcps, Priority priority) {
  if (mcps < 1) throw std::invalid_argument("project_schedule: MCPS must be >= 1, got " + std::to_string(mcps));
  if (omega.empty()) throw std::invalid_argument("project_schedule: no direction");
  if (groups < 1) throw std::invalid_argument("project_schedule: groups must be >= 1");
  if (omega.size() > 0xFFFF)
    throw std::invalid_argument("project_schedule: at most 65535 directions, got " + std::to_string(omega.size()));
  if (priority != Priority::blevel && priority != Priority::octant && priority != Priority::band_octant)
    throw std::invalid_argument(std::string("project_schedule: projects the blevel, band-octant and octant orders, not ") +
                                priority_name(priority));
  if (priority == Priority::octant && omega.size() > 512)
    throw std::invalid_argument("project_schedule: octant takes at most 512 directions, got " + std::to_string(omega.size()));
  const std::size_t N = mesh.cells.size(), D = omega.size();
  if (partition.part_of_cell.size() != N || partition.parts < 1)
    throw std::invalid_argument("project_schedule: the partition is not of this mesh's " + std::to_string(N) + " cells");
  const int P = partition.parts;
  const std::int64_t record_bytes = 8 + 24 * static_cast<std::int64_t>(groups);

  // Per task t = d * N + c: its unresolved inflow count and (blevel's and band-octant's
  // keys) its b-level;
  // per direction, the lagged faces (they carry nothing within a sweep).
  const std::vector<Vec3> normals = face_area_normals(mesh);
  std::vector<std::uint8_t> waiting(N * D, 0);
  std::vector<std::uint16_t> level(priority != Priority::octant ? N * D : 0, 0);
  std::vector<std::vector<std::uint8_t>> lagged(D);
  ProjectedSchedule out;
  for (std::size_t d = 0; d < D; ++d) {
    const DirectionOrder order = direction_order(mesh, normals, omega[d]);
    out.lagged_faces += order.lagged.size();
    lagged[d].assign(mesh.faces.size(), 0);
    for (Index f : order.lagged) lagged[d][f] = 1;
    if (priority != Priority::octant)
      for (std::size_t c = 0; c < N; ++c) level[d * N + c] = static_cast<std::uint16_t>(std::min<std::uint32_t>(order.blevel[c], 0xFFFF));
    for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
      const Face& face = mesh.faces[f];
      if (face.on_boundary() || lagged[d][f]) continue;
      const double s = dot(omega[d], normals[f]);
      if (s > 0) ++waiting[d * N + face.cells[1]];
      if (s < 0) ++waiting[d * N + face.cells[0]];
    }
  }

  // Each rank's cells in its plan's order (sweep_plan.hpp), in which the engine queues the
  // tasks ready at the start; octant's and band-octant's keys: per octant and cell, its slab
  // among its rank's cells, and each direction's octant.
  std::vector<std::vector<Index>> cells_of(static_cast<std::size_t>(P));
  std::vector<std::uint32_t> slab_of, last_slab;
  std::vector<std::uint8_t> octant(D, 0);
  if (priority != Priority::blevel) {
    slab_of.assign(8 * N, 0);
    last_slab.assign(static_cast<std::size_t>(P), 0);
    for (std::size_t d = 0; d < D; ++d) octant[d] = octant_of(omega[d]);
  }
  for (Index c = 0; c < N; ++c) cells_of[static_cast<std::size_t>(partition.part_of_cell[c])].push_back(c);
  for (int p = 0; p < P; ++p) {
    std::vector<Index>& cells = cells_of[static_cast<std::size_t>(p)];
    cells = plan_cell_order(mesh, cells);
    if (priority == Priority::blevel || cells.empty()) continue;
    const std::array<std::vector<std::uint32_t>, 8> slabs = octant_slabs(mesh, cells);
    for (std::size_t o = 0; o < 8; ++o)
      for (std::size_t i = 0; i < cells.size(); ++i) slab_of[o * N + cells[i]] = slabs[o][i];
    last_slab[static_cast<std::size_t>(p)] = static_cast<std::uint32_t>((cells.size() - 1) / kOctantSlabCells);
  }

  std::vector<ProjectedQueue> ready(static_cast<std::size_t>(P));
  const auto push = [&](std::size_t p, std::uint32_t u) {
    const std::size_t d = u / N, c = u % N;
    ready[p].push(u, priority == Priority::octant
                         ? octant_priority(octant[d], slab_of[octant[d] * N + c], last_slab[p], D, d)
                     : priority == Priority::band_octant
                         ? band_octant_priority(level[u], octant[d], slab_of[octant[d] * N + c], last_slab[p], D, d)
                         : blevel_key(level[u], static_cast<std::uint16_t>(D - 1 - d)));
  };
  for (std::size_t p = 0; p < static_cast<std::size_t>(P); ++p)
    for (std::size_t d = 0; d < D; ++d)
      for (Index c : cells_of[p])
        if (waiting[d * N + c] == 0) push(p, static_cast<std::uint32_t>(d * N + c));

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
