// What the .msh readers of both versions collect before it becomes a mesh: the nodes with
// their Gmsh tags, then the tetrahedra with their element tags, node tags already turned
// into node indices, and materials. Shared by gmsh_msh4.cpp and gmsh_msh2.cpp.
#pragma once
#include <cstdint>
#include <vector>

#include "mesh/gmsh_cursor.hpp"
#include "mesh/gmsh_reader.hpp"
#include "mesh/mesh_from_cells.hpp"

namespace mesh {

class GmshContent {
 public:
  // A node at the cursor's place `at`: refused when a coordinate is not finite or beyond
  // kMaxCoordinate, or the tag is 0.
  void add_node(const GmshCursor& cursor, std::size_t at, std::uint64_t tag, const Vec3& x);
  // After the last node: the tag lookup; a tag given twice is refused at its second place.
  void end_nodes(const GmshCursor& cursor);
  std::size_t node_count() const { return tags_.size(); }

  // A tetrahedron at `at` with its 4 node tags, each refused if not among the nodes.
  void add_tetrahedron(const GmshCursor& cursor, std::size_t at, std::uint64_t element_tag,
                       const std::uint64_t (&node_tags)[4], std::uint32_t material);

  // The mesh of the tetrahedra, with only the nodes they use (in the file's order) and
  // faces found by mesh_from_cells (a non-manifold triangle is refused naming the element).
  GmshMesh finish(const GmshCursor& cursor, GmshFormat format, const std::string& file);

 private:
  static constexpr Index kNoNode = kBoundary;
  Index node_index(std::uint64_t tag) const;

  std::vector<std::uint64_t> tags_;
  std::vector<Vec3> coords_;
  std::vector<std::size_t> places_;
  // Tag -> index: a direct table when the tags are dense, else (tag, index) sorted by tag.
  std::vector<Index> dense_;
  std::vector<std::pair<std::uint64_t, Index>> sorted_;
  std::vector<std::uint64_t> element_tags_;
  std::vector<CellNodes> cells_;
};

// The sections after $EndMeshFormat, version by version (gmsh_msh4.cpp, gmsh_msh2.cpp).
void read_msh4_sections(GmshCursor& cursor, GmshContent& content);
void read_msh2_sections(GmshCursor& cursor, GmshContent& content);

}  // namespace mesh
