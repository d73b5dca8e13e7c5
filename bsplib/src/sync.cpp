// bsp_sync: the end of a superstep, as one two-sided exchange (see README: measured against
// MPI-3 RMA and chosen for its lower empty-superstep cost).
//  1. headers: a few words per peer (through shared memory when every process is on one
//     node, see shared_headers.hpp; else persistent point-to-point requests, or MPI_Alltoall
//     for many processes): the bytes of the combined stream to that peer, its get count, and the
//     run-state every process must agree on (bsp_end vs bsp_sync, registration signature,
//     tag size), and the sizes of up to two registrations. It is also the barrier. A stream
//     of up to 8 KiB with the header rides in the header message (shared or point-to-point
//     headers only); a longer one to a process of the node is copied into this process's shared
//     segment (see shared_arena.hpp) and the header says where;
//  2. data: one message per peer with a longer stream otherwise (Isend/Irecv, no zero
//     messages); each large put (>= Outbox::direct_min bytes) is a message of its own,
//     sent now and received (step 6) straight into the destination area, unless it went
//     into the node's shared segment at the call (from SharedArena::put_min bytes): then
//     only its record travels, and step 6 copies it out of the sender's segment;
//  3. every process serves the gets addressed to it, from all sources, before it applies any
//     put (the definition's order): small ones copied into one reply per requester, large
//     ones sent straight from the area (direct gets);
//  4. (its receives for its own gets were posted first thing, direct ones straight into
//     their destination) it sends its small replies, then waits until the direct gets it
//     serves have left, as puts may now overwrite their areas;
//  5. it waits for its own gets and copies the small replies (and the staged direct ones)
//     to their destinations: every get has landed before any put is applied, so where a
//     get's destination and a put's overlap, the put's bytes are what remains;
//  6. it applies puts and queues BSMP messages, in source order then call order, and
//     completes everything;
//  7. registrations and the tag size of this superstep take effect; shared segments that
//     were too small grow.
#include <algorithm>
#include <chrono>
#include <climits>
#include <cstdlib>
#include <cstring>
#include <iterator>
#include <thread>
#include <vector>

#include "context.hpp"

namespace bsplib {

namespace {

int as_count(std::size_t n, const Context& c) {
  if (n > static_cast<std::size_t>(INT_MAX))
    c.fail("bsp_sync", "a combined message exceeds 2 GiB; split the superstep");
  return static_cast<int>(n);
}

// Every process saw the same disagreement and process 0 reports it; the others wait here
// for its MPI_Abort (and report themselves if it never comes).
[[noreturn]] void report_once(const Context& c, const char* call, int who, const char* what) {
  if (c.pid() != 0) std::this_thread::sleep_for(std::chrono::seconds(20));
  fatal(call, who, c.superstep(), "%s", what);
}
// Element i of a run to dst + i * stride, in order (a later element wins where they
// overlap, as later puts do). Word sizes get inline moves, not memcpy calls.
void apply_run(char* dst, const RunTail& t, const char* src, std::uint32_t n) {
  const std::ptrdiff_t stride = t.stride;
  if (n == 8) {
    for (std::uint32_t i = 0; i < t.count; ++i) std::memcpy(dst + i * stride, src + i * 8, 8);
  } else if (n == 4) {
    for (std::uint32_t i = 0; i < t.count; ++i) std::memcpy(dst + i * stride, src + i * 4, 4);
  } else {
    for (std::uint32_t i = 0; i < t.count; ++i)
      std::memcpy(dst + i * stride, src + std::size_t{i} * n, n);
  }
}
}  // namespace

void Context::exchange_headers(bool ending) {
  // First the streams that go through the shared segment (they count towards its size).
  for (int q = 0; q < m_nprocs; ++q) {
    std::uint64_t* h = &m_hdr_out[static_cast<std::size_t>(q) * m_hdr_stride];
    h[header::in_segment] = 0;
    const ByteBuffer& b = m_out[q].bytes();
    std::uint64_t at = 0;
    if (q != m_pid && !b.empty() && !inline_stream(b.size()) && m_arena.reaches(q))
      if (char* into = m_arena.reserve(b.size(), at)) {
        SharedArena::copy_in(into, b.data(), b.size());
        h[header::in_segment] = at + 1;
      }
  }
  // The other fields (context.hpp, namespace header).
  std::uint64_t reg_sizes = 0;
  for (int k = 0; k < Registry::header_sizes; ++k) reg_sizes |= m_reg_sizes[k] << (32 * k);
  for (int q = 0; q < m_nprocs; ++q) {
    std::uint64_t* h = &m_hdr_out[static_cast<std::size_t>(q) * m_hdr_stride];
    h[header::bytes] = q == m_pid ? 0 : m_out[q].bytes().size();
    h[header::gets] = m_gets[q].size() | (ending ? header::ending_bit : 0);
    h[header::reg_sizes] = reg_sizes;
    h[header::signature] = m_registry.signature();
    // the tag size asked for, and how often bsp_set_tagsize was called in this superstep
    h[header::tagsize] = static_cast<std::uint64_t>(static_cast<std::uint32_t>(m_pending_tagsize)) |
                         std::uint64_t{m_tagsize_calls} << 32;
    h[header::wanted] = m_arena.wanted();  // the same to every process
  }
  if (m_headers.on()) {
    exchange_headers_shared();
  } else if (!m_hdr_recv.empty()) {
    m_arena.sync_memory();  // this superstep's shared puts are visible before the header leaves
    // A small stream rides in the header message (one message instead of two, the
    // difference that matters in a small superstep); the receive takes either length.
    m_hdr_active.assign(m_hdr_recv.begin(), m_hdr_recv.end());
    MPI_Startall(static_cast<int>(m_hdr_active.size()), m_hdr_active.data());
    for (std::size_t k = 0; k < m_hdr_peer.size(); ++k) {
      const int q = m_hdr_peer[k];
      const ByteBuffer& b = m_out[q].bytes();
      if (inline_stream(b.size())) {
        std::uint64_t* h = &m_hdr_out[static_cast<std::size_t>(q) * m_hdr_stride];
        std::memcpy(h + header_words, b.data(), b.size());
        m_hdr_active.emplace_back();
        MPI_Isend(h, header_words + static_cast<int>((b.size() + 7) / 8), MPI_UINT64_T, q,
                  tag_header, m_comm, &m_hdr_active.back());
      } else {
        m_hdr_active.push_back(m_hdr_send[k]);
        MPI_Start(&m_hdr_active.back());
      }
    }
    MPI_Waitall(static_cast<int>(m_hdr_active.size()), m_hdr_active.data(), MPI_STATUSES_IGNORE);
    m_arena.sync_memory();  // and the others' before their records are read
  } else {
    m_arena.sync_memory();
    MPI_Alltoall(m_hdr_out.data(), header_words, MPI_UINT64_T, m_hdr_in.data(), header_words,
                 MPI_UINT64_T, m_comm);
    m_arena.sync_memory();
  }
  // My own header slot is not sent to me: fill it so that every process compares the same.
  std::copy_n(&m_hdr_out[static_cast<std::size_t>(m_pid) * m_hdr_stride], header_words,
              &m_hdr_in[static_cast<std::size_t>(m_pid) * m_hdr_stride]);
  // Fields 2-4 are the same in every header a process sends, so every process sees the same
  // picture and reaches the same verdict.
  const std::uint64_t* h0 = header_in(0);
  m_pops_null = false;
  for (int q = 0; q < m_nprocs; ++q)
    m_pops_null = m_pops_null || Registry::pops_null(header_in(q)[header::signature]);
  for (int q = 1; q < m_nprocs; ++q) {
    const std::uint64_t* h = header_in(q);
    char what[256];
    const bool ends = h[header::gets] & header::ending_bit;
    if (ends != static_cast<bool>(h0[header::gets] & header::ending_bit)) {
      const int ender = ends ? q : 0, syncer = ends ? 0 : q;
      std::snprintf(what, sizeof what,
                    "process %d called bsp_end while process %d calls bsp_sync (a process "
                    "ended while others synchronise)",
                    ender, syncer);
      report_once(*this, "bsp_sync", syncer, what);
    }
    if (!Registry::same_calls(h[header::signature], h0[header::signature])) {
      std::snprintf(what, sizeof what,
                    "its bsp_push_reg/bsp_pop_reg calls differ in number or order from "
                    "process 0's (registrations are matched by order across processes)");
      report_once(*this, "bsp_push_reg/bsp_pop_reg", q, what);
    }
    // Where some process popped NULL, the registry compares the pops one by one at the
    // end of the sync instead.
    if (!m_pops_null && !Registry::same_pops(h[header::signature], h0[header::signature])) {
      std::snprintf(what, sizeof what,
                    "its bsp_pop_reg calls of this superstep pop other registrations than "
                    "process 0's (the k-th pop on every process removes one registration, "
                    "which each names by its own address)");
      report_once(*this, "bsp_pop_reg", q, what);
    }
    if (h[header::tagsize] >> 32 != h0[header::tagsize] >> 32) {
      std::snprintf(what, sizeof what,
                    "it called bsp_set_tagsize %llu times in this superstep, process 0 %llu "
                    "times (bsp_set_tagsize is collective: every process calls it in the "
                    "same superstep)",
                    static_cast<unsigned long long>(h[header::tagsize] >> 32),
                    static_cast<unsigned long long>(h0[header::tagsize] >> 32));
      report_once(*this, "bsp_set_tagsize", q, what);
    }
    if (h[header::tagsize] != h0[header::tagsize]) {
      std::snprintf(what, sizeof what,
                    "tag size %llu differs from process 0's %llu (bsp_set_tagsize is "
                    "collective)",
                    static_cast<unsigned long long>(h[header::tagsize] & 0xffffffffu),
                    static_cast<unsigned long long>(h0[header::tagsize] & 0xffffffffu));
      report_once(*this, "bsp_set_tagsize", q, what);
    }
  }
}

// Within one node (shared_headers.hpp): my header and inline stream go straight into my slot
// at each peer, then its epoch; each peer's are read in place. The release store of an epoch
// orders every store before it, this superstep's shared puts included (the streamed ones
// are fenced by copy_in), before the acquiring reader's loads: no MPI_Win_sync is needed.
void Context::exchange_headers_shared() {
  for (int k = 1; k < m_nprocs; ++k) {
    const int q = (m_pid + k) % m_nprocs;  // each peer's slot first written by one process
    std::uint64_t* into = m_headers.outgoing(q);
    std::copy_n(&m_hdr_out[static_cast<std::size_t>(q) * m_hdr_stride], header_words, into);
    const ByteBuffer& b = m_out[q].bytes();
    if (inline_stream(b.size())) std::memcpy(into + header_words, b.data(), b.size());
    m_headers.publish(q);
  }
  for (int k = 1; k < m_nprocs; ++k) {
    const int q = (m_pid + m_nprocs - k) % m_nprocs;  // the peer that published to me first
    m_hdr_at[static_cast<std::size_t>(q)] = m_headers.incoming(q);
  }
  m_headers.next();
  ++m_shared_exchanges;
}

void Context::exchange_data() {
  std::size_t total = 0;  // the streams that come as messages of their own, by source
  for (int q = 0; q < m_nprocs; ++q) {
    const std::uint64_t n = header_in(q)[header::bytes];
    if (q != m_pid && !inline_stream(n) && !header_in(q)[header::in_segment]) total += n;
  }
  m_inbox.resize(total);
  m_requests.clear();
  char* at = m_inbox.data();
  for (int q = 0; q < m_nprocs; ++q) {
    if (q == m_pid) continue;
    const std::uint64_t n = header_in(q)[header::bytes];
    if (inline_stream(n)) {
      m_in_stream[q] = reinterpret_cast<const char*>(header_in(q) + header_words);
      ++m_msgs_in;
      continue;
    }
    if (const std::uint64_t in_segment = header_in(q)[header::in_segment]) {
      m_in_stream[q] = m_arena.at(q, in_segment - 1);
      ++m_msgs_in;
      continue;
    }
    m_in_stream[q] = at;
    if (!n) continue;
    m_requests.emplace_back();
    MPI_Irecv(at, as_count(n, *this), MPI_BYTE, q, tag_data, m_comm, &m_requests.back());
    at += n;
    ++m_msgs_in;
  }
  for (int q = 0; q < m_nprocs; ++q) {
    const ByteBuffer& b = m_out[q].bytes();
    if (q == m_pid || b.empty() || inline_stream(b.size()) ||
        m_hdr_out[static_cast<std::size_t>(q) * m_hdr_stride + header::in_segment])
      continue;
    m_requests.emplace_back();
    MPI_Isend(b.data(), as_count(b.size(), *this), MPI_BYTE, q, tag_data, m_comm,
              &m_requests.back());
  }
  // Large puts: completed at the end of the sync, since the destination posts its receives
  // only once it has served the gets (waiting for them here could deadlock two processes).
  for (int q = 0; q < m_nprocs; ++q) {
    if (q == m_pid) continue;
    const Outbox& o = m_out[q];
    for (std::size_t k = 0; k < o.direct_count(); ++k) {
      m_late.emplace_back();
      MPI_Isend(o.direct_data(k), static_cast<int>(o.direct_size(k)), MPI_BYTE, q, tag_direct,
                m_comm, &m_late.back());
    }
  }
  if (!m_requests.empty())
    MPI_Waitall(static_cast<int>(m_requests.size()), m_requests.data(), MPI_STATUSES_IGNORE);
}

void Context::serve_gets() {
  for (int q = 0; q < m_nprocs; ++q) {
    const bool self = q == m_pid;
    const std::uint64_t gets =
        self ? m_gets[q].size() : header_in(q)[header::gets] & ~header::ending_bit;
    if (!gets) continue;
    const char* p = self ? m_out[q].bytes().data() : m_in_stream[q];
    const char* end = p + (self ? m_out[q].bytes().size() : header_in(q)[header::bytes]);
    ByteBuffer& reply = m_replies[q];
    while (p < end) {
      const Record r = read_record(p);
      if (r.kind() == RecordKind::get) {
        // Checked at the requester against the sizes exchanged at registration.
        const char* src = m_registry.address(r.slot()) + r.offset;
        if (is_direct_get(m_pid, q, r.nbytes)) {
          // Sent from the area itself; no put may land before it has left (see sync()).
          m_get_sends.emplace_back();
          MPI_Isend(src, static_cast<int>(r.nbytes), MPI_BYTE, q, tag_get_direct, m_comm,
                    &m_get_sends.back());
          ++m_direct_gets_out;
        } else {
          reply.append(src, r.nbytes);
        }
        if (!self) m_reply_bytes_out += r.nbytes;
      }
      p += record_body_bytes(r, p);
    }
  }
}

// A large put by MPI lands when its message completes. Any later put (in source, then call
// order) to some of the same bytes must land after it: wait for that message first. The
// pending ones are disjoint and kept by start, so the ones overlapping [b, e) are the last
// starting at or before b if it reaches past b, then those starting before e: a lookup of
// log(pending) per put, and none at all in a sync without large puts by MPI.
void Context::land_earlier_directs(const char* dst, std::uint64_t n) {
  const std::uintptr_t b = reinterpret_cast<std::uintptr_t>(dst), e = b + n;
  auto it = m_pending_directs.upper_bound(b);
  if (it != m_pending_directs.begin() && std::prev(it)->second.end > b) --it;
  while (it != m_pending_directs.end() && it->first < e) {
    MPI_Wait(&m_late[it->second.request], MPI_STATUS_IGNORE);
    it = m_pending_directs.erase(it);
  }
}

void Context::apply_puts_and_sends() {
  m_queue.clear();
  m_pending_directs.clear();
  for (int q = 0; q < m_nprocs; ++q) {
    const bool self = q == m_pid;
    const char* p = self ? m_out[q].bytes().data() : m_in_stream[q];
    const char* end = p + (self ? m_out[q].bytes().size() : header_in(q)[header::bytes]);
    std::size_t direct = 0;
    while (p < end) {
      const Record r = read_record(p);
      switch (r.kind()) {
        case RecordKind::put: {
          char* dst = m_registry.address(r.slot()) + r.offset;
          if (!m_pending_directs.empty()) land_earlier_directs(dst, r.nbytes);
          if (r.nbytes == 8) std::memcpy(dst, p, 8);  // word puts: an inline move, no call
          else std::memcpy(dst, p, r.nbytes);
          if (!self) m_bytes_in += r.nbytes;
          p += r.nbytes;
          break;
        }
        case RecordKind::put_run: {
          RunTail t;
          std::memcpy(&t, p, sizeof t);
          p += sizeof t;
          char* dst = m_registry.address(r.slot()) + r.offset;
          if (!m_pending_directs.empty()) {
            // the run's elements lie between its lowest and highest element
            const std::int64_t last = std::int64_t{t.stride} * (std::int64_t{t.count} - 1);
            land_earlier_directs(dst + std::min<std::int64_t>(0, last),
                                 static_cast<std::uint64_t>(std::abs(last)) + r.nbytes);
          }
          apply_run(dst, t, p, r.nbytes);
          const std::uint64_t n = std::uint64_t{t.count} * r.nbytes;
          if (!self) m_bytes_in += static_cast<long>(n);
          p += n;
          break;
        }
        case RecordKind::put_direct: {
          char* dst = m_registry.address(r.slot()) + r.offset;
          if (!m_pending_directs.empty()) land_earlier_directs(dst, r.nbytes);
          if (self) {
            std::memcpy(dst, m_out[q].direct_data(direct++), r.nbytes);
          } else {
            m_late.emplace_back();
            MPI_Irecv(dst, static_cast<int>(r.nbytes), MPI_BYTE, q, tag_direct, m_comm,
                      &m_late.back());
            const auto b = reinterpret_cast<std::uintptr_t>(dst);
            m_pending_directs[b] = PendingDirect{b + r.nbytes, m_late.size() - 1};
            m_bytes_in += r.nbytes;
            ++m_msgs_in;
          }
          break;
        }
        case RecordKind::put_shared: {
          std::uint64_t at = 0;
          std::memcpy(&at, p, sizeof at);
          p += sizeof at;
          char* dst = m_registry.address(r.slot()) + r.offset;
          if (!m_pending_directs.empty()) land_earlier_directs(dst, r.nbytes);
          std::memcpy(dst, m_arena.at(q, at), r.nbytes);
          m_bytes_in += r.nbytes;
          ++m_msgs_in;
          break;
        }
        case RecordKind::get: break;
        case RecordKind::send:
          m_queue.add(p, static_cast<std::uint32_t>(r.offset), p + r.offset, r.nbytes);
          if (!self) m_bytes_in += r.offset + r.nbytes;
          p += r.offset + r.nbytes;
          break;
      }
    }
  }
}

void Context::find_shared_destinations() {
  const auto at = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
  if (m_direct_gets_in == 0) return;  // only direct gets land early
  m_spans.clear();
  for (std::vector<PendingGet>& gets : m_gets)
    for (PendingGet& g : gets) m_spans.push_back(Span{at(g.dst), at(g.dst) + g.n, &g});
  add_hp_source_spans();
  std::sort(m_spans.begin(), m_spans.end(),
            [](const Span& a, const Span& b) { return a.begin < b.begin; });
  // Sorted by start, span i overlaps an earlier one iff it starts before the furthest end so
  // far, and a later one iff it ends after the next one starts.
  std::uintptr_t furthest = 0;
  for (std::size_t i = 0; i < m_spans.size(); ++i) {
    const Span& sp = m_spans[i];
    const bool shared = sp.begin < furthest ||
                        (i + 1 < m_spans.size() && sp.end > m_spans[i + 1].begin);
    if (shared && sp.get) sp.get->shared = true;
    furthest = std::max(furthest, sp.end);
  }
}

// The receives for this process's gets, posted first thing in the sync, as everything they
// need is known here: the small replies as one message per owner into m_reply_in, the
// direct ones straight into their destinations (or the staging buffer). A direct get's
// data can then flow as soon as its owner has read the request.
void Context::post_get_receives() {
  find_shared_destinations();
  std::size_t reply_total = 0, staged_total = 0;
  for (int q = 0; q < m_nprocs; ++q) {
    m_reply_at[q] = reply_total;
    if (q == m_pid) continue;
    reply_total += static_cast<std::size_t>(m_reply_expected[q]);
    for (PendingGet& g : m_gets[q]) {
      if (!g.direct) continue;
      if (g.shared || m_registry.overlaps_own(g.dst, g.n, m_pid)) {
        g.staged_at = staged_total;
        staged_total += g.n;
      }
    }
  }
  m_reply_in.resize(reply_total);
  m_get_staging.resize(staged_total);
  for (int q = 0; q < m_nprocs; ++q) {
    if (q == m_pid) continue;
    if (m_reply_expected[q]) {
      m_get_recvs.emplace_back();
      MPI_Irecv(m_reply_in.data() + m_reply_at[q],
                as_count(static_cast<std::size_t>(m_reply_expected[q]), *this), MPI_BYTE, q,
                tag_reply, m_comm, &m_get_recvs.back());
      ++m_msgs_in;
      m_bytes_in += m_reply_expected[q];
    }
    // In request order: the owner sends them in that order, and MPI keeps it per tag.
    for (const PendingGet& g : m_gets[q]) {
      if (!g.direct) continue;
      char* into = g.staged_at == no_staging ? g.dst : m_get_staging.data() + g.staged_at;
      m_get_recvs.emplace_back();
      MPI_Irecv(into, static_cast<int>(g.n), MPI_BYTE, q, tag_get_direct, m_comm,
                &m_get_recvs.back());
      ++m_msgs_in;
      m_bytes_in += g.n;
    }
  }
}

// This process's replies to others' small gets, one message per requester.
void Context::send_replies() {
  for (int q = 0; q < m_nprocs; ++q) {
    if (q == m_pid || m_replies[q].empty()) continue;
    m_late.emplace_back();
    MPI_Isend(m_replies[q].data(), as_count(m_replies[q].size(), *this), MPI_BYTE, q,
              tag_reply, m_comm, &m_late.back());
    ++m_reply_msgs_out;
  }
}

void Context::add_hp_source_spans() {
  for (const Outbox& o : m_out)
    for (std::size_t k = 0; k < o.direct_count(); ++k)
      if (const char* src = o.direct_user_source(k)) {
        const auto b = reinterpret_cast<std::uintptr_t>(src);
        m_spans.push_back(Span{b, b + o.direct_size(k), nullptr});
      }
}

void Context::find_gets_into_hp_sources() {
  const auto at = [](const void* p) { return reinterpret_cast<std::uintptr_t>(p); };
  m_spans.clear();
  add_hp_source_spans();
  if (m_spans.empty()) return;
  std::sort(m_spans.begin(), m_spans.end(),
            [](const Span& a, const Span& b) { return a.begin < b.begin; });
  // Each span's end raised to the furthest end so far: the spans starting before a get's end
  // reach past its start iff the last of them does.
  for (std::size_t i = 1; i < m_spans.size(); ++i)
    m_spans[i].end = std::max(m_spans[i].end, m_spans[i - 1].end);
  for (std::vector<PendingGet>& gets : m_gets)
    for (PendingGet& g : gets) {
      const std::uintptr_t b = at(g.dst), e = b + g.n;
      auto it = std::lower_bound(m_spans.begin(), m_spans.end(), e,
                                 [](const Span& sp, std::uintptr_t v) { return sp.begin < v; });
      if (it != m_spans.begin() && std::prev(it)->end > b) {
        g.after_sends = true;
        ++m_gets_after_sends;
      }
    }
}

void Context::copy_gets(bool after_sends) {
  for (int q = 0; q < m_nprocs; ++q) {
    const char* src = q == m_pid ? m_replies[q].data() : m_reply_in.data() + m_reply_at[q];
    for (const PendingGet& g : m_gets[q]) {
      const bool now = g.after_sends == after_sends;
      if (!g.direct) {
        if (now) std::memcpy(g.dst, src, g.n);
        src += g.n;
      } else if (now && g.staged_at != no_staging) {
        std::memcpy(g.dst, m_get_staging.data() + g.staged_at, g.n);
      }
    }
  }
}

// The end of the gets: once every reply has come, copy each small reply (and each staged
// direct one) to its destination, in request order; before the puts, so a put wins over a get
// to the same bytes. A get into the source of a large hp put waits for the send (finish_gets).
void Context::deliver_gets() {
  if (!m_get_recvs.empty()) {
    MPI_Waitall(static_cast<int>(m_get_recvs.size()), m_get_recvs.data(), MPI_STATUSES_IGNORE);
    m_get_recvs.clear();
  }
  find_gets_into_hp_sources();
  copy_gets(false);
}

void Context::finish_gets() {
  if (m_gets_after_sends) copy_gets(true);
  m_gets_after_sends = 0;
  for (int q = 0; q < m_nprocs; ++q) {
    m_gets[q].clear();
    m_reply_expected[q] = 0;
  }
  m_direct_gets_in = 0;
  for (ByteBuffer& r : m_replies) r.clear();
}

void Context::sync(bool ending) {
  // Only the profiler reads the superstep's times: without it a sync reads no clock (two
  // reads were about 0.04 us of a 0.3 us empty superstep).
  const bool timed = m_profiler.enabled();
  const double t_enter = timed ? time() : 0;
  for (Outbox& o : m_out) o.flush_hp();
  m_bytes_in = m_msgs_in = m_reply_bytes_out = m_reply_msgs_out = m_direct_gets_out = 0;
  long bytes_out = 0, msgs_out = 0;
  const long pushes = m_registry.pending_pushes(), pops = m_registry.pending_pops();
  for (int q = 0; q < m_nprocs; ++q)
    if (q != m_pid) {
      bytes_out += m_out[q].payload();
      msgs_out += !m_out[q].bytes().empty() + static_cast<long>(m_out[q].direct_count()) +
                  m_out[q].shared_count();
    }

  // The sizes of this superstep's registrations, if few (Registry::header_sizes): they
  // travel in the headers.
  std::fill_n(m_reg_sizes, Registry::header_sizes, 0);
  if (m_registry.has_pending()) {
    const std::vector<std::uint32_t> words = m_registry.pending_push_words();
    if (words.size() <= static_cast<std::size_t>(Registry::header_sizes))
      for (std::size_t k = 0; k < words.size(); ++k) m_reg_sizes[k] = words[k];
  }
  post_get_receives();
  if (m_nprocs > 1) {
    exchange_headers(ending);
    exchange_data();
  }
  serve_gets();
  send_replies();
  // The direct gets this process serves read its areas: they must have left before any put
  // of this superstep lands there (gets before puts). Every process posted its receives for
  // them at the start of its sync, before waiting on anything, so this cannot deadlock.
  if (!m_get_sends.empty()) {
    MPI_Waitall(static_cast<int>(m_get_sends.size()), m_get_sends.data(), MPI_STATUSES_IGNORE);
    m_get_sends.clear();
  }
  // Every process has sent what its gets wait for (steps 3-4) before waiting on anything
  // but the headers and streams, so waiting for them here cannot deadlock either.
  deliver_gets();
  apply_puts_and_sends();
  if (!m_late.empty()) {
    MPI_Waitall(static_cast<int>(m_late.size()), m_late.data(), MPI_STATUSES_IGNORE);
    m_late.clear();
  }
  finish_gets();
  msgs_out += m_reply_msgs_out + m_direct_gets_out;
  bytes_out += m_reply_bytes_out;

  if (m_nprocs > 1 && !ending) {  // bsp_end's sync: no superstep follows to use a growth
    for (int q = 0; q < m_nprocs; ++q) m_wanted[q] = header_in(q)[header::wanted];
    m_arena.end_superstep(m_wanted);
  }
  if (m_registry.has_pending()) {
    const Registry::Mismatch m = m_registry.commit(m_comm, m_pops_null, [this](int q, int k) {
      return static_cast<std::uint32_t>(
          q == m_pid ? m_reg_sizes[k] : header_in(q)[header::reg_sizes] >> (32 * k) & 0xffffffffu);
    });
    if (m.process >= 0) report_once(*this, "bsp_pop_reg", m.process, m.what.c_str());
  }
  m_tagsize = m_pending_tagsize;
  m_tagsize_calls = 0;
  for (Outbox& o : m_out) o.clear();
  const long gets_asked = m_gets_asked;
  m_gets_asked = 0;
  ++m_superstep;
  if (!timed) return;
  const double t_exit = time(), t_begin = m_step_begin;
  m_step_begin = t_exit;
  if (!m_warming) {
    m_profiler.record(t_begin, t_enter, t_exit, bytes_out, m_bytes_in, msgs_out, m_msgs_in,
                      gets_asked, pushes, pops);
    // The next superstep starts once the record is written: the profiler's own time is in
    // no superstep's w (its first record cost 59 us of page faults and lazy binding).
    m_step_begin = time();
  }
}

}  // namespace bsplib
