// g(x) at a quadrature rule's points along one axis of a cell, kept per distinct set of the
// cell's corner coordinates on that axis. The load and the error norm evaluate a product
// g(x) g(y) g(z) (the manufactured solution's sines) at 64 points a cell: 192 calls of sin a
// cell were most of the set-up. On a refined grid the corners' coordinates on an axis take
// few distinct patterns (a few thousand on a refined cube), so each pattern's values are
// computed once; a mesh with no repeats fills the cache and computes the rest directly.
// The point's coordinate is summed exactly as the cell loop sums it (0 + b0 c0 + b1 c1 + ...),
// and patterns are compared bit for bit, so every value is the bits g would give there.
//
// Two keys: the four coordinates' bits (AxisValueCache), or, where a level's nodes take at
// most 65536 distinct values on the axis, the four values' numbers packed in one word
// (AxisNumbers, AxisPatternCache): a word hashed and compared, not four, and the coordinates
// read only when a pattern is new. Equal numbers are equal bits, so both give the same values.
#pragma once
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "mesh/tet_quadrature.hpp"

namespace mg::detail {

// A word's bits mixed into all of the hash's (splitmix64's finaliser): the low bits of a
// double such as k / 64 are all zero, and a bare multiply would leave them so, putting
// every such value in one slot.
inline std::size_t mix(std::uint64_t h) {
  h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9u;
  h = (h ^ (h >> 27)) * 0x94D049BB133111EBu;
  return static_cast<std::size_t>(h ^ (h >> 31));
}

// The table behind both caches: keys to the values of g at the rule's points, at most
// max_patterns kept (linear probing in twice as many slots).
template <class Key, class Hash, class Same>
class PatternValues {
 public:
  PatternValues(const mesh::TetQuadrature& rule, double (*g)(double), std::size_t max_patterns)
      : rule_(rule), g_(g), points_(rule.bary.size()), max_patterns_(max_patterns), scratch_(points_) {
    std::size_t slots = 1;
    while (slots < 2 * max_patterns) slots *= 2;
    slot_.assign(slots, kEmpty);
  }

  // The values for `key`; corners() gives the pattern's 4 coordinates (called on a new key
  // only). Valid until the next call.
  template <class Corners>
  const double* values(const Key& key, Corners&& corners) {
    const std::size_t mask = slot_.size() - 1;
    for (std::size_t s = Hash{}(key) & mask;; s = (s + 1) & mask) {
      const std::uint32_t e = slot_[s];
      if (e == kEmpty) {
        if (keys_.size() >= max_patterns_) {  // full: compute without keeping
          fill(corners(), scratch_.data());
          return scratch_.data();
        }
        slot_[s] = static_cast<std::uint32_t>(keys_.size());
        keys_.push_back(key);
        values_.resize(values_.size() + points_);
        double* v = values_.data() + values_.size() - points_;
        fill(corners(), v);
        return v;
      }
      if (Same{}(keys_[e], key)) return values_.data() + e * points_;
    }
  }

 private:
  static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;

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

struct CoordinateBitsHash {
  std::size_t operator()(const std::array<std::uint64_t, 4>& k) const {
    std::uint64_t h = 0x9E3779B97F4A7C15u;
    for (std::uint64_t w : k) h = (h ^ w) * 0xBF58476D1CE4E5B9u, h ^= h >> 31;
    return static_cast<std::size_t>(h);
  }
};
struct SameCoordinateBits {  // word by word (std::array's == calls memcmp)
  bool operator()(const std::array<std::uint64_t, 4>& a, const std::array<std::uint64_t, 4>& b) const {
    return a[0] == b[0] && a[1] == b[1] && a[2] == b[2] && a[3] == b[3];
  }
};

// Keyed by the four coordinates' bits: any mesh.
class AxisValueCache {
 public:
  AxisValueCache(const mesh::TetQuadrature& rule, double (*g)(double), std::size_t max_patterns = 4096)
      : table_(rule, g, max_patterns) {}

  // g at each point of the rule, for a cell whose corners are at c[0..3] on this axis. Valid
  // until the next call.
  const double* values(const std::array<double, 4>& c) {
    std::array<std::uint64_t, 4> key;
    std::memcpy(key.data(), c.data(), sizeof key);
    return table_.values(key, [&c]() -> const std::array<double, 4>& { return c; });
  }

 private:
  PatternValues<std::array<std::uint64_t, 4>, CoordinateBitsHash, SameCoordinateBits> table_;
};

// The distinct values of one coordinate over a level's nodes, numbered in the order first met
// (bit for bit: -0.0 is not 0.0), while there are at most kMaxAxisNumbers of them.
inline constexpr std::size_t kMaxAxisNumbers = std::size_t{1} << 16;

class AxisNumbers {
 public:
  // The number of value x, a new one if x is new; false once there would be more than
  // kMaxAxisNumbers (then no number is given).
  bool number(double x, std::uint16_t& out) {
    std::uint64_t bits;
    std::memcpy(&bits, &x, sizeof bits);
    for (;;) {
      const std::size_t mask = slot_.size() - 1;
      for (std::size_t s = hash(bits) & mask;; s = (s + 1) & mask) {
        Slot& e = slot_[s];
        if (e.used && e.bits == bits) {
          out = e.number;
          return true;
        }
        if (e.used) continue;
        if (count_ == kMaxAxisNumbers) return false;
        if (2 * (count_ + 1) > slot_.size()) break;  // grow first: at most half full
        e = {bits, static_cast<std::uint16_t>(count_), true};
        out = e.number;
        ++count_;
        return true;
      }
      grow();
    }
  }

 private:
  struct Slot {
    std::uint64_t bits = 0;
    std::uint16_t number = 0;
    bool used = false;
  };

  static std::size_t hash(std::uint64_t bits) { return mix(bits); }

  void grow() {
    std::vector<Slot> old(2 * slot_.size());
    old.swap(slot_);
    const std::size_t mask = slot_.size() - 1;
    for (const Slot& e : old)
      if (e.used) {
        std::size_t s = hash(e.bits) & mask;
        while (slot_[s].used) s = (s + 1) & mask;
        slot_[s] = e;
      }
  }

  std::vector<Slot> slot_ = std::vector<Slot>(256);
  std::size_t count_ = 0;
};

struct PackedNumbersHash {
  std::size_t operator()(std::uint64_t k) const { return mix(k); }
};
struct SamePackedNumbers {
  bool operator()(std::uint64_t a, std::uint64_t b) const { return a == b; }
};

// Keyed by the corners' numbers (AxisNumbers) packed in one word, corner i's in bits
// 16 i .. 16 i + 15.
class AxisPatternCache {
 public:
  AxisPatternCache(const mesh::TetQuadrature& rule, double (*g)(double), std::size_t max_patterns = 4096)
      : table_(rule, g, max_patterns) {}

  static std::uint64_t key(std::uint16_t n0, std::uint16_t n1, std::uint16_t n2, std::uint16_t n3) {
    return std::uint64_t{n0} | std::uint64_t{n1} << 16 | std::uint64_t{n2} << 32 | std::uint64_t{n3} << 48;
  }

  // g at each point of the rule for the cell of this key; corners() gives its 4 coordinates
  // on the axis (read for a new key only). Valid until the next call.
  template <class Corners>
  const double* values(std::uint64_t key, Corners&& corners) {
    return table_.values(key, corners);
  }

 private:
  PatternValues<std::uint64_t, PackedNumbersHash, SamePackedNumbers> table_;
};

}  // namespace mg::detail
