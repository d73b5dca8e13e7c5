#include "shared_arena.hpp"

#include <algorithm>
#include <cstdlib>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <sys/statvfs.h>

namespace bsplib {

namespace {
constexpr std::uint64_t line = 64;  // reservations start on a cache line
std::uint64_t round_up(std::uint64_t n, std::uint64_t to) { return (n + to - 1) / to * to; }
// Whether the node's shared-memory file system (where MPICH puts shared windows) has bytes
// free; true where there is none to ask.
bool shm_has_room(std::uint64_t bytes) {
  struct statvfs v;
  if (statvfs("/dev/shm", &v) != 0) return true;
  return static_cast<std::uint64_t>(v.f_bavail) * v.f_frsize >= bytes;
}
}  // namespace

SharedArena::SharedArena(MPI_Comm comm) {
  int p = 1;
  MPI_Comm_size(comm, &p);
  MPI_Comm_rank(comm, &m_pid);
  m_node_rank.assign(static_cast<std::size_t>(p), -1);
  m_base.assign(static_cast<std::size_t>(p), nullptr);
  m_half.assign(static_cast<std::size_t>(p), 0);
  const char* e = std::getenv("BSP_SHARED_PUTS");
  int on = !(e && e[0] == '0' && e[1] == '\0');
  // Every process must take the same route, or the node's collectives would not match.
  MPI_Allreduce(MPI_IN_PLACE, &on, 1, MPI_INT, MPI_MIN, comm);
  if (!on || p == 1) return;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, m_pid, MPI_INFO_NULL, &m_node);
  int n = 1;
  MPI_Comm_size(m_node, &n);
  if (n == 1) {
    MPI_Comm_free(&m_node);
    return;
  }
  m_node_members.resize(static_cast<std::size_t>(n));
  MPI_Allgather(&m_pid, 1, MPI_INT, m_node_members.data(), 1, MPI_INT, m_node);
  for (int r = 0; r < n; ++r) {
    const int q = m_node_members[static_cast<std::size_t>(r)];
    if (q != m_pid) m_node_rank[static_cast<std::size_t>(q)] = r;
  }
}

SharedArena::~SharedArena() {
  release();
  if (m_node != MPI_COMM_NULL) MPI_Comm_free(&m_node);
}

char* SharedArena::reserve(std::size_t n, std::uint64_t& offset) {
  const std::uint64_t need = round_up(n, line);
  m_demand += need;
  const std::uint64_t half = m_half[static_cast<std::size_t>(m_pid)];
  if (m_used + need > half) return nullptr;
  offset = static_cast<std::uint64_t>(m_parity) * half + m_used;
  m_used += need;
  return m_mine + offset;
}

void SharedArena::copy_in(char* into, const void* src, std::size_t n) {
#if defined(__SSE2__)
  // reserve's offsets are whole lines; the segment's base is page-aligned in MPICH, but the
  // standard does not promise it
  if (n >= stream_min && reinterpret_cast<std::uintptr_t>(into) % 16 == 0) {
    const char* from = static_cast<const char*>(src);
    const std::size_t lines = n / 64 * 64;
    for (std::size_t i = 0; i < lines; i += 64) {
      const __m128i a = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i));
      const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i + 16));
      const __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i + 32));
      const __m128i d = _mm_loadu_si128(reinterpret_cast<const __m128i*>(from + i + 48));
      _mm_stream_si128(reinterpret_cast<__m128i*>(into + i), a);
      _mm_stream_si128(reinterpret_cast<__m128i*>(into + i + 16), b);
      _mm_stream_si128(reinterpret_cast<__m128i*>(into + i + 32), c);
      _mm_stream_si128(reinterpret_cast<__m128i*>(into + i + 48), d);
    }
    _mm_sfence();  // the streamed lines are ordered before the header that announces them
    std::memcpy(into + lines, from + lines, n - lines);
    return;
  }
#endif
  std::memcpy(into, src, n);
}

std::uint64_t SharedArena::wanted() const {
  const std::uint64_t have = m_half[static_cast<std::size_t>(m_pid)];
  if (m_demand <= have || m_capped) return have;
  std::uint64_t half = min_half;
  while (half < m_demand && half < grain) half *= 2;
  if (half < m_demand) half = round_up(m_demand, grain);
  return std::max(have, std::min(half, max_half));
}

void SharedArena::end_superstep(const std::vector<std::uint64_t>& wanted) {
  m_parity ^= 1;
  m_used = 0;
  m_demand = 0;
  if (m_node == MPI_COMM_NULL) return;
  bool grow = false;
  for (int q : m_node_members)
    grow = grow || wanted[static_cast<std::size_t>(q)] > m_half[static_cast<std::size_t>(q)];
  if (!grow) return;
  std::vector<std::uint64_t> half(m_half.size(), 0);
  std::uint64_t node_bytes = 0;
  for (int q : m_node_members) {
    const std::size_t i = static_cast<std::size_t>(q);
    half[i] = std::max(m_half[i], std::min(wanted[i], max_half));
    node_bytes += 2 * half[i];
  }
  // Containers often give /dev/shm 64 MiB, and a segment it cannot hold is a SIGBUS at the
  // first touch, not an error. So the segments grow only if every process of the node sees
  // room for them twice over and 64 MiB more (MPI's transport keeps its own segments there:
  // with a 24 MiB /dev/shm, segments that left it 4 MiB made 4 MiB puts by MPI 10x slower);
  // else they stay as they are for the rest of the run and larger puts go by MPI. The
  // verdict is the node's.
  int room = shm_has_room(2 * node_bytes + (std::uint64_t{64} << 20)) ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &room, 1, MPI_INT, MPI_MIN, m_node);
  if (!room) {
    m_capped = true;
    return;
  }
  allocate(half);
}

void SharedArena::allocate(const std::vector<std::uint64_t>& half) {
  release();
  const std::uint64_t mine = 2 * half[static_cast<std::size_t>(m_pid)];
  MPI_Info info;
  MPI_Info_create(&info);
  MPI_Info_set(info, "alloc_shared_noncontig", "true");  // each segment on its owner's pages
  void* base = nullptr;
  MPI_Win_allocate_shared(static_cast<MPI_Aint>(mine), 1, info, m_node, &base, &m_win);
  MPI_Info_free(&info);
  MPI_Win_lock_all(MPI_MODE_NOCHECK, m_win);
  m_mine = static_cast<char*>(base);
  // Every page is touched here, by its owner first, then mapped by the others: the superstep
  // that grew the window pays the page faults, not the first one that uses it.
  if (mine) std::memset(m_mine, 0, mine);
  MPI_Win_sync(m_win);
  MPI_Barrier(m_node);
  MPI_Win_sync(m_win);
  for (std::size_t r = 0; r < m_node_members.size(); ++r) {
    const std::size_t q = static_cast<std::size_t>(m_node_members[r]);
    MPI_Aint size = 0;
    int unit = 1;
    void* at = nullptr;
    MPI_Win_shared_query(m_win, static_cast<int>(r), &size, &unit, &at);
    m_base[q] = static_cast<const char*>(at);
    m_half[q] = static_cast<std::uint64_t>(size) / 2;
    if (static_cast<int>(q) != m_pid) {
      const volatile char* v = m_base[q];
      for (MPI_Aint b = 0; b < size; b += 4096) (void)v[b];
    }
  }
}

void SharedArena::release() {
  if (m_win == MPI_WIN_NULL) return;
  MPI_Barrier(m_node);  // every process of the node has copied what it read from the window
  MPI_Win_unlock_all(m_win);
  MPI_Win_free(&m_win);
  m_mine = nullptr;
  std::fill(m_base.begin(), m_base.end(), nullptr);
  std::fill(m_half.begin(), m_half.end(), 0);
}

}  // namespace bsplib
