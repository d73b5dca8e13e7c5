// The transport's first-use costs, paid at bsp_begin instead of in the first supersteps.
//
// The transport's own first use (MPICH's UCX shared-memory FIFO between the processes of a
// node: the first ~64 exchanges took 35-45 us each, every later one 1.1 us, and a BSPlib
// program's first ~64 supersteps paid it: 15-30 us instead of 1-1.5 us, 10-20 times the
// l + h g the probe measures in steady state, the 'small-superstep anomaly' of
// bsplib/BENCHMARKS.md) is paid by suite_transport::warm_up_eager_buffers
// (instrument/transport/eager_warm_up.hpp), as the probes pay it, its largest messages the
// size of a superstep's largest header message (header and inline stream) or of a FIFO
// element if that is larger. Then a few supersteps of the library's own.
#include <cstdlib>
#include <vector>

#include "context.hpp"
#include "eager_warm_up.hpp"

namespace bsplib {

void Context::warm_up() {
  // BSP_WARM_UP=0 (on any process) turns it off, to measure the transient itself.
  const char* e = std::getenv("BSP_WARM_UP");
  // Every process must decide alike (the environment may differ between them).
  int off = e && e[0] == '0' && e[1] == '\0';
  MPI_Allreduce(MPI_IN_PLACE, &off, 1, MPI_INT, MPI_MAX, m_comm);
  if (off) return;
  suite_transport::warm_up_eager_buffers(m_comm, tag_warm_up, (header_words + inline_words) * 8,
                                         long{1} << 20);
  // The superstep's own code (a registration pushed and popped, a put and a get, empty
  // supersteps): its pages and lazily bound calls are in place before the first measured superstep, which cost
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
