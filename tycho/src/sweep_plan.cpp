// A rank's sweep plan (sweep_plan.hpp).
#include "tycho/sweep_plan.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "instrument/error.hpp"
#include "tycho/sweep_dag.hpp"

namespace tycho {

const char* priority_name(Priority p) {
  switch (p) {
    case Priority::blevel: return "blevel";
    case Priority::boundary: return "boundary";
    case Priority::direction: return "direction";
    case Priority::fifo: return "fifo";
  }
  return "?";
}

int SweepPlan::peer_index(std::int32_t r) const {
  const auto it = std::lower_bound(peers.begin(), peers.end(), r);
  return it != peers.end() && *it == r ? static_cast<int>(it - peers.begin()) : -1;
}

namespace {

double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }

int local_face_of(const Cell& cell, Index face) {
  for (int f = 0; f < 4; ++f)
    if (cell.faces[static_cast<std::size_t>(f)] == face) return f;
  return -1;
}

// The rank's cells in breadth-first order over its own faces (Cuthill-McKee: each new
// component from its lowest cell, neighbours in ascending index): a cell's neighbours are
// then about one BFS layer away in the sweep's arrays, whatever order the mesh file has.
std::vector<Index> locality_order(const Mesh& mesh, const Partition& partition, std::int32_t rank) {
  std::vector<Index> order;
  std::vector<std::uint8_t> seen(mesh.cells.size(), 0);
  for (Index start = 0; start < mesh.cells.size(); ++start) {
    if (partition.part_of_cell[start] != rank || seen[start]) continue;
    seen[start] = 1;
    std::size_t head = order.size();
    order.push_back(start);
    while (head < order.size()) {
      const Index c = order[head++];
      std::array<Index, 4> next{};
      int n = 0;
      for (Index F : mesh.cells[c].faces) {
        const Face& face = mesh.faces[F];
        const Index other = face.cells[0] == c ? face.cells[1] : face.cells[0];
        if (other != kBoundary && partition.part_of_cell[other] == rank && !seen[other]) {
          seen[other] = 1;
          next[static_cast<std::size_t>(n++)] = other;
        }
      }
      for (int a = 1; a < n; ++a)  // at most 4: insertion sort
        for (int b = a; b > 0 && next[static_cast<std::size_t>(b)] < next[static_cast<std::size_t>(b - 1)]; --b)
          std::swap(next[static_cast<std::size_t>(b)], next[static_cast<std::size_t>(b - 1)]);
      for (int a = 0; a < n; ++a) order.push_back(next[static_cast<std::size_t>(a)]);
    }
  }
  return order;
}

// Cells, their LD records with the faces' own normals, materials and face links.
void place_cells(const Mesh& mesh, const Partition& partition, const Problem& problem,
                 const std::vector<Vec3>& normals, SweepPlan& plan) {
  const std::int32_t rank = plan.rank;
  plan.cells = locality_order(mesh, partition, rank);
  std::vector<Index> local_of(mesh.cells.size(), kBoundary);
  for (Index i = 0; i < plan.cells.size(); ++i) local_of[plan.cells[i]] = i;
  std::map<std::uint32_t, std::uint32_t> slot_of_material;
  plan.remote_slot_of_face.assign(mesh.faces.size(), -1);
  for (Index i = 0; i < plan.cells.size(); ++i) {
    const Index c = plan.cells[i];
    const Cell& cell = mesh.cells[c];
    LdTet t = ld_tet(mesh, c);
    std::array<FaceLink, 4> link{};
    for (std::size_t f = 0; f < 4; ++f) {
      const Index F = cell.faces[f];
      const Face& face = mesh.faces[F];
      const bool first = face.cells[0] == c;
      // The face's own normal, negated exactly for its second cell: both cells then see
      // the same |Omega.n| and opposite signs, bit for bit.
      const Vec3& n = normals[F];
      t.area_normal[f] = first ? n : Vec3{-n.x, -n.y, -n.z};
      link[f].face = F;
      const Index other = first ? face.cells[1] : face.cells[0];
      if (other == kBoundary) {
        link[f].kind = LinkKind::boundary;
      } else if (partition.part_of_cell[other] == rank) {
        link[f].kind = LinkKind::local;
        link[f].neighbour = local_of[other];
        link[f].neighbour_face = static_cast<std::uint8_t>(local_face_of(mesh.cells[other], F));
      } else {
        link[f].kind = LinkKind::remote;
        link[f].neighbour = static_cast<Index>(plan.remote_faces.size());
        plan.remote_slot_of_face[F] = static_cast<std::int32_t>(plan.remote_faces.size());
        plan.remote_faces.push_back(RemoteFace{F, i, static_cast<std::uint8_t>(f), partition.part_of_cell[other]});
      }
    }
    plan.tets.push_back(t);
    plan.links.push_back(link);
    const auto [it, added] = slot_of_material.emplace(cell.material, static_cast<std::uint32_t>(plan.materials.size()));
    if (added) {
      const auto m = problem.materials.find(cell.material);
      plan.materials.push_back(m != problem.materials.end() ? m->second : problem.fallback);
    }
    plan.material_slot.push_back(it->second);
  }
  for (std::array<FaceLink, 4>& link : plan.links)
    for (FaceLink& l : link)
      if (l.kind == LinkKind::local) l.neighbour_nodes = plan.tets[l.neighbour].face_nodes[l.neighbour_face];
  for (const RemoteFace& r : plan.remote_faces) plan.peers.push_back(r.peer);
  std::sort(plan.peers.begin(), plan.peers.end());
  plan.peers.erase(std::unique(plan.peers.begin(), plan.peers.end()), plan.peers.end());
  plan.records_to.assign(plan.peers.size(), 0);
  plan.records_from.assign(plan.peers.size(), 0);
}

// Dependencies, lagged faces, priorities and record counts of direction d.
void order_direction(const Mesh& mesh, const Partition& partition, const std::vector<Vec3>& normals,
                     const Vec3& omega, std::size_t d, std::vector<std::uint8_t>& lag_flag, SweepPlan& plan) {
  const std::size_t D = static_cast<std::size_t>(plan.directions);
  const DirectionOrder order = direction_order(mesh, normals, omega);
  plan.lagged_faces_global += order.lagged.size();
  for (Index F : order.lagged) lag_flag[F] = 1;
  std::vector<std::uint32_t> depth;
  if (plan.priority_scheme == Priority::boundary) depth = boundary_depth(mesh, normals, omega, partition, order.lagged);
  for (Index i = 0; i < plan.cells.size(); ++i) {
    const std::size_t t = plan.task(i, d);
    std::uint32_t deps = 0;
    std::uint8_t mask = 0;
    for (std::size_t f = 0; f < 4; ++f) {
      const FaceLink& link = plan.links[i][f];
      if (link.kind == LinkKind::boundary) continue;
      const double flow = dot(omega, plan.tets[i].area_normal[f]);
      if (link.kind == LinkKind::remote) {
        const int p = plan.peer_index(plan.remote_faces[link.neighbour].peer);
        if (flow > 0) ++plan.records_to[static_cast<std::size_t>(p)];
        if (flow < 0) ++plan.records_from[static_cast<std::size_t>(p)];
      }
      if (!(flow < 0)) continue;
      if (lag_flag[link.face]) {
        mask = static_cast<std::uint8_t>(mask | (1u << f));
        plan.lag_slot.emplace(static_cast<std::uint64_t>(link.face) * D + d,
                              static_cast<std::uint32_t>(plan.lag_slot.size()));
      } else {
        ++deps;
      }
    }
    plan.in_degree[t] = deps;
    plan.lagged_mask[t] = mask;
    const Index c = plan.cells[i];
    switch (plan.priority_scheme) {
      case Priority::blevel: plan.priority[t] = order.blevel[c]; break;
      case Priority::boundary: {
        // Nearest to a cell feeding another rank first; then the longer path below.
        const std::uint32_t b = std::min<std::uint32_t>(order.blevel[c], 0xFFFF);
        const std::uint32_t near = depth[c] == 0 ? 0 : 0xFFFF - std::min<std::uint32_t>(depth[c], 0xFFFE);
        plan.priority[t] = (near << 16) | b;
        break;
      }
      case Priority::direction:
        plan.priority[t] = (static_cast<std::uint32_t>(D - 1 - d) << 16) | std::min<std::uint32_t>(order.blevel[c], 0xFFFF);
        break;
      case Priority::fifo: plan.priority[t] = 0; break;
    }
  }
  for (Index F : order.lagged) lag_flag[F] = 0;
}

}  // namespace

SweepPlan make_sweep_plan(const Mesh& mesh, const Partition& partition, const Problem& problem, int rank,
                          Priority priority, const std::string& name) {
  SweepPlan plan;
  plan.rank = rank;
  plan.ranks = partition.parts;
  plan.directions = static_cast<int>(problem.quadrature.size());
  plan.groups = problem.groups;
  plan.priority_scheme = priority;
  const std::vector<Vec3> normals = face_area_normals(mesh);
  place_cells(mesh, partition, problem, normals, plan);
  const std::size_t D = static_cast<std::size_t>(plan.directions);
  if (plan.cells.size() * D >= std::numeric_limits<std::uint32_t>::max())
    throw instrument::InputError(name, "tasks", "at most 2^32 - 1 cell-angle tasks on one rank, found " +
                                                    std::to_string(plan.cells.size()) + " cells x " +
                                                    std::to_string(D) + " directions (use more ranks)");
  plan.in_degree.assign(plan.tasks(), 0);
  plan.lagged_mask.assign(plan.tasks(), 0);
  plan.priority.assign(plan.tasks(), 0);
  std::vector<std::uint8_t> lag_flag(mesh.faces.size(), 0);
  for (std::size_t d = 0; d < D; ++d)
    order_direction(mesh, partition, normals, problem.quadrature.omega[d], d, lag_flag, plan);
  for (std::int64_t n : plan.records_from) plan.records_in += n;
  // Dense levels keep the order and let the ready queue be an array of buckets.
  std::vector<std::uint32_t> distinct = plan.priority;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  for (std::uint32_t& p : plan.priority)
    p = static_cast<std::uint32_t>(std::lower_bound(distinct.begin(), distinct.end(), p) - distinct.begin());
  plan.priority_levels = std::max<std::size_t>(distinct.size(), 1);
  return plan;
}

}  // namespace tycho
