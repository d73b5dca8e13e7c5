#include "context.hpp"

#include <cstdint>
#include <cstdio>
#include <cstring>

#include "instrument/clock.hpp"

namespace bsplib {

namespace {
int rank_of(MPI_Comm c) {
  int r = 0;
  MPI_Comm_rank(c, &r);
  return r;
}
int size_of(MPI_Comm c) {
  int n = 0;
  MPI_Comm_size(c, &n);
  return n;
}
}  // namespace

Context::Context(MPI_Comm comm, double t0)
    : m_comm(comm), m_pid(rank_of(comm)), m_nprocs(size_of(comm)), m_t0(t0),
      m_registry(m_nprocs), m_arena(comm),
      m_headers(comm, static_cast<std::size_t>(header_words + inline_words)) {
  // m_hdr_stride has room for an inline stream wherever the shared headers may be on.
  static_assert(SharedHeaders::max_procs <= header_p2p_max);
  m_out.resize(m_nprocs);
  m_wanted.assign(m_nprocs, 0);
  m_gets.resize(m_nprocs);
  m_reply_expected.assign(m_nprocs, 0);
  m_replies.resize(m_nprocs);
  m_in_stream.assign(m_nprocs, nullptr);
  m_reply_at.assign(m_nprocs, 0);
  const bool p2p = m_nprocs > 1 && m_nprocs <= header_p2p_max;
  m_hdr_stride = p2p ? header_words + inline_words : header_words;
  m_hdr_out.assign(static_cast<std::size_t>(m_nprocs) * m_hdr_stride, 0);
  m_hdr_in.assign(static_cast<std::size_t>(m_nprocs) * m_hdr_stride, 0);
  for (int q = 0; q < m_nprocs; ++q)
    m_hdr_at.push_back(&m_hdr_in[static_cast<std::size_t>(q) * m_hdr_stride]);
  if (p2p && !m_headers.on()) {
    for (int q = 0; q < m_nprocs; ++q) {
      if (q == m_pid) continue;
      const std::size_t at = static_cast<std::size_t>(q) * m_hdr_stride;
      m_hdr_peer.push_back(q);
      // Room for a header with an inline stream; a bare header is a shorter message.
      m_hdr_recv.emplace_back();
      MPI_Recv_init(&m_hdr_in[at], static_cast<int>(m_hdr_stride), MPI_UINT64_T, q, tag_header,
                    m_comm, &m_hdr_recv.back());
      m_hdr_send.emplace_back();
      MPI_Send_init(&m_hdr_out[at], header_words, MPI_UINT64_T, q, tag_header, m_comm,
                    &m_hdr_send.back());
    }
  }
}

Context::~Context() {
  for (MPI_Request& r : m_hdr_recv) MPI_Request_free(&r);
  for (MPI_Request& r : m_hdr_send) MPI_Request_free(&r);
}

double Context::time() const { return instrument::now_seconds() - m_t0; }

bool Context::put_shared(int pid, int slot, int offset, const void* src, int nbytes) {
  std::uint64_t at = 0;
  char* into = m_arena.reserve(static_cast<std::size_t>(nbytes), at);
  if (!into) return false;
  SharedArena::copy_in(into, src, static_cast<std::size_t>(nbytes));
  m_out[pid].put_shared(static_cast<std::uint32_t>(slot), static_cast<std::uint64_t>(offset),
                        static_cast<std::uint32_t>(nbytes), at);
  return true;
}

void Context::bad_pid(const char* call, int pid) const {
  fatal(call, m_pid, m_superstep, "process id %d is not in 0..%d", pid, m_nprocs - 1);
}
void Context::bad_size(const char* call, int offset, int nbytes) const {
  fatal(call, m_pid, m_superstep, "negative %s (offset %d, nbytes %d)",
        offset < 0 ? "offset" : "size", offset, nbytes);
}
void Context::unregistered(const char* call, const void* area, int slot) const {
  if (slot == Registry::ambiguous)
    fatal(call, m_pid, m_superstep,
          "NULL names %d registrations of this process, so which remote area is meant is "
          "ambiguous; name the area by an address registered once on this process (a "
          "process that registers NULL for several areas can put into none of them by "
          "NULL)",
          m_registry.registrations_of(nullptr));
  fatal(call, m_pid, m_superstep,
        "address %p is not registered (bsp_push_reg takes effect at the next bsp_sync)",
        area);
}
void Context::out_of_area(const char* call, int pid, const void* area, int offset, int nbytes,
                          int slot) const {
  if (m_registry.null_on(slot, pid))
    fatal(call, m_pid, m_superstep,
          "process %d registered NULL for the area this process registered as %p: it has "
          "nothing to share, so bytes [%d, %ld) cannot be %s there",
          pid, area, offset, long{offset} + nbytes,
          std::strstr(call, "get") ? "read" : "written");
  fatal(call, m_pid, m_superstep,
        "bytes [%d, %ld) are outside the area registered as %p, which has %ld bytes on "
        "process %d",
        offset, long{offset} + nbytes, area, m_registry.size_on(slot, pid), pid);
}

void Context::push_reg(const void* ident, int size) {
  if (size < 0) fatal("bsp_push_reg", m_pid, m_superstep, "negative size %d", size);
  m_registry.push(ident, size);
}

void Context::pop_reg(const void* ident) {
  if (!m_registry.pop(ident))
    fatal("bsp_pop_reg", m_pid, m_superstep,
          "address %p is not registered (or all its registrations are already being popped)",
          ident);
}

void Context::get(const char* call, int pid, const void* src, int offset, void* dst,
                  int nbytes) {
  const int slot = checked_slot(call, pid, src, offset, nbytes);
  if (!nbytes) return;
  need(call, dst, "the destination");
  m_out[pid].get_request(slot, offset, nbytes);
  if (pid != m_pid) ++m_gets_asked;
  const bool direct = is_direct_get(pid, m_pid, static_cast<std::uint64_t>(nbytes));
  m_gets[pid].push_back(
      PendingGet{static_cast<char*>(dst), static_cast<std::uint32_t>(nbytes), direct, false,
                 no_staging, false});
  if (direct) ++m_direct_gets_in;
  else m_reply_expected[pid] += nbytes;
}

void Context::set_tagsize(int* tag_nbytes) {
  if (!tag_nbytes) fatal("bsp_set_tagsize", m_pid, m_superstep, "null argument");
  if (*tag_nbytes < 0)
    fatal("bsp_set_tagsize", m_pid, m_superstep, "negative tag size %d", *tag_nbytes);
  const int previous = m_pending_tagsize;
  m_pending_tagsize = *tag_nbytes;
  if (m_tagsize_calls < UINT32_MAX) ++m_tagsize_calls;
  *tag_nbytes = previous;
}

void Context::send(int pid, const void* tag, const void* payload, int payload_nbytes) {
  if (pid < 0 || pid >= m_nprocs) bad_pid("bsp_send", pid);
  if (payload_nbytes < 0)
    fatal("bsp_send", m_pid, m_superstep, "negative payload size %d", payload_nbytes);
  if (m_tagsize > 0) need("bsp_send", tag, "the tag");
  if (payload_nbytes > 0) need("bsp_send", payload, "the payload");
  m_out[pid].send(tag, static_cast<std::uint32_t>(m_tagsize), payload,
                  static_cast<std::uint32_t>(payload_nbytes));
}

}  // namespace bsplib
