// g(x) at a quadrature rule's points along one axis of a cell, kept per distinct set of the
// cell's corner coordinates on that axis. The load and the error norm evaluate a product
// g(x) g(y) g(z) (the manufactured solution's sines) at 64 points a cell: 192 calls of sin a
// cell were most of the set-up. On a refined grid the corners' coordinates on an axis take
// few distinct patterns (a few thousand on a refined cube), so each pattern's values are
// computed once; a mesh with no repeats fills the cache and computes the rest directly.
// The point's coordinate is summed exactly as the cell loop sums it (0 + b0 c0 + b1 c1 + ...),
// and patterns are compared bit for bit, so every value is the bits g would give there.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "mesh/tet_quadrature.hpp"

namespace mg::detail {

class AxisValueCache {
 public:
  AxisValueCache(const mesh::TetQuadrature& rule, double (*g)(double), std::size_t max_patterns = 4096)
      : rule_(rule), g_(g), points_(rule.bary.size()), max_patterns_(max_patterns), scratch_(points_) {
    std::size_t slots = 1;
    while (slots < 2 * max_patterns) slots *= 2;
    slot_.assign(slots, kEmpty);
  }

  // g at each point of the rule, for a cell whose corners are at c[0..3] on this axis. Valid
  // until the next call.
  const double* values(const std::array<double, 4>& c) {
    Key key;
    std::memcpy(key.data(), c.data(), sizeof key);
    const std::size_t mask = slot_.size() - 1;
    for (std::size_t s = hash(key) & mask;; s = (s + 1) & mask) {
      const std::uint32_t e = slot_[s];
      if (e == kEmpty) {
        if (keys_.size() >= max_patterns_) {  // full: compute without keeping
          fill(c, scratch_.data());
          return scratch_.data();
        }
        slot_[s] = static_cast<std::uint32_t>(keys_.size());
        keys_.push_back(key);
        values_.resize(values_.size() + points_);
        double* v = values_.data() + values_.size() - points_;
        fill(c, v);
        return v;
      }
      const Key& k = keys_[e];  // compared word by word (std::array's == calls memcmp)
      if (k[0] == key[0] && k[1] == key[1] && k[2] == key[2] && k[3] == key[3]) return values_.data() + e * points_;
    }
  }

 private:
  using Key = std::array<std::uint64_t, 4>;
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;

  static std::size_t hash(const Key& k) {
    std::uint64_t h = 0x9E3779B97F4A7C15u;
    for (std::uint64_t w : k) h = (h ^ w) * 0xBF58476D1CE4E5B9u, h ^= h >> 31;
    return static_cast<std::size_t>(h);
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
  std::size_t points_, max_patterns_;
  std::vector<std::uint32_t> slot_;
  std::vector<Key> keys_;
  std::vector<double> values_;
  std::vector<double> scratch_;
};

}  // namespace mg::detail
