// The nodes and tetrahedra of a .msh file on their way to a Mesh (gmsh_content.hpp).
#include "mesh/gmsh_content.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "instrument/error.hpp"
#include "mesh/mesh_checks.hpp"

namespace mesh {

namespace {

// A tag table costs 4 bytes per tag up to the largest; used when that is at most about
// twice what the nodes take anyway.
bool dense_enough(std::uint64_t max_tag, std::size_t nodes) { return max_tag <= 2 * std::uint64_t{nodes} + 1024; }

std::string coordinates(const Vec3& x) {
  char text[96];
  std::snprintf(text, sizeof text, "%.17g %.17g %.17g", x.x, x.y, x.z);
  return text;
}

}  // namespace

void GmshContent::add_node(const GmshCursor& cursor, std::size_t at, std::uint64_t tag, const Vec3& x) {
  if (tag == 0) cursor.fail_at(at, "expected a node tag of at least 1, found 0");
  for (double v : {x.x, x.y, x.z})
    if (!std::isfinite(v) || std::abs(v) > kMaxCoordinate)
      cursor.fail_at(at, "node " + std::to_string(tag) + ": expected finite coordinates within +-1e30, found " +
                             coordinates(x));
  if (tags_.size() >= kMaxEntities)
    cursor.fail_at(at, "expected at most " + std::to_string(kMaxEntities) + " nodes");
  tags_.push_back(tag);
  coords_.push_back(x);
  places_.push_back(at);
}

void GmshContent::end_nodes(const GmshCursor& cursor) {
  const std::uint64_t max_tag = tags_.empty() ? 0 : *std::max_element(tags_.begin(), tags_.end());
  if (dense_enough(max_tag, tags_.size())) {
    dense_.assign(max_tag + 1, kNoNode);
    for (std::size_t i = 0; i < tags_.size(); ++i) {
      if (dense_[tags_[i]] != kNoNode)
        cursor.fail_at(places_[i], "node tag " + std::to_string(tags_[i]) + " given twice in $Nodes");
      dense_[tags_[i]] = static_cast<Index>(i);
    }
  } else {
    sorted_.resize(tags_.size());
    for (std::size_t i = 0; i < tags_.size(); ++i) sorted_[i] = {tags_[i], static_cast<Index>(i)};
    std::sort(sorted_.begin(), sorted_.end());
    for (std::size_t i = 1; i < sorted_.size(); ++i)
      if (sorted_[i].first == sorted_[i - 1].first)
        cursor.fail_at(places_[sorted_[i].second], "node tag " + std::to_string(sorted_[i].first) + " given twice in $Nodes");
  }
  places_.clear();
  places_.shrink_to_fit();
}

Index GmshContent::node_index(std::uint64_t tag) const {
  if (!sorted_.empty()) {
    const auto it = std::lower_bound(sorted_.begin(), sorted_.end(), std::pair<std::uint64_t, Index>{tag, 0});
    return it != sorted_.end() && it->first == tag ? it->second : kNoNode;
  }
  return tag < dense_.size() ? dense_[tag] : kNoNode;
}

void GmshContent::add_tetrahedron(const GmshCursor& cursor, std::size_t at, std::uint64_t element_tag,
                                  const std::uint64_t (&node_tags)[4], std::uint32_t material) {
  CellNodes cell;
  cell.material = material;
  for (std::size_t i = 0; i < 4; ++i) {
    cell.nodes[i] = node_index(node_tags[i]);
    if (cell.nodes[i] == kNoNode)
      cursor.fail_at(at, "element " + std::to_string(element_tag) + ": its node tag " + std::to_string(node_tags[i]) +
                             " is not among the " + std::to_string(tags_.size()) + " nodes of $Nodes");
  }
  if (cells_.size() >= kMaxEntities)
    cursor.fail_at(at, "expected at most " + std::to_string(kMaxEntities) + " tetrahedra");
  element_tags_.push_back(element_tag);
  cells_.push_back(cell);
}

GmshMesh GmshContent::finish(const GmshCursor& cursor, GmshFormat format, const std::string& file) {
  if (cells_.empty()) cursor.fail("expected at least one tetrahedron (element type 4) in a physical volume, found none");
  // Keep the nodes the tetrahedra use, in the file's order.
  std::vector<Index> renumber(tags_.size(), kNoNode);
  for (const CellNodes& c : cells_)
    for (Index n : c.nodes) renumber[n] = 0;
  GmshMesh out;
  out.format = format;
  std::vector<Vec3> nodes;
  for (std::size_t i = 0; i < tags_.size(); ++i)
    if (renumber[i] != kNoNode) {
      renumber[i] = static_cast<Index>(nodes.size());
      nodes.push_back(coords_[i]);
      out.node_tags.push_back(tags_[i]);
    }
  for (CellNodes& c : cells_)
    for (Index& n : c.nodes) n = renumber[n];
  out.element_tags = std::move(element_tags_);
  try {
    out.mesh = mesh_from_cells(std::move(nodes), cells_, file);
  } catch (const instrument::InputError& e) {
    // "cell N" -> "cell N (element T)": the user knows the file's tags, not our numbering.
    const std::size_t c = std::stoul(e.where().substr(5));
    throw instrument::InputError(file, e.where() + " (element " + std::to_string(out.element_tags[c]) + ")",
                                 e.expected());
  }
  return out;
}

}  // namespace mesh
