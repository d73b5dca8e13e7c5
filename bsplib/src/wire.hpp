// The record format of the combined per-destination message a superstep sends.
// A put is [Record][data], a get request is [Record], a BSMP message is
// [Record][tag][payload]. 16-byte headers keep an 8-byte put at 24 bytes on the wire.
// A large put is [Record] only (put_direct): its data follows as a message of its own that
// the destination receives straight into the registered area (no copy out of a buffer).
#pragma once
#include <cstdint>

namespace bsplib {

enum class RecordKind : std::uint32_t { put = 0, get = 1, send = 2, put_direct = 3 };

struct Record {
  std::uint32_t kind_slot;  // kind in the top 2 bits, registration slot below
  std::uint32_t nbytes;     // put/get data bytes; send: payload bytes
  std::uint64_t offset;     // put/get: offset in the registered area; send: tag bytes

  static constexpr std::uint32_t slot_mask = 0x3fffffffu;
  static Record make(RecordKind k, std::uint32_t slot, std::uint32_t n, std::uint64_t off) {
    return Record{(static_cast<std::uint32_t>(k) << 30) | slot, n, off};
  }
  RecordKind kind() const { return static_cast<RecordKind>(kind_slot >> 30); }
  std::uint32_t slot() const { return kind_slot & slot_mask; }
};
static_assert(sizeof(Record) == 16);

}  // namespace bsplib
