// Point location in a tetrahedral mesh (point_location.hpp).
#include "mesh/point_location.hpp"

#include <algorithm>
#include <cmath>

#include "mesh/mesh_geometry.hpp"

namespace mesh {


namespace {

// A point this close to a cell's face (in barycentric terms) is in it: round-off.
constexpr double kOnFace = 1e-12;

Location barycentric(const Mesh& mesh, Index c, const Vec3& p) {
  const auto& n = mesh.cells[c].nodes;
  const Vec3 &a = mesh.nodes[n[0]], &b = mesh.nodes[n[1]], &cc = mesh.nodes[n[2]], &d = mesh.nodes[n[3]];
  const double whole = six_signed_volume(a, b, cc, d);
  Location l;
  l.cell = c;
  // Corner i's weight: the volume with p in its place over the cell's (signs cancel).
  l.weight = {six_signed_volume(p, b, cc, d) / whole, six_signed_volume(a, p, cc, d) / whole,
              six_signed_volume(a, b, p, d) / whole, six_signed_volume(a, b, cc, p) / whole};
  l.worst = *std::min_element(l.weight.begin(), l.weight.end());
  return l;
}

}  // namespace

std::size_t CellLocator::bucket(int i, int j, int k) const {
  return static_cast<std::size_t>(i) + static_cast<std::size_t>(n_[0]) * (static_cast<std::size_t>(j) + static_cast<std::size_t>(n_[1]) * static_cast<std::size_t>(k));
}

CellLocator::CellLocator(const Mesh& mesh) : mesh_(mesh) {
  Vec3 lo{1e300, 1e300, 1e300}, hi{-1e300, -1e300, -1e300};
  for (const Vec3& p : mesh.nodes) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z)};
  }
  lo_ = lo;
  const double ext[3] = {hi.x - lo.x, hi.y - lo.y, hi.z - lo.z};
  // About one bucket per cell: the side h of a cube of the box's volume over the cells.
  const double box = std::max(ext[0], 1e-300) * std::max(ext[1], 1e-300) * std::max(ext[2], 1e-300);
  const double h = std::cbrt(box / static_cast<double>(std::max<std::size_t>(mesh.cells.size(), 1)));
  for (int a = 0; a < 3; ++a) {
    n_[a] = static_cast<int>(std::clamp(std::ceil(ext[a] / h), 1.0, 512.0));
    inv_size_[a] = ext[a] > 0 ? n_[a] / ext[a] : 0.0;
  }
  const auto range = [&](int a, double v0, double v1, const double o) {
    const int i0 = std::clamp(static_cast<int>(std::floor((v0 - o) * inv_size_[a])), 0, n_[a] - 1);
    const int i1 = std::clamp(static_cast<int>(std::floor((v1 - o) * inv_size_[a])), 0, n_[a] - 1);
    return std::array<int, 2>{i0, i1};
  };
  // Two passes over the cells' boxes: count per bucket, then fill (cells ascending).
  std::vector<std::array<int, 6>> boxes(mesh.cells.size());
  for (std::size_t c = 0; c < mesh.cells.size(); ++c) {
    Vec3 a{1e300, 1e300, 1e300}, b{-1e300, -1e300, -1e300};
    for (Index n : mesh.cells[c].nodes) {
      const Vec3& p = mesh.nodes[n];
      a = {std::min(a.x, p.x), std::min(a.y, p.y), std::min(a.z, p.z)};
      b = {std::max(b.x, p.x), std::max(b.y, p.y), std::max(b.z, p.z)};
    }
    const auto x = range(0, a.x, b.x, lo.x), y = range(1, a.y, b.y, lo.y), z = range(2, a.z, b.z, lo.z);
    boxes[c] = {x[0], x[1], y[0], y[1], z[0], z[1]};
  }
  start_.assign(static_cast<std::size_t>(n_[0]) * n_[1] * n_[2] + 1, 0);
  for (int pass = 0; pass < 2; ++pass) {
    std::vector<std::uint32_t> fill(start_.begin(), start_.end() - 1);
    for (std::size_t c = 0; c < boxes.size(); ++c) {
      const auto& bx = boxes[c];
      for (int k = bx[4]; k <= bx[5]; ++k)
        for (int j = bx[2]; j <= bx[3]; ++j)
          for (int i = bx[0]; i <= bx[1]; ++i) {
            if (pass == 0) ++start_[bucket(i, j, k) + 1];
            else cells_[fill[bucket(i, j, k)]++] = static_cast<Index>(c);
          }
    }
    if (pass == 0) {
      for (std::size_t b = 1; b < start_.size(); ++b) start_[b] += start_[b - 1];
      cells_.resize(start_.back());
    }
  }
}

Location CellLocator::locate(const Vec3& p) const {
  const double v[3] = {p.x - lo_.x, p.y - lo_.y, p.z - lo_.z};
  int at[3];
  for (int a = 0; a < 3; ++a) at[a] = std::clamp(static_cast<int>(std::floor(v[a] * inv_size_[a])), 0, n_[a] - 1);
  Location best;
  const auto consider = [&](int i, int j, int k) {
    const std::size_t b = bucket(i, j, k);
    for (std::uint32_t e = start_[b]; e < start_[b + 1]; ++e) {
      const Location l = barycentric(mesh_, cells_[e], p);
      if (l.worst > best.worst || (l.worst == best.worst && l.cell < best.cell)) best = l;
    }
  };
  // Ring r: the buckets at Chebyshev distance exactly r from p's.
  for (int r = 0; r <= 2; ++r) {
    for (int k = at[2] - r; k <= at[2] + r; ++k)
      for (int j = at[1] - r; j <= at[1] + r; ++j)
        for (int i = at[0] - r; i <= at[0] + r; ++i) {
          if (i < 0 || j < 0 || k < 0 || i >= n_[0] || j >= n_[1] || k >= n_[2]) continue;
          if (std::max({std::abs(i - at[0]), std::abs(j - at[1]), std::abs(k - at[2])}) != r) continue;
          consider(i, j, k);
        }
    if (best.worst >= -kOnFace) break;
  }
  return best;
}

}  // namespace mesh
