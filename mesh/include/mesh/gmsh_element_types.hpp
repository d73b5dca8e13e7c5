// The element types of Gmsh (its numbering, 1 to 31): how many nodes each has, its
// dimension and its name. The reader takes only type 4 (the 4-node tetrahedron) in volumes; the
// others are known so that points, lines and triangles can be skipped (a binary file gives
// no other way to find the next element) and a refused volume element named.
#pragma once
#include <cstdint>

namespace mesh {

struct GmshElementType {
  int nodes = 0;  // 0: not a type this table knows
  int dimension = 0;
  const char* name = "";
};

inline constexpr std::int32_t kGmshTetrahedron = 4;

// The type's description; nodes == 0 for a number Gmsh does not define here.
GmshElementType gmsh_element_type(std::int32_t type);

}  // namespace mesh
