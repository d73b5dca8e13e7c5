// The tetrahedral mesh tycho and multigrid work on: nodes, cells and faces as the Tycho2
// serial mesh stores them, and the geometry derived from them once (compute_geometry).
//
// Indices are 32-bit: the readers refuse more than kMaxEntities cells, faces or nodes, so
// the arrays stay small and the sweep's index loads stay cheap. Plain flat arrays, no
// per-element allocation.
#pragma once
#include <array>
#include <cstdint>
#include <vector>

namespace mesh {

using Index = std::uint32_t;
// The second cell of a face on the boundary.
inline constexpr Index kBoundary = 0xFFFFFFFFu;
// At most this many cells, faces or nodes (2^31 - 1), so every index fits in an int too.
inline constexpr std::uint64_t kMaxEntities = 0x7FFFFFFFu;
// Materials are indices below 2^31.
inline constexpr std::uint64_t kMaxMaterial = 0x7FFFFFFFu;

struct Vec3 {
  double x = 0, y = 0, z = 0;
  friend bool operator==(const Vec3&, const Vec3&) = default;
};

struct Cell {
  std::array<Index, 4> faces{};  // its four faces, in the file's order
  std::array<Index, 4> nodes{};  // its four corners, in the file's order
  std::uint32_t material = 0;
  friend bool operator==(const Cell&, const Cell&) = default;
};

struct Face {
  std::array<Index, 2> cells{};  // cells[1] == kBoundary on a boundary face
  std::array<Index, 3> nodes{};
  bool on_boundary() const { return cells[1] == kBoundary; }
  friend bool operator==(const Face&, const Face&) = default;
};

// Derived per cell, local face f meaning cells[c].faces[f]. The file has no orientation
// convention, so "outward" is computed: away from the cell's node that is not on the face.
struct CellGeometry {
  double volume = 0;                   // > 0 for a checked mesh
  std::array<Vec3, 4> outward_normal;  // unit length
  std::array<double, 4> face_area{};
  std::uint8_t boundary_faces = 0;     // bit f: local face f is on the boundary
};

struct Mesh {
  std::vector<Vec3> nodes;
  std::vector<Cell> cells;
  std::vector<Face> faces;
  // Filled by compute_geometry (mesh_geometry.hpp); empty until then.
  std::vector<CellGeometry> geometry;
};

}  // namespace mesh
