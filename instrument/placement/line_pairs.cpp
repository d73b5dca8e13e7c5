#include "line_pairs.hpp"

#include <sched.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstring>
#include <string>
#include <utility>
#include <vector>

#include "store_wait.hpp"

namespace instrument {

namespace {
// steady_clock seconds (instrument/clock.hpp's now_seconds, which this library sits below).
double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// Waits for the partner's store of `want` into `line`; a partner that never stores ends the
// run through `missed` rather than hanging it, naming both processes and the round trip.
void wait_until(const std::atomic_ref<std::uint64_t>& line, std::uint64_t want, MPI_Comm comm,
                const LinePairs::MissedStore& missed) {
  if (wait_for_store(line, want, kStoreWaitLimit)) return;
  int p = 1, s = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &s);
  const int partner = s < p / 2 ? s + p / 2 : s - p / 2;
  missed(missed_store_text(s, partner, want, kStoreWaitLimit));
  MPI_Abort(comm, 1);  // `missed` must not return; if it does, the run still ends
}
}  // namespace

int usable_cpus_on_node(MPI_Comm node) {
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) CPU_ZERO(&cpus);
  MPI_Allreduce(MPI_IN_PLACE, &cpus, static_cast<int>(sizeof cpus), MPI_BYTE, MPI_BOR, node);
  return CPU_COUNT(&cpus);
}

LinePairs::LinePairs(MPI_Comm comm, MissedStore missed) : m_missed(std::move(missed)) {
  int p = 1, s = 0;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &s);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, s, MPI_INFO_NULL, &node);
  int n = 0, node_rank = -1;
  MPI_Comm_size(node, &n);
  MPI_Comm_rank(node, &node_rank);
  // More processes than CPUs they may run on: partners take turns on a CPU, and a round trip
  // waits for the scheduler (ms), not for a cache line; and the spinning would slow down every
  // profiled launch of an oversubscribed run (0.1-0.4 s at p = 4 on 2 vCPUs). Off then. The
  // CPUs are the union of the node's processes' affinity masks: a process bound to one core
  // (Open MPI's default at p <= 2, MPICH's -bind-to core) shares it with no partner.
  const int usable = usable_cpus_on_node(node);
  int whole = p > 1 && n == p && node_rank == s && usable >= n;
  MPI_Allreduce(MPI_IN_PLACE, &whole, 1, MPI_INT, MPI_MIN, comm);
  if (!whole) {
    MPI_Comm_free(&node);
    return;
  }
  m_comm = node;
  const int half = p / 2;
  m_lower = s < half;
  m_paired = s < 2 * half;
  // Each lower process owns its pair's two lines, 128 bytes apart (not one prefetch pair).
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");
  void* mine = nullptr;
  MPI_Win_allocate_shared(m_lower ? 256 : 0, 1, info, m_comm, &mine, &m_win);
  MPI_Info_free(&info);
  if (m_lower) std::memset(mine, 0, 256);
  if (m_paired) {
    MPI_Aint size = 0;
    int unit = 1;
    void* at = nullptr;
    MPI_Win_shared_query(m_win, m_lower ? s : s - half, &size, &unit, &at);
    m_lines = static_cast<std::uint64_t*>(at);
  }
  MPI_Barrier(m_comm);  // zeroed before any process stores into it
}

LinePairs::~LinePairs() {
  if (m_win != MPI_WIN_NULL) MPI_Win_free(&m_win);
  if (m_comm != MPI_COMM_NULL) MPI_Comm_free(&m_comm);
}

double LinePairs::measure(int blocks, int per_block) {
  if (m_comm == MPI_COMM_NULL) return 0;
  MPI_Barrier(m_comm);
  double mine = 0;
  if (m_paired) {
    const std::atomic_ref<std::uint64_t> ping(m_lines[0]), pong(m_lines[16]);
    std::vector<double> means;
    for (int b = 0; b < blocks; ++b) {
      const double t0 = now_seconds();
      for (int k = 0; k < per_block; ++k) {
        const std::uint64_t want = ++m_count;
        if (m_lower) {
          ping.store(want, std::memory_order_release);
          wait_until(pong, want, m_comm, m_missed);
        } else {
          wait_until(ping, want, m_comm, m_missed);
          pong.store(want, std::memory_order_release);
        }
      }
      means.push_back((now_seconds() - t0) / per_block);
    }
    if (m_lower) {
      std::nth_element(means.begin(), means.begin() + means.size() / 2, means.end());
      mine = means[means.size() / 2];
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, &mine, 1, MPI_DOUBLE, MPI_MAX, m_comm);
  return mine;
}

}  // namespace instrument
