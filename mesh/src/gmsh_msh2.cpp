// The sections of a version 2.2 .msh file. Its ASCII and binary forms differ in the
// elements: ASCII has one line per element (tag, type, tags, nodes), binary groups elements
// of one type and tag count behind a header (type, count, tags per element). Tags and node
// numbers are ints in binary. An element's first tag is its physical group: the material.
#include <string>

#include "instrument/input_file.hpp"
#include "mesh/gmsh_content.hpp"
#include "mesh/gmsh_element_types.hpp"

namespace mesh {

namespace {

// A node or element number: an unsigned token in ASCII, an int of at least 1 in binary.
std::uint64_t number(GmshCursor& c, const char* what) {
  if (!c.binary()) return c.size(what);
  const std::size_t at = c.next();
  const std::int32_t v = c.integer(what);
  if (v < 1) c.fail_at(at, std::string("expected ") + what + " of at least 1, found " + std::to_string(v));
  return static_cast<std::uint64_t>(v);
}

void read_nodes(GmshCursor& c, GmshContent& content) {
  const std::uint64_t n = c.text_count("the number of nodes", c.binary() ? 28 : 7);
  for (std::uint64_t i = 0; i < n; ++i) {
    const std::size_t at = c.next();
    const std::uint64_t tag = number(c, "a node tag");
    Vec3 x;
    x.x = c.real("a node's x");
    x.y = c.real("a node's y");
    x.z = c.real("a node's z");
    content.add_node(c, at, tag, x);
  }
  c.expect_header("$EndNodes");
  content.end_nodes(c);
}

// One element after its type and tags: a tetrahedron is kept, anything of lower dimension
// read past, any other volume element refused.
void read_element(GmshCursor& c, GmshContent& content, std::size_t at, std::uint64_t tag, std::int32_t type,
                  std::int32_t physical) {
  const GmshElementType t = gmsh_element_type(type);
  if (t.dimension == 3 && type != kGmshTetrahedron)
    c.fail_at(at, "element " + std::to_string(tag) + ": expected only 4-node tetrahedra (type 4) in volumes, found type " +
                      std::to_string(type) + " (" + t.name + ")");
  if (type != kGmshTetrahedron) {
    for (int i = 0; i < t.nodes; ++i) number(c, "an element's node tag");
    return;
  }
  if (physical <= 0)
    c.fail_at(at, "element " + std::to_string(tag) +
                      ": expected a tetrahedron's first tag to be its physical volume (at least 1), its material; found " +
                      std::to_string(physical));
  std::uint64_t nodes[4];
  for (auto& v : nodes) v = number(c, "a tetrahedron's node tag");
  content.add_tetrahedron(c, at, tag, nodes, static_cast<std::uint32_t>(physical));
}

GmshElementType known_type(const GmshCursor& c, std::size_t at, std::int32_t type) {
  const GmshElementType t = gmsh_element_type(type);
  if (t.nodes == 0) c.fail_at(at, "expected a Gmsh element type from 1 to 31, found " + std::to_string(type));
  return t;
}

void read_ascii_elements(GmshCursor& c, GmshContent& content) {
  const std::uint64_t n = c.text_count("the number of elements", 7);
  for (std::uint64_t e = 0; e < n; ++e) {
    const std::size_t at = c.next();
    const std::uint64_t tag = c.size("an element tag");
    const std::int32_t type = c.integer("an element type");
    known_type(c, at, type);
    const std::int32_t tags = c.integer("an element's number of tags");
    if (tags < 0) c.fail_at(at, "element " + std::to_string(tag) + ": expected a number of tags of at least 0, found " +
                                    std::to_string(tags));
    std::int32_t physical = 0;
    for (std::int32_t i = 0; i < tags; ++i) {
      const std::int32_t v = c.integer("an element tag (physical, elementary, ...)");
      if (i == 0) physical = v;
    }
    read_element(c, content, at, tag, type, physical);
  }
}

void read_binary_elements(GmshCursor& c, GmshContent& content) {
  const std::uint64_t n = c.text_count("the number of elements", 16);
  std::uint64_t read = 0;
  while (read < n) {
    const std::size_t at = c.next();
    const std::int32_t type = c.integer("an element block's type");
    const std::int32_t following = c.integer("an element block's number of elements");
    const std::int32_t tags = c.integer("an element block's number of tags");
    const GmshElementType t = known_type(c, at, type);
    if (following < 1 || static_cast<std::uint64_t>(following) > n - read)
      c.fail_at(at, "expected an element block of 1 to " + std::to_string(n - read) +
                        " elements (the rest of the count of $Elements), found " + std::to_string(following));
    if (tags < 0) c.fail_at(at, "expected an element block's number of tags of at least 0, found " + std::to_string(tags));
    const std::uint64_t record = 4 * (1 + static_cast<std::uint64_t>(tags) + static_cast<std::uint64_t>(t.nodes));
    if (static_cast<std::uint64_t>(following) > c.bytes_left() / record)
      c.fail_at(at, "expected " + std::to_string(following) + " elements of " + std::to_string(record) +
                        " bytes, found the end of the file after " + std::to_string(c.bytes_left()) + " (truncated)");
    for (std::int32_t e = 0; e < following; ++e) {
      const std::size_t element_at = c.next();
      const std::uint64_t tag = number(c, "an element tag");
      std::int32_t physical = 0;
      for (std::int32_t i = 0; i < tags; ++i) {
        const std::int32_t v = c.integer("an element tag (physical, elementary, ...)");
        if (i == 0) physical = v;
      }
      read_element(c, content, element_at, tag, type, physical);
    }
    read += static_cast<std::uint64_t>(following);
  }
}

}  // namespace

void read_msh2_sections(GmshCursor& c, GmshContent& content) {
  bool have_nodes = false, have_elements = false;
  while (true) {
    c.skip_space();
    if (c.at_end()) break;
    const std::size_t at = c.next();
    const std::string name(c.short_line("a section header", kMaxSectionHeaderBytes));
    auto once = [&](bool& seen) {
      if (seen) c.fail_at(at, "expected " + name + " once, found it again");
      seen = true;
    };
    if (name == "$Nodes") {
      once(have_nodes);
      read_nodes(c, content);
    } else if (name == "$Elements") {
      once(have_elements);
      if (!have_nodes) c.fail_at(at, "expected $Nodes before $Elements");
      c.binary() ? read_binary_elements(c, content) : read_ascii_elements(c, content);
      c.expect_header("$EndElements");
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
