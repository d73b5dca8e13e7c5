// A rank's sweep plan (sweep_plan.hpp).
#include "tycho/sweep_plan.hpp"

#include <algorithm>
#include <limits>
#include <map>

#include "instrument/error.hpp"
#include "mesh/mesh_geometry.hpp"
#include "mesh/morton.hpp"
#include "tycho/quadrature.hpp"
#include "tycho/sweep_dag.hpp"

namespace tycho {

const char* priority_name(Priority p) {
  switch (p) {
    case Priority::blevel: return "blevel";
    case Priority::band_octant: return "band-octant";
    case Priority::boundary: return "boundary";
    case Priority::direction: return "direction";
    case Priority::octant: return "octant";
    case Priority::fifo: return "fifo";
  }
  return "?";
}

namespace {
double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
}  // namespace

int SweepPlan::peer_index(std::int32_t r) const {
  const auto it = std::lower_bound(peers.begin(), peers.end(), r);
  return it != peers.end() && *it == r ? static_cast<int>(it - peers.begin()) : -1;
}

// The rank's cells along a Morton (Z-order) curve through their centroids, ties by cell id.
// Any compact block of cells is then a few contiguous ranges of the sweep's arrays, so the
// cells one slab of the octant scheme or one wavefront touches share cache lines and pages.
// (Breadth-first order, used before, keeps face neighbours a layer apart but spreads a
// compact block over the whole array: `direction` on cube-85736 at one rank, 359 -> 317 ns
// per cell-angle-group, alternated; BENCHMARKS.md.)
std::vector<Index> plan_cell_order(const Mesh& mesh, const std::vector<Index>& cells) {
  std::vector<std::pair<Index, Vec3>> cell;
  cell.reserve(cells.size());
  Vec3 lo{std::numeric_limits<double>::max(), std::numeric_limits<double>::max(), std::numeric_limits<double>::max()};
  Vec3 hi{-lo.x, -lo.y, -lo.z};
  for (Index c : cells) {
    const Vec3 m = mesh::cell_centroid(mesh, c);
    lo = {std::min(lo.x, m.x), std::min(lo.y, m.y), std::min(lo.z, m.z)};
    hi = {std::max(hi.x, m.x), std::max(hi.y, m.y), std::max(hi.z, m.z)};
    cell.emplace_back(c, m);
  }
  const double span = std::max({hi.x - lo.x, hi.y - lo.y, hi.z - lo.z});
  const double scale = span > 0 ? 2097151.0 / span : 0.0;  // onto 0 .. 2^21 - 1
  const auto bits = [scale](double v, double from) { return mesh::morton_spread_bits(static_cast<std::uint64_t>((v - from) * scale)); };
  std::vector<std::pair<std::uint64_t, Index>> key;
  key.reserve(cell.size());
  for (const auto& [c, m] : cell) key.emplace_back(bits(m.x, lo.x) | bits(m.y, lo.y) << 1 | bits(m.z, lo.z) << 2, c);
  std::sort(key.begin(), key.end());
  std::vector<Index> order;
  order.reserve(key.size());
  for (const auto& k : key) order.push_back(k.second);
  return order;
}

// The octant scheme's slabs: per octant, the local cells ranked by their centroid's
// projection on the octant's diagonal, kOctantSlabCells to a slab, so that in any direction of
// the octant a slab's upwind cells are mostly in the slabs before it. A slab's records
// (512 x (120 + 64 + 64) B: geometry, links, source) and its psi in the octant's 10 S8
// directions (512 x 10 x 64 B) are 455 KB, within one core's L2 (512 KB); 256 and 1024 cells
// measured alike on cube-85736.
std::array<std::vector<std::uint32_t>, 8> octant_slabs(const Mesh& mesh, const std::vector<Index>& cells) {
  std::array<std::vector<std::uint32_t>, 8> slab;
  const std::size_t N = cells.size();
  std::vector<Vec3> centre(N);
  for (std::size_t i = 0; i < N; ++i) centre[i] = mesh::cell_centroid(mesh, cells[i]);
  std::vector<std::pair<double, Index>> along(N);
  for (std::uint8_t o = 0; o < 8; ++o) {
    const Vec3 diagonal{o & 1 ? -1.0 : 1.0, o & 2 ? -1.0 : 1.0, o & 4 ? -1.0 : 1.0};
    for (Index i = 0; i < N; ++i) along[i] = {dot(diagonal, centre[i]), i};
    std::sort(along.begin(), along.end());
    slab[o].resize(N);
    for (std::size_t r = 0; r < N; ++r) slab[o][along[r].second] = static_cast<std::uint32_t>(r / kOctantSlabCells);
  }
  return slab;
}

// Keys under 2^27 (blevel's bands x directions x 32 and octant's 8 x slabs x D on meshes of
// today; boundary's reach 2^32 at P > 1 and take the sort) by a bitmap of the keys present and its running counts, two passes
// over the tasks; larger ones by a sorted copy and a binary search a key, which took 0.5 s of
// cube-85736's 2.2 s set-up (6.9M tasks).
std::size_t renumber_densely(std::vector<std::uint32_t>& key) {
  if (key.empty()) return 0;
  const std::uint32_t top = *std::max_element(key.begin(), key.end());
  if (top < (std::uint32_t{1} << 27)) {
    const std::size_t words = top / 64 + 1;
    std::vector<std::uint64_t> present(words, 0);
    for (std::uint32_t k : key) present[k >> 6] |= std::uint64_t{1} << (k & 63);
    std::vector<std::uint32_t> below(words);  // keys present in the words before
    std::uint32_t n = 0;
    for (std::size_t w = 0; w < words; ++w) {
      below[w] = n;
      n += static_cast<std::uint32_t>(__builtin_popcountll(present[w]));
    }
    for (std::uint32_t& k : key)
      k = below[k >> 6] + static_cast<std::uint32_t>(__builtin_popcountll(present[k >> 6] & ((std::uint64_t{1} << (k & 63)) - 1)));
    return n;
  }
  std::vector<std::uint32_t> distinct = key;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  for (std::uint32_t& k : key) k = static_cast<std::uint32_t>(std::lower_bound(distinct.begin(), distinct.end(), k) - distinct.begin());
  return distinct.size();
}

std::size_t renumber_densely(const std::vector<std::uint64_t>& key, std::vector<std::uint32_t>& dense) {
  dense.resize(key.size());
  const std::uint64_t top = key.empty() ? 0 : *std::max_element(key.begin(), key.end());
  if (top <= std::numeric_limits<std::uint32_t>::max()) {
    for (std::size_t t = 0; t < key.size(); ++t) dense[t] = static_cast<std::uint32_t>(key[t]);
    return renumber_densely(dense);
  }
  std::vector<std::uint64_t> distinct = key;
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  for (std::size_t t = 0; t < key.size(); ++t)
    dense[t] = static_cast<std::uint32_t>(std::lower_bound(distinct.begin(), distinct.end(), key[t]) - distinct.begin());
  return distinct.size();
}

namespace {

int local_face_of(const Cell& cell, Index face) {
  for (int f = 0; f < 4; ++f)
    if (cell.faces[static_cast<std::size_t>(f)] == face) return f;
  return -1;
}

// Cells, their LD records with the faces' own normals, materials and face links.
void place_cells(const Mesh& mesh, const mesh::Partition& partition, const Problem& problem,
                 const std::vector<Vec3>& normals, SweepPlan& plan) {
  const std::int32_t rank = plan.rank;
  std::vector<Index> own;
  for (Index c = 0; c < mesh.cells.size(); ++c)
    if (partition.part_of_cell[c] == rank) own.push_back(c);
  plan.cells = plan_cell_order(mesh, own);
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

// Dependencies, lagged faces, priorities and record counts of direction d (band-octant's
// 64-bit keys into wide_key, renumbered by the caller).
void order_direction(const Mesh& mesh, const mesh::Partition& partition, const std::vector<Vec3>& normals,
                     const Vec3& omega, std::size_t d, const std::array<std::vector<std::uint32_t>, 8>& slabs,
                     std::vector<std::uint8_t>& lag_flag, std::vector<std::uint64_t>& wide_key, SweepPlan& plan) {
  const std::size_t D = static_cast<std::size_t>(plan.directions);
  const DirectionOrder order = direction_order(mesh, normals, omega);
  plan.lagged_faces_global += order.lagged.size();
  for (Index F : order.lagged) lag_flag[F] = 1;
  const std::uint8_t octant = octant_of(omega);
  const std::uint32_t last_slab = plan.cells.empty() ? 0 : static_cast<std::uint32_t>((plan.cells.size() - 1) / kOctantSlabCells);
  // blevel's key: the band, the direction's bits (enough for D - 1), the level within the
  // band (kBlevelBandBits); the band capped where the three would not fit in 32 bits (a
  // downwind path of 2^25 cells at S8's D = 80: never in practice).
  constexpr unsigned kInBandBits = kBlevelBandBits;
  unsigned direction_bits = 0;
  while ((std::size_t{1} << direction_bits) < D) ++direction_bits;
  const unsigned band_bits = direction_bits + kInBandBits >= 32 ? 0 : 32 - direction_bits - kInBandBits;
  const std::uint32_t band_cap = static_cast<std::uint32_t>((std::uint64_t{1} << band_bits) - 1);
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
      case Priority::blevel:
        // The band, then the lower direction, then the higher b-level (kBlevelBand): a
        // direction's cells in one band are swept together, so a task's upwind psi was
        // written a few hundred tasks before and is still in cache.
        plan.priority[t] = (band_bits ? std::min(order.blevel[c] / kBlevelBand, band_cap) << (direction_bits + kInBandBits) : 0u) |
                           static_cast<std::uint32_t>((D - 1 - d) << kInBandBits) | (order.blevel[c] % kBlevelBand);
        break;
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
      case Priority::octant:
        // Octant, slab, direction (mixed radix): the levels' order, made dense below.
        plan.priority[t] = octant_priority(octant, slabs[octant][i], last_slab, D, d);
        break;
      case Priority::fifo: plan.priority[t] = 0; break;
      case Priority::band_octant:
        wide_key[t] = band_octant_priority(order.blevel[c], octant, slabs[octant][i], last_slab, D, d);
        break;
    }
  }
  for (Index F : order.lagged) lag_flag[F] = 0;
}

}  // namespace

void check_plan_limits(std::size_t rank_cells, std::size_t directions, Priority priority, const std::string& name) {
  if (rank_cells * directions >= std::numeric_limits<std::uint32_t>::max())
    throw instrument::InputError(name, "tasks", "at most 2^32 - 1 cell-angle tasks on one rank, found " +
                                                    std::to_string(rank_cells) + " cells x " +
                                                    std::to_string(directions) + " directions (use more ranks)");
  // octant: at most 512 directions (an S_N of today has at most 288): octant_priority's keys
  // then stay under 8 x (cells / 512 + 1) x D <= cells x D / 64 + 4096, far under 2^32 as
  // cells x D < 2^32 (checked above). The projection keeps the same limit. band-octant's keys
  // are 64-bit (band_octant_priority): any D.
  if (priority == Priority::octant && directions > 512)
    throw instrument::InputError(name, "priority octant", "at most 512 directions, found " +
                                                              std::to_string(directions) + " (use another priority)");
}

SweepPlan make_sweep_plan(const Mesh& mesh, const mesh::Partition& partition, const Problem& problem, int rank,
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
  check_plan_limits(plan.cells.size(), D, priority, name);
  plan.in_degree.assign(plan.tasks(), 0);
  plan.lagged_mask.assign(plan.tasks(), 0);
  plan.priority.assign(plan.tasks(), 0);
  std::array<std::vector<std::uint32_t>, 8> slabs;
  if (priority == Priority::octant || priority == Priority::band_octant) {
    slabs = octant_slabs(mesh, plan.cells);
  }
  std::vector<std::uint8_t> lag_flag(mesh.faces.size(), 0);
  std::vector<std::uint64_t> wide_key(priority == Priority::band_octant ? plan.tasks() : 0);
  for (std::size_t d = 0; d < D; ++d)
    order_direction(mesh, partition, normals, problem.quadrature.omega[d], d, slabs, lag_flag, wide_key, plan);
  for (std::int64_t n : plan.records_from) plan.records_in += n;
  // Dense levels keep the order and let the ready queue be an array of buckets.
  plan.priority_levels = std::max<std::size_t>(
      priority == Priority::band_octant ? renumber_densely(wide_key, plan.priority) : renumber_densely(plan.priority), 1);
  return plan;
}

}  // namespace tycho
