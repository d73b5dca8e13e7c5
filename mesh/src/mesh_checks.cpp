// Topology and geometry validation (mesh_checks.hpp). Order matters: each check relies on
// the ones before it (a same-side test needs non-degenerate cells, whose faces are theirs).
#include "mesh/mesh_checks.hpp"

#include <algorithm>
#include <cmath>

#include "instrument/error.hpp"
#include "mesh/mesh_geometry.hpp"

namespace mesh {

namespace {

std::string list(const Index* v, std::size_t n) {
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += (i ? ", " : "") + std::to_string(v[i]);
  return s;
}

const char* ordinal(std::size_t i) {
  static const char* const names[] = {"1st", "2nd", "3rd", "4th"};
  return names[i];
}

[[noreturn]] void refuse(const std::string& file, const char* kind, std::size_t index, const std::string& why) {
  throw instrument::InputError(file, std::string(kind) + " " + std::to_string(index), why);
}

template <std::size_t N>
bool distinct(const std::array<Index, N>& v) {
  for (std::size_t i = 0; i < N; ++i)
    for (std::size_t j = i + 1; j < N; ++j)
      if (v[i] == v[j]) return false;
  return true;
}

bool holds(const std::array<Index, 4>& v, Index x) { return std::find(v.begin(), v.end(), x) != v.end(); }

double distance_squared(const Vec3& a, const Vec3& b) {
  return (a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y) + (a.z - b.z) * (a.z - b.z);
}

void check_nodes(const Mesh& mesh, const std::string& file) {
  for (std::size_t i = 0; i < mesh.nodes.size(); ++i) {
    const Vec3& p = mesh.nodes[i];
    for (double x : {p.x, p.y, p.z})
      if (!(std::abs(x) <= kMaxCoordinate))
        refuse(file, "node", i, "coordinates must be finite and within +-1e30, found (" + std::to_string(p.x) + ", " +
                                    std::to_string(p.y) + ", " + std::to_string(p.z) + ")");
  }
}

void check_cell_shape(const Mesh& mesh, const std::string& file, std::size_t c) {
  const Cell& cell = mesh.cells[c];
  if (!distinct(cell.nodes))
    refuse(file, "cell", c, "degenerate: its 4 nodes must be distinct, found " + list(cell.nodes.data(), 4));
  if (!distinct(cell.faces))
    refuse(file, "cell", c, "its 4 faces must be distinct, found " + list(cell.faces.data(), 4));
  const auto& x = mesh.nodes;
  // Squared lengths, one square root: std::hypot per edge made this check cost as much as
  // the geometry. Coordinates within 1e30 keep the squares finite.
  double longest_squared = 0;
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = i + 1; j < 4; ++j)
      longest_squared = std::max(longest_squared, distance_squared(x[cell.nodes[i]], x[cell.nodes[j]]));
  const double longest = std::sqrt(longest_squared);
  const double volume =
      std::abs(six_signed_volume(x[cell.nodes[0]], x[cell.nodes[1]], x[cell.nodes[2]], x[cell.nodes[3]])) / 6;
  if (!(volume > kDegenerateVolumeRatio * longest * longest * longest))
    refuse(file, "cell", c, "degenerate: its volume " + std::to_string(volume) + " must exceed 1e-12 x (longest edge " +
                                std::to_string(longest) + ")^3");
}

void check_cell_faces(const Mesh& mesh, const std::string& file, std::size_t c) {
  const Cell& cell = mesh.cells[c];
  std::array<Index, 4> opposite{};
  for (std::size_t i = 0; i < 4; ++i) {
    const Index f = cell.faces[i];
    const Face& face = mesh.faces[f];
    // Built only on failure: a string per face cost more than the checks themselves.
    const auto which = [&] { return "its " + std::string(ordinal(i)) + " face " + std::to_string(f); };
    if (face.cells[0] != c && face.cells[1] != c)
      refuse(file, "cell", c, which() + " must list this cell as one of its two cells, found cells " +
                                  std::to_string(face.cells[0]) + " and " +
                                  (face.on_boundary() ? "the boundary" : std::to_string(face.cells[1])));
    for (Index v : face.nodes)
      if (!holds(cell.nodes, v))
        refuse(file, "cell", c, which() + " has node " + std::to_string(v) + ", expected 3 of the cell's nodes " +
                                    list(cell.nodes.data(), 4));
    opposite[i] = node_opposite(cell, face);
  }
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t j = i + 1; j < 4; ++j)
      if (opposite[i] == opposite[j])
        refuse(file, "cell", c, "its faces must cover its 4 triangles, but its " + std::string(ordinal(i)) +
                                    " and " + ordinal(j) + " faces (" + std::to_string(cell.faces[i]) + ", " +
                                    std::to_string(cell.faces[j]) + ") are the same triangle");
}

void check_face(const Mesh& mesh, const std::string& file, std::size_t f) {
  const Face& face = mesh.faces[f];
  if (!distinct(face.nodes)) refuse(file, "face", f, "its 3 nodes must be distinct, found " + list(face.nodes.data(), 3));
  if (face.cells[0] == face.cells[1])
    refuse(file, "face", f, "an interior face must join two different cells, found cell " +
                                std::to_string(face.cells[0]) + " twice");
  for (std::size_t s = 0; s < 2; ++s) {
    if (s == 1 && face.on_boundary()) break;
    if (!holds(mesh.cells[face.cells[s]].faces, static_cast<Index>(f)))
      refuse(file, "face", f, "its cell " + std::to_string(face.cells[s]) + " must list it among its faces, found " +
                                  list(mesh.cells[face.cells[s]].faces.data(), 4));
  }
}

// An interior face's two cells on opposite sides of it (else they overlap).
void check_face_sides(const Mesh& mesh, const std::string& file, std::size_t f) {
  const Face& face = mesh.faces[f];
  if (face.on_boundary()) return;
  const auto& x = mesh.nodes;
  const Vec3 &a = x[face.nodes[0]], &b = x[face.nodes[1]], &c = x[face.nodes[2]];
  const double s0 = six_signed_volume(a, b, c, x[node_opposite(mesh.cells[face.cells[0]], face)]);
  const double s1 = six_signed_volume(a, b, c, x[node_opposite(mesh.cells[face.cells[1]], face)]);
  if (!((s0 < 0 && s1 > 0) || (s0 > 0 && s1 < 0)))
    refuse(file, "face", f, "its cells " + std::to_string(face.cells[0]) + " and " + std::to_string(face.cells[1]) +
                                " must lie on opposite sides of it, found both on one side (overlapping cells)");
}

// Two faces with the same three nodes: a triangle shared by more than two cells, or listed
// twice (non-manifold). The faces in the order of one sort by (sorted nodes, face): bucketed
// by their lowest node (a counting sort, each bucket in face order), each small bucket sorted
// by the other two, so the first pair reported is that sort's.
void check_unique_triangles(const Mesh& mesh, const std::string& file) {
  struct Key {
    Index n1, n2, face;
    bool operator<(const Key& o) const {
      if (n1 != o.n1) return n1 < o.n1;
      return n2 != o.n2 ? n2 < o.n2 : face < o.face;
    }
  };
  const auto sorted_nodes = [&mesh](std::size_t f) {
    std::array<Index, 3> n = mesh.faces[f].nodes;
    std::sort(n.begin(), n.end());
    return n;
  };
  Index highest = 0;
  for (const Face& face : mesh.faces)
    for (Index n : face.nodes) highest = std::max(highest, n);
  std::vector<std::size_t> bucket(std::size_t{highest} + 2, 0);
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) ++bucket[sorted_nodes(f)[0] + std::size_t{1}];
  for (std::size_t n = 0; n + 1 < bucket.size(); ++n) bucket[n + 1] += bucket[n];
  std::vector<Key> keys(mesh.faces.size());
  std::vector<std::size_t> fill(bucket.begin(), bucket.end() - 1);
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
    const std::array<Index, 3> n = sorted_nodes(f);
    keys[fill[n[0]]++] = {n[1], n[2], static_cast<Index>(f)};
  }
  for (std::size_t n0 = 0; n0 + 1 < bucket.size(); ++n0) {
    const auto b = keys.begin() + static_cast<std::ptrdiff_t>(bucket[n0]);
    const auto e = keys.begin() + static_cast<std::ptrdiff_t>(bucket[n0 + 1]);
    std::sort(b, e);
    for (auto i = b; i != e && i + 1 != e; ++i)
      if (i[1].n1 == i->n1 && i[1].n2 == i->n2) {
        const Index nodes[3] = {static_cast<Index>(n0), i->n1, i->n2};
        refuse(file, "face", i[1].face, "non-manifold: the same triangle (nodes " + list(nodes, 3) + ") as face " +
                                             std::to_string(i->face) +
                                             "; each triangle must be one face of at most two cells");
      }
  }
}

}  // namespace

void check_mesh(const Mesh& mesh, const std::string& file) {
  check_nodes(mesh, file);
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) check_face(mesh, file, f);
  for (std::size_t c = 0; c < mesh.cells.size(); ++c) {
    check_cell_shape(mesh, file, c);
    check_cell_faces(mesh, file, c);
  }
  check_unique_triangles(mesh, file);
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) check_face_sides(mesh, file, f);
}

void check_refined_cells(const Mesh& mesh, const std::string& file) {
  for (std::size_t c = 0; c < mesh.cells.size(); ++c) check_cell_shape(mesh, file, c);
}

void check_mesh_from_cells(const Mesh& mesh, const std::string& file) {
  check_nodes(mesh, file);
  for (std::size_t c = 0; c < mesh.cells.size(); ++c) check_cell_shape(mesh, file, c);
  for (std::size_t f = 0; f < mesh.faces.size(); ++f) check_face_sides(mesh, file, f);
}

}  // namespace mesh
