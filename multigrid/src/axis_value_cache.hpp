// g(x) at a quadrature rule's points along one axis of a cell, kept per distinct set of the
// cell's corner coordinates on that axis. The load and the error norm evaluate a product
// g(x) g(y) g(z) (the manufactured solution's sines) at 4 points a cell (the load) or 64 (the
// error norm): 3 calls of sin a point were most of the set-up. On a refined grid the corners'
// coordinates on an axis take few distinct patterns (776 on `--cube 8 --grids 4`'s finest
// grid), so each pattern's values are computed once; a mesh with no repeats fills the cache
// and computes the rest directly.
// The point's coordinate is summed exactly as the cell loop sums it (0 + b0 c0 + b1 c1 + ...),
// and patterns are compared bit for bit, so every value is the bits g would give there.
//
// A family of 8 cells (a parent's children, p1_cell_math.hpp) is looked up once: its 10
// nodes' coordinates and its shape (which of them each child's corners are) give its 8 cells'
// patterns, where 8 lookups of 4 coordinates would cost more than the load's sums.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "mesh/tet_quadrature.hpp"
#include "multigrid/local_level.hpp"

namespace mg::detail {

// An open-addressed table from keys of W 64-bit words, compared bit for bit, to values V; at
// most `capacity` keys, after which it finds but no longer adds.
template <std::size_t W, class V>
class PatternTable {
 public:
  using Key = std::array<std::uint64_t, W>;
  explicit PatternTable(std::size_t capacity) : capacity_(capacity) {
    std::size_t slots = 1;
    while (slots < 2 * capacity) slots *= 2;
    slot_.assign(slots, kEmpty);
  }
  // The key's value, or null if it is absent; `added` says whether it was absent and has been
  // given the place a null `value` leaves for the caller to fill (false when full).
  V* find(const Key& key, bool& added) {
    added = false;
    const std::size_t mask = slot_.size() - 1;
    for (std::size_t s = hash(key) & mask;; s = (s + 1) & mask) {
      const std::uint32_t e = slot_[s];
      if (e == kEmpty) {
        if (keys_.size() >= capacity_) return nullptr;
        slot_[s] = static_cast<std::uint32_t>(keys_.size());
        keys_.push_back(key);
        values_.emplace_back();
        added = true;
        return &values_.back();
      }
      if (same(keys_[e], key)) return &values_[e];
    }
  }

 private:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
  static bool same(const Key& a, const Key& b) {  // word by word (std::array's == calls memcmp)
    for (std::size_t i = 0; i < W; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  static std::size_t hash(const Key& k) {
    std::uint64_t h = 0x9E3779B97F4A7C15u;
    for (std::uint64_t w : k) h = (h ^ w) * 0xBF58476D1CE4E5B9u, h ^= h >> 31;
    return static_cast<std::size_t>(h);
  }
  std::size_t capacity_;
  std::vector<std::uint32_t> slot_;
  std::vector<Key> keys_;
  std::vector<V> values_;
};

using mg::CornerPlaces;  // local_level.hpp

class AxisValueCache {
 public:
  static constexpr std::uint32_t kNotKept = 0xFFFFFFFFu;

  AxisValueCache(const mesh::TetQuadrature& rule, double (*g)(double), std::size_t max_patterns = 4096,
                 std::size_t max_families = 4096)
      : rule_(rule), g_(g), points_(rule.bary.size()), cells_(max_patterns), families_(max_families), scratch_(points_) {}

  // g at each point of the rule, for a cell whose corners are at c[0..3] on this axis. Valid
  // until the next call.
  const double* values(const std::array<double, 4>& c) {
    const std::uint32_t p = pattern(c);
    if (p != kNotKept) return at(p);
    fill(c, scratch_.data());
    return scratch_.data();
  }

  // The patterns of a family's 8 cells (of shape `shape`, its corners `places` among the
  // nodes at c[0..9]), for at(); false if one of them is not kept (the cache is full).
  bool family_patterns(const std::array<double, 10>& c, std::uint32_t shape, const CornerPlaces& places,
                       std::array<std::uint32_t, 8>& out) {
    FamilyKey key;
    std::memcpy(key.data(), c.data(), sizeof c);
    key[10] = shape;
    bool added = false;
    std::array<std::uint32_t, 8>* kept = families_.find(key, added);
    if (kept && !added) {
      out = *kept;
      return out[0] != kNotKept;
    }
    for (std::size_t j = 0; j < 8; ++j) {
      out[j] = pattern({c[places[j][0]], c[places[j][1]], c[places[j][2]], c[places[j][3]]});
      if (out[j] == kNotKept) out[0] = kNotKept;  // one cell's pattern lost: the family goes cell by cell
    }
    if (kept) *kept = out;
    return out[0] != kNotKept;
  }

  // The values of a kept pattern.
  const double* at(std::uint32_t pattern) const { return values_.data() + pattern * points_; }

 private:
  using FamilyKey = std::array<std::uint64_t, 11>;

  // The pattern's index, computing its values the first time; kNotKept if the cache is full.
  std::uint32_t pattern(const std::array<double, 4>& c) {
    std::array<std::uint64_t, 4> key;
    std::memcpy(key.data(), c.data(), sizeof key);
    bool added = false;
    std::uint32_t* kept = cells_.find(key, added);
    if (!kept) return kNotKept;
    if (added) {
      *kept = static_cast<std::uint32_t>(values_.size() / points_);
      values_.resize(values_.size() + points_);
      fill(c, values_.data() + values_.size() - points_);
    }
    return *kept;
  }

  void fill(const std::array<double, 4>& c, double* out) const {
    for (std::size_t k = 0; k < points_; ++k) {
      double x = 0;
      for (std::size_t i = 0; i < 4; ++i) x += rule_.bary[k][i] * c[i];
      out[k] = g_(x);
    }
  }

  const mesh::TetQuadrature& rule_;
  double (*g_)(double);
  std::size_t points_;
  PatternTable<4, std::uint32_t> cells_;
  PatternTable<11, std::array<std::uint32_t, 8>> families_;
  std::vector<double> values_;
  std::vector<double> scratch_;
};

}  // namespace mg::detail
