// An open-addressing hash index from a small key to an int32, for the replay engine's message
// channels (dst, src, tag) and outstanding requests (rank, request). Internal.
//
// Why not std::unordered_map: the engine looks a key up for every send, receive and wait,
// millions of times a second; a node allocation per insertion and a pointer chase per lookup
// would cost more than the simulation itself. Linear probing over one flat array, power-of-two
// capacity, at most half full; erase shifts the following entries back (no tombstones), so
// a long replay with many posts and waits does not slow down.
#pragma once
#include <cstdint>
#include <vector>

namespace instrument::replay::detail {

struct IndexKey {
  std::uint64_t a = 0;
  std::int32_t b = 0;
  bool operator==(const IndexKey&) const = default;
};

class FlatIndex {
 public:
  static constexpr std::int32_t kNone = -1;
  static constexpr std::size_t kFirstSlots = 64;

  FlatIndex() { slots_.resize(kFirstSlots); }

  // The value stored for key, or kNone.
  std::int32_t find(const IndexKey& key) const {
    for (std::size_t i = home(key);; i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.used == 0) return kNone;
      if (s.key == key) return s.value;
    }
  }

  // The value slot of key, inserted as kNone if absent (the caller then sets it).
  std::int32_t& at(const IndexKey& key) {
    if (2 * (count_ + 1) > slots_.size()) grow();
    std::size_t i = home(key);
    for (;; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (s.used == 0) break;
      if (s.key == key) return s.value;
    }
    slots_[i].key = key;
    slots_[i].used = 1;
    ++count_;
    return slots_[i].value;
  }

  // Removes key if present (backward-shift deletion keeps every probe chain unbroken).
  void erase(const IndexKey& key) {
    std::size_t i = home(key);
    for (;; i = (i + 1) & mask()) {
      if (slots_[i].used == 0) return;
      if (slots_[i].key == key) break;
    }
    for (std::size_t j = (i + 1) & mask();; j = (j + 1) & mask()) {
      if (slots_[j].used == 0) break;
      const std::size_t h = home(slots_[j].key);
      // Move j back into the hole at i unless its home lies cyclically in (i, j].
      const bool stays = (i <= j) ? (i < h && h <= j) : (i < h || h <= j);
      if (stays) continue;
      slots_[i] = slots_[j];
      i = j;
    }
    slots_[i] = Slot{};
    --count_;
  }

  std::size_t size() const { return count_; }

  // The most bytes an index holds on its way to `count` entries (at most 2^40): its last table
  // and the one it replaced, both alive while grow() moves the entries (replay_memory.cpp).
  static std::uint64_t peak_bytes(std::uint64_t count) {
    std::uint64_t slots = kFirstSlots;
    while (slots / 2 < count) slots *= 2;
    const std::uint64_t tables = slots > kFirstSlots ? slots + slots / 2 : slots;
    return tables * sizeof(Slot);
  }

 private:
  struct Slot {
    IndexKey key;
    std::int32_t value = kNone;
    std::int32_t used = 0;
  };

  std::size_t mask() const { return slots_.size() - 1; }
  std::size_t home(const IndexKey& k) const {
    std::uint64_t x = k.a ^ (static_cast<std::uint64_t>(static_cast<std::uint32_t>(k.b)) * 0x9E3779B97F4A7C15ull);
    x ^= x >> 31;  // splitmix64's finaliser: neighbouring ranks and tags spread over the table
    x *= 0xBF58476D1CE4E5B9ull;
    x ^= x >> 29;
    return static_cast<std::size_t>(x) & mask();
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    count_ = 0;
    for (const Slot& s : old) {
      if (s.used != 0) at(s.key) = s.value;
    }
  }

  std::vector<Slot> slots_;
  std::size_t count_ = 0;
};

}  // namespace instrument::replay::detail
