// The Tycho2 serial mesh (.smesh), little-endian binary (../shared/meshes/tycho2/README.md):
//   32-byte name "Tycho 2 Serial Mesh" (zero-padded), uint64 version 2, uint64 counts of
//   cells C, faces F, nodes N; then C x 9 uint64 (4 faces, 4 nodes, material), F x 5 uint64
//   (2 cells, the second UINT64_MAX on a boundary, 3 nodes), N x 3 float64.
// The size must be exactly 64 + 72C + 40F + 24N, checked before anything is allocated.
#pragma once
#include <string>
#include <string_view>

#include "mesh/mesh.hpp"

namespace mesh {

inline constexpr std::string_view kSmeshName = "Tycho 2 Serial Mesh";
inline constexpr std::uint64_t kSmeshVersion = 2;

// The records of `bytes`, every index checked against its range; no topology or geometry
// checks (check_mesh) and no geometry (compute_geometry). `name` names the file in errors.
Mesh parse_smesh(std::string_view bytes, const std::string& name);

// Reads, parses, checks (check_mesh) and computes the geometry: a mesh ready to sweep.
Mesh read_smesh(const std::string& path);

// The file's bytes for `mesh` (its nodes, cells and faces; the geometry is not stored).
std::string format_smesh(const Mesh& mesh);

// Writes format_smesh(mesh) through instrument's OutputFile (no partial file on failure).
void write_smesh(const Mesh& mesh, const std::string& path);

}  // namespace mesh
