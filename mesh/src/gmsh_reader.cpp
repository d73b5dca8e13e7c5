// The .msh reader (gmsh_reader.hpp): the $MeshFormat section decides the version and the
// encoding, then the version's sections are read into a GmshContent.
#include "mesh/gmsh_reader.hpp"

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "mesh/gmsh_content.hpp"
#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_geometry.hpp"

namespace mesh {

namespace {

// As for .smesh: the largest refined cube (685888 cells) is about 60 MB of ASCII 4.1.
constexpr std::size_t kMaxMshBytes = std::size_t{8} << 30;

std::vector<std::string_view> blank_separated(std::string_view text) {
  std::vector<std::string_view> fields;
  std::size_t i = 0;
  while (i < text.size()) {
    if (text[i] == ' ' || text[i] == '\t') {
      ++i;
      continue;
    }
    const std::size_t start = i;
    while (i < text.size() && text[i] != ' ' && text[i] != '\t') ++i;
    fields.push_back(text.substr(start, i - start));
  }
  return fields;
}

GmshFormat read_format(GmshCursor& c) {
  c.expect_header("$MeshFormat");
  const std::size_t at = c.offset();
  const std::string_view text = c.line("the format line (version, file type, data size)");
  // Gmsh reads the line with scanf: any run of blanks separates the fields.
  const std::vector<std::string_view> fields = blank_separated(text);
  GmshFormat format;
  if (fields.size() != 3)
    c.fail_at(at, "expected the format line \"VERSION FILE-TYPE DATA-SIZE\" (e.g. \"4.1 0 8\"), found " +
                      instrument::quote_token(text));
  if (fields[0] == "4.1")
    format = {4, 1, false};
  else if (fields[0] == "2.2")
    format = {2, 2, false};
  else
    c.fail_at(at, "expected version 4.1 or 2.2, found " + instrument::quote_token(fields[0]));
  if (fields[1] != "0" && fields[1] != "1")
    c.fail_at(at, "expected file type 0 (ASCII) or 1 (binary), found " + instrument::quote_token(fields[1]));
  if (fields[2] != "8")
    c.fail_at(at, "expected data size 8 (size_t and double of 8 bytes), found " + instrument::quote_token(fields[2]));
  format.binary = fields[1] == "1";
  if (format.binary) {
    c.set_binary(true);
    const std::size_t one_at = c.offset();
    const std::int32_t one = c.integer("the integer 1 in binary");
    if (one != 1)
      c.fail_at(one_at, "expected the integer 1 in binary (a file of this machine's byte order), found " +
                            std::to_string(one));
  }
  c.expect_header("$EndMeshFormat");
  return format;
}

}  // namespace

GmshMesh parse_gmsh(std::string_view bytes, const std::string& name) {
  // A UTF-8 byte-order mark, as some editors write, is not part of the first line.
  constexpr std::string_view kByteOrderMark = "\xEF\xBB\xBF";
  if (bytes.substr(0, kByteOrderMark.size()) == kByteOrderMark) bytes.remove_prefix(kByteOrderMark.size());
  GmshCursor cursor(bytes, name);
  const GmshFormat format = read_format(cursor);
  GmshContent content;
  if (format.major == 4)
    read_msh4_sections(cursor, content);
  else
    read_msh2_sections(cursor, content);
  return content.finish(cursor, format, name);
}

void check_gmsh_mesh(const GmshMesh& gmsh, const std::string& name) {
  try {
    check_mesh(gmsh.mesh, name);
  } catch (const instrument::InputError& e) {
    // "cell N" and "node N" are our numbering; the user knows the file's tags.
    const std::string& where = e.where();
    auto tag_of = [&](std::size_t skip, const std::vector<std::uint64_t>& tags) {
      const std::size_t i = std::stoul(where.substr(skip));
      return i < tags.size() ? std::to_string(tags[i]) : std::string("?");
    };
    if (where.rfind("cell ", 0) == 0)
      throw instrument::InputError(name, where + " (element " + tag_of(5, gmsh.element_tags) + ")", e.expected());
    if (where.rfind("node ", 0) == 0)
      throw instrument::InputError(name, where + " (node tag " + tag_of(5, gmsh.node_tags) + ")", e.expected());
    throw;
  }
}

Mesh read_gmsh(const std::string& path) {
  // Mapped, not read: a file whose first line is wrong costs one page, whatever its size.
  const instrument::MappedInputFile file(path, "Gmsh mesh", kMaxMshBytes);
  GmshMesh gmsh = parse_gmsh(file.bytes(), path);
  check_gmsh_mesh(gmsh, path);
  compute_geometry(gmsh.mesh);
  return std::move(gmsh.mesh);
}

}  // namespace mesh
