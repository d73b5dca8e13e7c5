// Gmsh's element types 1-31 (its documentation, "MSH file format", element types).
#include "mesh/gmsh_element_types.hpp"

#include <array>

namespace mesh {

GmshElementType gmsh_element_type(std::int32_t type) {
  static constexpr std::array<GmshElementType, 32> kTypes{{
      {},
      {2, 1, "2-node line"},
      {3, 2, "3-node triangle"},
      {4, 2, "4-node quadrangle"},
      {4, 3, "4-node tetrahedron"},
      {8, 3, "8-node hexahedron"},
      {6, 3, "6-node prism"},
      {5, 3, "5-node pyramid"},
      {3, 1, "3-node line"},
      {6, 2, "6-node triangle"},
      {9, 2, "9-node quadrangle"},
      {10, 3, "10-node tetrahedron"},
      {27, 3, "27-node hexahedron"},
      {18, 3, "18-node prism"},
      {14, 3, "14-node pyramid"},
      {1, 0, "1-node point"},
      {8, 2, "8-node quadrangle"},
      {20, 3, "20-node hexahedron"},
      {15, 3, "15-node prism"},
      {13, 3, "13-node pyramid"},
      {9, 2, "9-node triangle"},
      {10, 2, "10-node triangle"},
      {12, 2, "12-node triangle"},
      {15, 2, "15-node triangle"},
      {15, 2, "15-node incomplete triangle"},
      {21, 2, "21-node triangle"},
      {4, 1, "4-node line"},
      {5, 1, "5-node line"},
      {6, 1, "6-node line"},
      {20, 3, "20-node tetrahedron"},
      {35, 3, "35-node tetrahedron"},
      {56, 3, "56-node tetrahedron"},
  }};
  if (type < 1 || type >= static_cast<std::int32_t>(kTypes.size())) return {};
  return kTypes[static_cast<std::size_t>(type)];
}

}  // namespace mesh
