// The transport's first-use costs, paid at bsp_begin instead of in the first supersteps.
//
// MPICH's UCX transport passes small messages between processes of a node through a
// shared-memory FIFO (UCX_MM_FIFO_SIZE elements, 64 by default) and receive buffers that are
// touched for the first time when a message first passes through them. Measured on the
// development machine (a VM, MPICH 4.0, ch4:ucx; a plain MPI exchange of 2 KiB each way):
// the first ~64 exchanges take 35-45 us each, every later one 1.1 us; with
// UCX_MM_FIFO_SIZE=16 the slow ones are the first ~16, with 256 all of the first 120; the
// same with UCX_TLS=sm,self (so not a connection set-up). A BSPlib program's first ~64
// supersteps paid it: 15-30 us instead of 1-1.5 us, 10-20 times the l + h g the probe
// measures in steady state (the 'small-superstep anomaly', bsplib/BENCHMARKS.md).
// The warm-up passes FIFO + 8 messages of the largest size a superstep's header message
// takes (header and inline stream) each way between every pair of processes, then runs a
// few supersteps of its own.
#include <algorithm>
#include <cstdlib>
#include <vector>

#include "context.hpp"

namespace bsplib {

namespace {
// UCX_MM_FIFO_SIZE if set to a number, else UCX's default; at most 4096 rounds.
int fifo_rounds() {
  int fifo = 64;
  if (const char* e = std::getenv("UCX_MM_FIFO_SIZE")) {
    char* end = nullptr;
    const long v = std::strtol(e, &end, 10);
    if (end != e && *end == '\0' && v > 0) fifo = static_cast<int>(v < 4088 ? v : 4088);
  }
  return fifo + 8;
}
// The bytes of one FIFO element (UCX_MM_SEG_SIZE: a number with an optional k or m, 8 KiB by
// default): a message touches the element's pages up to its own size, so the warm-up's
// messages fill elements, not only a header's worth of each.
int fifo_element_bytes() {
  long seg = 8192;
  if (const char* e = std::getenv("UCX_MM_SEG_SIZE")) {
    char* end = nullptr;
    long v = std::strtol(e, &end, 10);
    if (end != e && (*end == 'k' || *end == 'K')) v *= 1024, ++end;
    else if (end != e && (*end == 'm' || *end == 'M')) v *= 1024 * 1024, ++end;
    if (end != e && *end == '\0' && v >= 1024 && v <= (1 << 20)) seg = v;
  }
  return static_cast<int>(seg);
}
}  // namespace

void Context::warm_up() {
  // BSP_WARM_UP=0 (on any process) turns it off, to measure the transient itself.
  const char* e = std::getenv("BSP_WARM_UP");
  // Every process must decide alike and pass as many messages of the same size as the
  // others: the largest over processes (the environment may differ between them). A message
  // is just under a FIFO element (UCX's own header shares it) and at least a header message.
  int want[3] = {e && e[0] == '0' && e[1] == '\0',
                 std::max((header_words + inline_words) * 8, fifo_element_bytes() - 256),
                 m_nprocs > 1 ? fifo_rounds() : 0};
  MPI_Allreduce(MPI_IN_PLACE, want, 3, MPI_INT, MPI_MAX, m_comm);
  if (want[0]) return;
  const int bytes = want[1], rounds = want[2];
  std::vector<char> out(static_cast<std::size_t>(bytes), 0);
  std::vector<char> in(static_cast<std::size_t>(bytes) * m_nprocs);
  std::vector<MPI_Request> req;
  req.reserve(2 * static_cast<std::size_t>(m_nprocs));
  for (int r = 0; r < rounds; ++r) {
    req.clear();
    for (int q = 0; q < m_nprocs; ++q) {
      if (q == m_pid) continue;
      req.emplace_back();
      MPI_Irecv(&in[static_cast<std::size_t>(q) * bytes], bytes, MPI_BYTE, q, tag_warm_up,
                m_comm, &req.back());
      req.emplace_back();
      MPI_Isend(out.data(), bytes, MPI_BYTE, q, tag_warm_up, m_comm, &req.back());
    }
    MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE);
  }
  // The superstep's own code (a registration pushed and popped, a put and a get, empty
  // supersteps): its pages
  // and lazily bound calls are in place before the first measured superstep, which cost
  // 7-8 us empty and 20 us with registrations without this. Not profiled; every process
  // does the same, so the registration order stays matched; start_clock numbers the first
  // real superstep 0.
  // A put and a get between every pair too: the first superstep with a get cost 18 us
  // (its reply is a message of its own: code, buffers and the reply's first transfer) and
  // the first with a put stream 3.7 us, against 1.7-2.2 us later. They carry warm_bytes
  // each, not one byte, so that the streams and replies have grown to a size programs use
  // before the first measured superstep: with one byte the 500-relation example's first get
  // superstep (2000 B) cost 3.01 us and the first cyclic shift 2.13 us, with 4 KiB 2.42 and
  // 1.92 us (medians of 20 launches each, alternated; bsplib/BENCHMARKS.md). Below
  // SharedArena::put_min, so that no shared segment is allocated for programs that never
  // need one. Three registrations, not one: the registry's tables then hold the first
  // registrations a program pushes without growing. A program's first push of a new area
  // cost 1.34-1.56 us after a warm-up with one and 0.98-1.17 us after one with three
  // (steady: 0.81 us; four launches each, alternated).
  constexpr int warm_bytes = 4096;
  static_assert(std::size_t{warm_bytes} < SharedArena::put_min);
  std::vector<char> slot(warm_bytes), from(warm_bytes), got(warm_bytes);
  m_warming = true;
  push_reg(slot.data(), warm_bytes);
  push_reg(from.data(), warm_bytes);
  push_reg(got.data(), warm_bytes);
  sync(false);
  for (int q = 0; q < m_nprocs; ++q) {
    get("bsp_get", q, slot.data(), 0, got.data(), warm_bytes);
    put(q, from.data(), slot.data(), 0, warm_bytes);
  }
  sync(false);
  pop_reg(got.data());
  pop_reg(from.data());
  pop_reg(slot.data());
  for (int r = 0; r < 4; ++r) sync(false);
  m_warming = false;
}

}  // namespace bsplib
