// What one process sends one destination in the current superstep: a single combined byte
// stream of records (see wire.hpp), so the superstep costs one message per destination.
// A put that continues the previous put into the same area is merged into it, so a loop of
// word puts into consecutive words ships as one record (one header, one memcpy at arrival).
// hp puts are kept as pointers and read at bsp_sync (the definition lets an unbuffered put
// read its source any time before the sync ends).
// Puts of direct_min bytes or more travel as messages of their own (see wire.hpp): a
// buffered put is copied once, at the call, as the definition requires; an hp put is sent
// from the user's memory, so a large hp put moves exactly like an MPI message. A large
// buffered put to a process of the same node is copied into the shared segment instead
// (Context::put_shared) and only its record travels here.
#pragma once
#include <cstdint>
#include <cstring>
#include <vector>

#include "byte_buffer.hpp"
#include "wire.hpp"

namespace bsplib {

class Outbox {
 public:
  static constexpr std::uint32_t direct_min = 32768;

  void put(std::uint32_t slot, std::uint64_t offset, const void* src, std::uint32_t n) {
    m_payload += n;
    ++m_messages;
    if (n >= direct_min) {
      const std::size_t at = m_owned.size();
      m_owned.append(src, n);
      add_direct(slot, offset, nullptr, at, n);
      return;
    }
    if (m_open != no_record && slot == m_slot) {
      if (m_open_run) {
        if (n == m_n && offset == m_next && std::uint64_t{m_count + 1} * n < run_limit) {
          copy(m_bytes.grow(n), src, n);
          ++m_count;
          m_next += static_cast<std::uint64_t>(static_cast<std::int64_t>(m_stride));
          return;
        }
      } else if (offset == m_next && std::uint64_t{m_n} + n < run_limit) {
        copy(m_bytes.grow(n), src, n);  // continues the open put: one longer record
        m_n += n;
        m_next += n;
        return;
      } else if (n == m_n) {
        start_run(offset);  // the second of a possible run: the open put becomes element 0
        copy(m_bytes.grow(n), src, n);
        return;
      }
    }
    close_put();
    m_open = m_bytes.size();
    m_open_run = false;
    char* p = m_bytes.grow(sizeof(Record) + n);
    const Record r = Record::make(RecordKind::put, slot, n, offset);
    std::memcpy(p, &r, sizeof r);
    copy(p + sizeof r, src, n);
    m_slot = slot;
    m_first = offset;
    m_next = offset + n;
    m_n = n;
  }
  // A large put whose data the call has copied into this process's shared segment, at
  // arena_offset (see shared_arena.hpp): the record is all that travels.
  void put_shared(std::uint32_t slot, std::uint64_t offset, std::uint32_t n,
                  std::uint64_t arena_offset) {
    m_payload += n;
    ++m_messages;
    ++m_shared;
    close_put();
    char* p = m_bytes.grow(sizeof(Record) + sizeof arena_offset);
    const Record r = Record::make(RecordKind::put_shared, slot, n, offset);
    std::memcpy(p, &r, sizeof r);
    std::memcpy(p + sizeof r, &arena_offset, sizeof arena_offset);
  }
  void hpput(std::uint32_t slot, std::uint64_t offset, const void* src, std::uint32_t n) {
    m_payload += n;
    ++m_messages;
    if (n >= direct_min) {
      add_direct(slot, offset, static_cast<const char*>(src), 0, n);
      return;
    }
    m_hp.push_back(HpPut{slot, n, offset, src});
  }
  void get_request(std::uint32_t slot, std::uint64_t offset, std::uint32_t n) {
    close_put();
    const Record r = Record::make(RecordKind::get, slot, n, offset);
    m_bytes.append(&r, sizeof r);
    m_open = no_record;
  }
  void send(const void* tag, std::uint32_t tag_n, const void* payload, std::uint32_t n) {
    m_payload += tag_n + n;
    ++m_messages;
    close_put();
    char* p = m_bytes.grow(sizeof(Record) + tag_n + n);
    const Record r = Record::make(RecordKind::send, 0, n, tag_n);
    std::memcpy(p, &r, sizeof r);
    if (tag_n) std::memcpy(p + sizeof r, tag, tag_n);
    if (n) std::memcpy(p + sizeof r + tag_n, payload, n);
    m_open = no_record;
  }
  // Closes the stream and copies the hp puts' sources into it; called once, at bsp_sync.
  void flush_hp() {
    close_put();
    for (const HpPut& h : m_hp) {
      char* p = m_bytes.grow(sizeof(Record) + h.n);
      const Record r = Record::make(RecordKind::put, h.slot, h.n, h.offset);
      std::memcpy(p, &r, sizeof r);
      std::memcpy(p + sizeof r, h.src, h.n);
    }
    m_hp.clear();
    m_open = no_record;
  }
  void clear() {
    m_bytes.clear();
    m_owned.clear();
    m_direct.clear();
    m_open = no_record;
    m_payload = m_messages = m_shared = 0;
  }
  const ByteBuffer& bytes() const { return m_bytes; }
  // The large puts, in the order of their put_direct records.
  std::size_t direct_count() const { return m_direct.size(); }
  const char* direct_data(std::size_t i) const {
    const Direct& d = m_direct[i];
    return d.src ? d.src : m_owned.data() + d.owned_at;
  }
  std::uint32_t direct_size(std::size_t i) const { return m_direct[i].n; }
  // A large hp put's source in the user's memory (sent from there), or nullptr.
  const char* direct_user_source(std::size_t i) const { return m_direct[i].src; }
  long payload() const { return m_payload; }  // data bytes (h-relation), not headers
  long messages() const { return m_messages; }
  long shared_count() const { return m_shared; }  // large puts through shared memory

 private:
  // Word-sized copies inline; the general memcpy is a call.
  static void copy(char* dst, const void* src, std::uint32_t n) {
    if (n == 8) std::memcpy(dst, src, 8);
    else if (n == 4) std::memcpy(dst, src, 4);
    else std::memcpy(dst, src, n);
  }
  // Writes the open record's final size (put) or count (run) into its header.
  void close_put() {
    if (m_open == no_record) return;
    if (m_open_run)
      std::memcpy(m_bytes.data() + m_open + sizeof(Record), &m_count, sizeof m_count);
    else
      std::memcpy(m_bytes.data() + m_open + 4, &m_n, 4);
    m_open = no_record;
  }
  // Turns the open one-element put record into a run whose second element goes to offset:
  // the header grows by a RunTail, so element 0's bytes move up by that much.
  void start_run(std::uint64_t offset) {
    m_bytes.grow(sizeof(RunTail));
    char* rec = m_bytes.data() + m_open;
    std::memmove(rec + sizeof(Record) + sizeof(RunTail), rec + sizeof(Record), m_n);
    const Record r = Record::make(RecordKind::put_run, m_slot, m_n, m_first);
    std::memcpy(rec, &r, sizeof r);
    m_stride = static_cast<std::int32_t>(static_cast<std::int64_t>(offset) -
                                         static_cast<std::int64_t>(m_first));
    const RunTail t{0, m_stride};  // count written by close_put
    std::memcpy(rec + sizeof(Record), &t, sizeof t);
    m_open_run = true;
    m_count = 2;
    m_next = offset + static_cast<std::uint64_t>(static_cast<std::int64_t>(m_stride));
  }
  void add_direct(std::uint32_t slot, std::uint64_t offset, const char* src, std::size_t at,
                  std::uint32_t n) {
    close_put();
    const Record r = Record::make(RecordKind::put_direct, slot, n, offset);
    m_bytes.append(&r, sizeof r);
    m_direct.push_back(Direct{src, at, n});
  }
  struct Direct {
    const char* src;       // hp: the user's memory; nullptr: owned copy at owned_at
    std::size_t owned_at;
    std::uint32_t n;
  };
  struct HpPut {
    std::uint32_t slot, n;
    std::uint64_t offset;
    const void* src;
  };
  static constexpr std::size_t no_record = ~std::size_t{0};
  static constexpr std::uint64_t run_limit = 0xffffffffull;  // a record's data bytes
  ByteBuffer m_bytes;
  ByteBuffer m_owned;  // copies of large buffered puts
  std::vector<Direct> m_direct;
  std::vector<HpPut> m_hp;
  // The open record, which later puts may extend: a put (m_n bytes from m_first, next
  // contiguous offset m_next) or a run (m_count elements of m_n bytes, next at m_next).
  std::size_t m_open = no_record;
  bool m_open_run = false;
  std::uint32_t m_slot = 0, m_n = 0, m_count = 0;
  std::int32_t m_stride = 0;
  std::uint64_t m_first = 0, m_next = 0;
  long m_payload = 0, m_messages = 0, m_shared = 0;
};

}  // namespace bsplib
