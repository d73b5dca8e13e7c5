// The record format of the combined per-destination message a superstep sends.
// A put is [Record][data], a get request is [Record], a BSMP message is
// [Record][tag][payload]. 16-byte headers keep an 8-byte put at 24 bytes on the wire.
// A strided run of puts (same area, same size, offsets in arithmetic progression, e.g. a
// word put to every p-th element, as in bspbench's h-relation or a cyclic distribution) is
// [Record][RunTail][data of every element]: 8 bytes on the wire per 8-byte put, not 24.
// A large put is [Record] only (put_direct): its data follows as a message of its own that
// the destination receives straight into the registered area (no copy out of a buffer).
// A large put through shared memory (see shared_arena.hpp) is [Record][8-byte offset of its
// data in the source process's segment].
#pragma once
#include <cstdint>
#include <cstring>

namespace bsplib {

enum class RecordKind : std::uint32_t {
  put = 0, get = 1, send = 2, put_direct = 3, put_run = 4, put_shared = 5
};

struct Record {
  std::uint32_t kind_slot;  // kind in the top 3 bits, registration slot below
  std::uint32_t nbytes;     // put/get data bytes; put_run: bytes of one element; send: payload
  std::uint64_t offset;     // put/get: offset in the registered area (put_run: of element 0);
                            // send: tag bytes

  static constexpr std::uint32_t slot_mask = 0x1fffffffu;
  static Record make(RecordKind k, std::uint32_t slot, std::uint32_t n, std::uint64_t off) {
    return Record{(static_cast<std::uint32_t>(k) << 29) | slot, n, off};
  }
  RecordKind kind() const { return static_cast<RecordKind>(kind_slot >> 29); }
  std::uint32_t slot() const { return kind_slot & slot_mask; }
};
static_assert(sizeof(Record) == 16);

// Follows a put_run's Record: element i lands at offset + i * stride.
struct RunTail {
  std::uint32_t count;
  std::int32_t stride;  // offsets are ints, so the difference of two fits
};
static_assert(sizeof(RunTail) == 8);

inline Record read_record(const char*& p) {
  Record r;
  std::memcpy(&r, p, sizeof r);
  p += sizeof r;
  return r;
}

// Bytes that follow a record's header (its tail and data), to skip it.
inline std::uint64_t record_body_bytes(const Record& r, const char* body) {
  switch (r.kind()) {
    case RecordKind::put: return r.nbytes;
    case RecordKind::get:
    case RecordKind::put_direct: return 0;
    case RecordKind::send: return r.offset + r.nbytes;
    case RecordKind::put_shared: return sizeof(std::uint64_t);
    case RecordKind::put_run: {
      RunTail t;
      std::memcpy(&t, body, sizeof t);
      return sizeof t + std::uint64_t{t.count} * r.nbytes;
    }
  }
  return 0;
}

}  // namespace bsplib
