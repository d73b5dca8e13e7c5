// Editing a serial mesh's bytes in place, by record and field, for the bad-input tests.
#pragma once
#include <cstdint>
#include <cstring>
#include <string>

#include "mesh/mesh.hpp"

struct SmeshBytes {
  std::string bytes;
  std::uint64_t cells, faces;

  explicit SmeshBytes(std::string b) : bytes(std::move(b)), cells(get(40)), faces(get(48)) {}

  std::uint64_t get(std::size_t offset) const {
    std::uint64_t v;
    std::memcpy(&v, bytes.data() + offset, sizeof v);
    return v;
  }
  void set(std::size_t offset, std::uint64_t v) { std::memcpy(bytes.data() + offset, &v, sizeof v); }
  void set_double(std::size_t offset, double v) { std::memcpy(bytes.data() + offset, &v, sizeof v); }

  // field: 0-3 faces, 4-7 nodes, 8 material
  std::size_t cell(std::size_t c, std::size_t field) const { return 64 + 72 * c + 8 * field; }
  // field: 0-1 cells, 2-4 nodes
  std::size_t face(std::size_t f, std::size_t field) const { return 64 + 72 * cells + 40 * f + 8 * field; }
  // axis: 0 x, 1 y, 2 z
  std::size_t node(std::size_t n, std::size_t axis) const { return 64 + 72 * cells + 40 * faces + 24 * n + 8 * axis; }
};
