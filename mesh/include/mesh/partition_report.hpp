// What a partition gives each part: its cells, the parts it shares faces with, and how many
// of its faces are shared (the faces whose fluxes cross to another rank in a sweep).
#pragma once
#include <vector>

#include "mesh/mesh.hpp"
#include "mesh/partition.hpp"

namespace mesh {

struct PartSummary {
  std::size_t cells = 0;
  std::vector<int> neighbours;          // the other parts it shares a face with, ascending
  std::size_t partition_faces = 0;      // its faces shared with another part
  std::size_t mesh_boundary_faces = 0;  // its faces on the mesh's boundary
};

// One entry per part. Precondition: partition.part_of_cell has one entry per cell, each in
// [0, partition.parts).
std::vector<PartSummary> summarize_parts(const Mesh& mesh, const Partition& partition);

}  // namespace mesh
