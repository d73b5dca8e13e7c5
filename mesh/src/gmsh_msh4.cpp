// The sections of a version 4.1 .msh file (ASCII and binary alike: gmsh_cursor.hpp reads
// both). An element's material is the physical group of its volume entity, so $Entities
// must come before $Elements; Gmsh writes it before $Nodes, and so we require.
#include <map>
#include <vector>

#include "instrument/input_file.hpp"
#include "mesh/gmsh_content.hpp"
#include "mesh/gmsh_element_types.hpp"

namespace mesh {

namespace {

// The smallest record of each kind, in bytes, so that a count the file cannot hold is
// refused before anything is allocated for it: in ASCII a token and a separator.
std::size_t min_bytes(const GmshCursor& c, std::size_t binary_bytes, std::size_t ascii_tokens) {
  return c.binary() ? binary_bytes : 2 * ascii_tokens - 1;
}

struct VolumeGroups {
  std::size_t at = 0;  // the place of the volume's record in $Entities
  std::vector<std::int32_t> physical;
};

using Volumes = std::map<std::int32_t, VolumeGroups>;

// Points, curves, surfaces and volumes; the physical groups of the volumes kept.
Volumes read_entities(GmshCursor& c) {
  std::uint64_t counts[4];
  for (auto& n : counts) n = c.count("an entity count of $Entities", min_bytes(c, 36, 5));
  Volumes volumes;
  for (int dim = 0; dim < 4; ++dim)
    for (std::uint64_t e = 0; e < counts[dim]; ++e) {
      const std::size_t at = c.next();
      const std::int32_t tag = c.integer("an entity tag");
      for (int i = 0; i < (dim == 0 ? 3 : 6); ++i) c.real(dim == 0 ? "a point coordinate" : "a bounding box coordinate");
      const std::uint64_t n = c.count("the number of physical tags of an entity", min_bytes(c, 4, 1));
      std::vector<std::int32_t> physical;
      for (std::uint64_t i = 0; i < n; ++i) {
        const std::int32_t p = c.integer("a physical tag");
        if (dim == 3) physical.push_back(p);
      }
      if (dim > 0) {
        const std::uint64_t bounding = c.count("the number of bounding entities", min_bytes(c, 4, 1));
        for (std::uint64_t i = 0; i < bounding; ++i) c.integer("a bounding entity tag");
      }
      if (dim == 3 && !volumes.emplace(tag, VolumeGroups{at, std::move(physical)}).second)
        c.fail_at(at, "volume " + std::to_string(tag) + " given twice in $Entities");
    }
  c.expect_header("$EndEntities");
  return volumes;
}

void read_nodes(GmshCursor& c, GmshContent& content) {
  const std::size_t header_at = c.next();
  const std::uint64_t blocks = c.count("the number of node blocks", min_bytes(c, 20, 4));
  const std::uint64_t total = c.size("the number of nodes");
  c.size("the smallest node tag");
  c.size("the largest node tag");
  std::uint64_t read = 0;
  std::vector<std::pair<std::uint64_t, std::size_t>> tags;  // tag, place
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::size_t at = c.next();
    const std::int32_t dim = c.integer("the dimension of a node block's entity");
    c.integer("the entity tag of a node block");
    const std::int32_t parametric = c.integer("whether a node block is parametric (0 or 1)");
    const std::uint64_t n = c.size("the number of nodes in a block");
    if (dim < 0 || dim > 3) c.fail_at(at, "expected a node block of dimension 0 to 3, found " + std::to_string(dim));
    if (parametric != 0 && parametric != 1)
      c.fail_at(at, "expected a node block parametric flag of 0 or 1, found " + std::to_string(parametric));
    if (n > total - read)
      c.fail_at(at, "expected at most the " + std::to_string(total) + " nodes of the header of $Nodes, found " +
                        std::to_string(read + n) + " by this block");
    c.require_room(at, "the number of nodes in a block", n, min_bytes(c, 32, 4));
    read += n;
    tags.resize(n);
    for (auto& [tag, place] : tags) {
      place = c.next();
      tag = c.size("a node tag");
    }
    for (const auto& [tag, place] : tags) {
      const std::size_t x_at = c.next();
      Vec3 x;
      x.x = c.real("a node's x");
      x.y = c.real("a node's y");
      x.z = c.real("a node's z");
      for (int i = 0; i < (parametric ? dim : 0); ++i) c.real("a node's parametric coordinate");
      content.add_node(c, x_at, tag, x);
    }
  }
  if (read != total)
    c.fail_at(header_at, "expected the " + std::to_string(total) + " nodes of the header of $Nodes, found " + std::to_string(read) +
           " in its blocks");
  c.expect_header("$EndNodes");
  content.end_nodes(c);
}

std::uint32_t volume_material(const GmshCursor& c, std::size_t at, const Volumes& volumes, std::int32_t volume) {
  const auto it = volumes.find(volume);
  if (it == volumes.end()) c.fail_at(at, "expected the volume of a tetrahedron block in $Entities, volume " +
                                             std::to_string(volume) + " is not");
  const std::vector<std::int32_t>& p = it->second.physical;
  if (p.size() != 1)
    c.fail_at(at, "volume " + std::to_string(volume) + " is in " + std::to_string(p.size()) +
                      " physical groups: expected one, whose tag is its tetrahedra's material");
  if (p[0] <= 0)
    c.fail_at(at, "volume " + std::to_string(volume) + ": expected a physical tag of at least 1, found " +
                      std::to_string(p[0]));
  return static_cast<std::uint32_t>(p[0]);
}

void read_elements(GmshCursor& c, GmshContent& content, const Volumes& volumes) {
  const std::size_t header_at = c.next();
  const std::uint64_t blocks = c.count("the number of element blocks", min_bytes(c, 20, 4));
  const std::uint64_t total = c.size("the number of elements");
  c.size("the smallest element tag");
  c.size("the largest element tag");
  std::uint64_t read = 0;
  for (std::uint64_t b = 0; b < blocks; ++b) {
    const std::size_t at = c.next();
    const std::int32_t dim = c.integer("the dimension of an element block's entity");
    const std::int32_t entity = c.integer("the entity tag of an element block");
    const std::int32_t type = c.integer("the element type of a block");
    const GmshElementType t = gmsh_element_type(type);
    if (t.nodes == 0) c.fail_at(at, "expected a Gmsh element type from 1 to 31, found " + std::to_string(type));
    if (t.dimension != dim)
      c.fail_at(at, "expected a block of dimension " + std::to_string(t.dimension) + " for element type " +
                        std::to_string(type) + " (" + t.name + "), found dimension " + std::to_string(dim));
    if (dim == 3 && type != kGmshTetrahedron)
      c.fail_at(at, "expected only 4-node tetrahedra (type 4) in volumes, found type " + std::to_string(type) + " (" +
                        t.name + ") in volume " + std::to_string(entity));
    const std::uint64_t n = c.size("the number of elements in a block");
    if (n > total - read)
      c.fail_at(at, "expected at most the " + std::to_string(total) + " elements of the header of $Elements, found " +
                        std::to_string(read + n) + " by this block");
    c.require_room(at, "the number of elements in a block", n,
                   min_bytes(c, 8 * (1 + static_cast<std::size_t>(t.nodes)), 1 + static_cast<std::size_t>(t.nodes)));
    read += n;
    if (dim != 3) {  // boundary entities: read past
      for (std::uint64_t e = 0; e < n; ++e)
        for (int i = 0; i <= t.nodes; ++i) c.size(i == 0 ? "an element tag" : "an element's node tag");
      continue;
    }
    const std::uint32_t material = volume_material(c, at, volumes, entity);
    for (std::uint64_t e = 0; e < n; ++e) {
      const std::size_t element_at = c.next();
      const std::uint64_t tag = c.size("an element tag");
      std::uint64_t nodes[4];
      for (auto& v : nodes) v = c.size("a tetrahedron's node tag");
      content.add_tetrahedron(c, element_at, tag, nodes, material);
    }
  }
  if (read != total)
    c.fail_at(header_at, "expected the " + std::to_string(total) + " elements of the header of $Elements, found " +
           std::to_string(read) + " in its blocks");
  c.expect_header("$EndElements");
}

}  // namespace

void read_msh4_sections(GmshCursor& c, GmshContent& content) {
  bool have_entities = false, have_nodes = false, have_elements = false;
  Volumes volumes;
  while (true) {
    c.skip_space();
    if (c.at_end()) break;
    const std::size_t at = c.next();
    const std::string name(c.short_line("a section header", kMaxSectionHeaderBytes));
    auto once = [&](bool& seen) {
      if (seen) c.fail_at(at, "expected " + name + " once, found it again");
      seen = true;
    };
    if (name == "$Entities") {
      once(have_entities);
      if (have_nodes) c.fail_at(at, "expected $Entities before $Nodes, found it after");
      volumes = read_entities(c);
    } else if (name == "$Nodes") {
      once(have_nodes);
      if (!have_entities) c.fail_at(at, "expected $Entities before $Nodes (materials are the volumes' physical groups)");
      read_nodes(c, content);
    } else if (name == "$Elements") {
      once(have_elements);
      if (!have_nodes) c.fail_at(at, "expected $Nodes before $Elements");
      read_elements(c, content, volumes);
    } else if (name == "$PartitionedEntities") {
      c.fail_at(at, "expected an unpartitioned mesh, found $PartitionedEntities (the apps partition the mesh themselves)");
    } else if (name == "$MeshFormat") {
      c.fail_at(at, "expected $MeshFormat once, found it again");
    } else if (name.size() > 1 && name[0] == '$' && name.rfind("$End", 0) != 0) {
      c.skip_section(name.substr(1), at);
    } else {
      c.fail_at(at, "expected a section header ($Name), found " + instrument::quote_token(name));
    }
  }
  if (!have_elements) c.fail("expected a $Elements section, found the end of the file");
}

}  // namespace mesh
