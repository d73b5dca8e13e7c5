// The Tycho2 serial mesh reader and writer (smesh_reader.hpp). Sizes are checked against
// the counts before any allocation, with overflow-checked arithmetic, so a damaged header
// cannot make the reader allocate what the file does not hold.
#include "mesh/smesh_reader.hpp"

#include <bit>
#include <cstring>
#include <limits>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/output_file.hpp"
#include "mesh/mesh_checks.hpp"
#include "mesh/mesh_geometry.hpp"

namespace mesh {

namespace {

constexpr std::size_t kNameBytes = 32;
constexpr std::size_t kHeaderBytes = 64;
constexpr std::size_t kCellBytes = 72;
constexpr std::size_t kFaceBytes = 40;
constexpr std::size_t kNodeBytes = 24;
constexpr std::uint64_t kFileBoundary = std::numeric_limits<std::uint64_t>::max();
// A 685888-cell mesh (the largest refined cube) is about 110 MB.
constexpr std::size_t kMaxSmeshBytes = std::size_t{8} << 30;

std::uint64_t load_u64(const char* p) {
  std::uint64_t v;
  std::memcpy(&v, p, sizeof v);
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  return v;
}

void store_u64(std::string& out, std::uint64_t v) {
  if constexpr (std::endian::native == std::endian::big) v = __builtin_bswap64(v);
  char b[sizeof v];
  std::memcpy(b, &v, sizeof v);
  out.append(b, sizeof v);
}

const char* ordinal(std::size_t i) {
  static const char* const names[] = {"1st", "2nd", "3rd", "4th"};
  return names[i];
}

// The file's size for these counts, or nothing when it would not fit in 64 bits.
bool expected_size(std::uint64_t cells, std::uint64_t faces, std::uint64_t nodes, std::uint64_t& size) {
  std::uint64_t c, f, n;
  return !__builtin_mul_overflow(cells, kCellBytes, &c) && !__builtin_mul_overflow(faces, kFaceBytes, &f) &&
         !__builtin_mul_overflow(nodes, kNodeBytes, &n) && !__builtin_add_overflow(c, f, &size) &&
         !__builtin_add_overflow(size, n, &size) && !__builtin_add_overflow(size, kHeaderBytes, &size);
}

struct Counts {
  std::uint64_t cells, faces, nodes;
};

Counts parse_header(std::string_view bytes, const std::string& name) {
  if (bytes.size() < kHeaderBytes)
    throw instrument::InputError(name, "header", "a Tycho2 serial mesh starts with a 64-byte header; the file has " +
                                                     std::to_string(bytes.size()) + " bytes");
  const std::string_view file_name = bytes.substr(0, kNameBytes);
  const bool name_ok = file_name.substr(0, kSmeshName.size()) == kSmeshName &&
                       file_name.find_first_not_of('\0', kSmeshName.size()) == std::string_view::npos;
  if (!name_ok)
    throw instrument::InputError(name, "header", "expected the format name \"" + std::string(kSmeshName) +
                                                     "\" zero-padded to 32 bytes, found " +
                                                     instrument::quote_token(file_name));
  const std::uint64_t version = load_u64(bytes.data() + 32);
  if (version != kSmeshVersion)
    throw instrument::InputError(name, "header", "expected version 2 of the serial mesh format, found " +
                                                     std::to_string(version));
  const Counts n{load_u64(bytes.data() + 40), load_u64(bytes.data() + 48), load_u64(bytes.data() + 56)};
  const std::string counts = std::to_string(n.cells) + " cells, " + std::to_string(n.faces) + " faces, " +
                             std::to_string(n.nodes) + " nodes";
  std::uint64_t size = 0;
  if (!expected_size(n.cells, n.faces, n.nodes, size))
    throw instrument::InputError(name, "header", "the counts (" + counts +
                                                     ") need more than 2^64 bytes; the file has " +
                                                     std::to_string(bytes.size()));
  if (size != bytes.size())
    throw instrument::InputError(name, "header", "the counts (" + counts + ") need 64 + 72*C + 40*F + 24*N = " +
                                                     std::to_string(size) + " bytes; the file has " +
                                                     std::to_string(bytes.size()) +
                                                     (bytes.size() < size ? " (truncated)" : " (trailing bytes)"));
  if (n.cells < 1 || n.faces < 4 || n.nodes < 4 || n.cells > kMaxEntities || n.faces > kMaxEntities ||
      n.nodes > kMaxEntities)
    throw instrument::InputError(name, "header", "expected at least 1 cell, 4 faces and 4 nodes and at most " +
                                                     std::to_string(kMaxEntities) + " of each; found " + counts);
  return n;
}

Index checked_index(std::uint64_t value, std::uint64_t count, const std::string& name, const char* place,
                    std::size_t record, const char* what, std::size_t slot) {
  if (value >= count)
    throw instrument::InputError(name, std::string(place) + " " + std::to_string(record),
                                 "its " + std::string(ordinal(slot)) + " " + what + " index must be below " +
                                     std::to_string(count) + ", found " + std::to_string(value));
  return static_cast<Index>(value);
}

// What the mesh will take once read and its geometry computed: refused up front when the
// process cannot hold it, rather than a bad_alloc (or the OOM killer) halfway.
void require_mesh_memory(const Counts& n, const std::string& name) {
  const std::uint64_t bytes =
      instrument::saturating_product({n.cells, sizeof(Cell) + sizeof(CellGeometry)}) +
      instrument::saturating_product({n.faces, sizeof(Face)}) +
      instrument::saturating_product({n.nodes, sizeof(Vec3)});
  instrument::require_memory(bytes, name, "header",
                             "the mesh (" + std::to_string(n.cells) + " cells)");
}

}  // namespace

Mesh parse_smesh(std::string_view bytes, const std::string& name) {
  const Counts n = parse_header(bytes, name);
  require_mesh_memory(n, name);
  Mesh mesh;
  mesh.cells.resize(n.cells);
  mesh.faces.resize(n.faces);
  mesh.nodes.resize(n.nodes);
  const char* p = bytes.data() + kHeaderBytes;
  for (std::size_t c = 0; c < n.cells; ++c, p += kCellBytes) {
    Cell& cell = mesh.cells[c];
    for (std::size_t i = 0; i < 4; ++i)
      cell.faces[i] = checked_index(load_u64(p + 8 * i), n.faces, name, "cell", c, "face", i);
    for (std::size_t i = 0; i < 4; ++i)
      cell.nodes[i] = checked_index(load_u64(p + 32 + 8 * i), n.nodes, name, "cell", c, "node", i);
    const std::uint64_t material = load_u64(p + 64);
    if (material > kMaxMaterial)
      throw instrument::InputError(name, "cell " + std::to_string(c),
                                   "its material index must be below 2^31, found " + std::to_string(material));
    cell.material = static_cast<std::uint32_t>(material);
  }
  for (std::size_t f = 0; f < n.faces; ++f, p += kFaceBytes) {
    Face& face = mesh.faces[f];
    face.cells[0] = checked_index(load_u64(p), n.cells, name, "face", f, "cell", 0);
    const std::uint64_t second = load_u64(p + 8);
    face.cells[1] = second == kFileBoundary ? kBoundary : checked_index(second, n.cells, name, "face", f, "cell", 1);
    for (std::size_t i = 0; i < 3; ++i)
      face.nodes[i] = checked_index(load_u64(p + 16 + 8 * i), n.nodes, name, "face", f, "node", i);
  }
  for (std::size_t i = 0; i < n.nodes; ++i, p += kNodeBytes)
    mesh.nodes[i] = {std::bit_cast<double>(load_u64(p)), std::bit_cast<double>(load_u64(p + 8)),
                     std::bit_cast<double>(load_u64(p + 16))};
  return mesh;
}

Mesh read_smesh(const std::string& path) {
  // Mapped, not read: the header is checked against the file's size before the rest is touched.
  const instrument::MappedInputFile file(path, "serial mesh", kMaxSmeshBytes);
  Mesh mesh = parse_smesh(file.bytes(), path);
  check_mesh(mesh, path);
  compute_geometry(mesh);
  return mesh;
}

std::string format_smesh(const Mesh& mesh) {
  std::string out;
  out.reserve(kHeaderBytes + kCellBytes * mesh.cells.size() + kFaceBytes * mesh.faces.size() +
              kNodeBytes * mesh.nodes.size());
  out.append(kSmeshName);
  out.append(kNameBytes - kSmeshName.size(), '\0');
  store_u64(out, kSmeshVersion);
  store_u64(out, mesh.cells.size());
  store_u64(out, mesh.faces.size());
  store_u64(out, mesh.nodes.size());
  for (const Cell& c : mesh.cells) {
    for (Index f : c.faces) store_u64(out, f);
    for (Index v : c.nodes) store_u64(out, v);
    store_u64(out, c.material);
  }
  for (const Face& f : mesh.faces) {
    store_u64(out, f.cells[0]);
    store_u64(out, f.cells[1] == kBoundary ? kFileBoundary : f.cells[1]);
    for (Index v : f.nodes) store_u64(out, v);
  }
  for (const Vec3& v : mesh.nodes) {
    store_u64(out, std::bit_cast<std::uint64_t>(v.x));
    store_u64(out, std::bit_cast<std::uint64_t>(v.y));
    store_u64(out, std::bit_cast<std::uint64_t>(v.z));
  }
  return out;
}

void write_smesh(const Mesh& mesh, const std::string& path) {
  instrument::write_text_output(path, "serial mesh", format_smesh(mesh));
}

}  // namespace mesh
