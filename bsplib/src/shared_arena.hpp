// Large buffered puts between processes of one node go through shared memory. The copy the
// definition requires at bsp_put is made straight into a segment that the destination maps,
// and the destination copies it into the registered area at bsp_sync: two copies and no MPI
// message. The MPI route (a copy at the call into a private buffer, then a rendezvous that
// the destination's kernel serves by a cross-process copy) ran at 4.6-5.7 GB/s for 1-16 MiB
// on the development machine; see bsplib/BENCHMARKS.md for both, measured alternately.
//
// Each process owns one segment of two halves, written in alternate supersteps. A half
// written in superstep k is read by its destinations during sync k, and written again in
// superstep k + 2, which starts only once this process has every header of sync k + 1, i.e.
// once every destination has left sync k. So the headers are the only synchronisation.
//
// A segment grows at a sync when a superstep's large puts did not fit (those went by MPI):
// each header carries the half size its sender wants, every process of the node sees every
// header, reaches the same verdict, and the node's processes, all in that sync, reallocate
// the window together.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <vector>

namespace bsplib {

class SharedArena {
 public:
  // Collective over comm. BSP_SHARED_PUTS=0 (on any process) turns the route off.
  explicit SharedArena(MPI_Comm comm);
  ~SharedArena();  // collective over the node (bsp_end)
  SharedArena(const SharedArena&) = delete;
  SharedArena& operator=(const SharedArena&) = delete;

  // Puts of put_min bytes or more to a process of the node go through the segment. Below
  // it a put rides in the header message (up to inline_words, context.hpp); above that, an
  // MPI message of its own crosses UCX's 8 KiB FIFO element and costs 5-7 us at 12-20 KiB
  // where the segment costs about 1 us (bsplib/BENCHMARKS.md).
  static constexpr std::size_t put_min = 8192;
  // Whether a large put to process q can go through shared memory (never to oneself).
  bool reaches(int q) const { return m_node_rank[static_cast<std::size_t>(q)] >= 0; }
  // Room for n bytes in this superstep's half (offset: from the segment's start), or nullptr:
  // the put then goes by MPI and n counts towards the size asked for at the sync.
  char* reserve(std::size_t n, std::uint64_t& offset);
  // Copies a put's source into the room reserve gave: from stream_min bytes up with
  // non-temporal stores, which need no ownership of lines the destination read two
  // supersteps ago (measured at 1 MiB: 52 us against 163 us with memcpy, which fetches and
  // invalidates them first; the destination's copy out is as fast after either).
  static void copy_in(char* into, const void* src, std::size_t n);
  static constexpr std::size_t stream_min = std::size_t{256} << 10;
  // Process q's bytes at offset, as this process maps them.
  const char* at(int q, std::uint64_t offset) const {
    return m_base[static_cast<std::size_t>(q)] + offset;
  }
  // The half size this process asks for in its header (its present one if enough).
  std::uint64_t wanted() const;
  // This process's half size now (0 before any growth).
  std::uint64_t half_bytes() const { return m_half[static_cast<std::size_t>(m_pid)]; }
  // Memory ordering around the header exchange: what this process wrote is visible to the
  // node before its header leaves, and what others wrote before theirs, after it arrives.
  void sync_memory() const {
    if (m_win != MPI_WIN_NULL) MPI_Win_sync(m_win);
  }
  // The end of a sync: the next superstep writes the other half; wanted[q] is the field of
  // q's header. Grows the node's segments together if any process of the node asked.
  void end_superstep(const std::vector<std::uint64_t>& wanted);

 private:
  void allocate(const std::vector<std::uint64_t>& half);  // collective over the node
  void release();

  // A half grows to the power of two at or above the superstep's demand, min_half at least,
  // up to grain, and beyond it to whole grains. Growth touches every page of the node's
  // segments (each process its own, then the others' as it maps them), 10-13 us a 4 KiB page
  // on a guest with shadow paging, so a small demand gets a small half, not a whole MiB
  // (multigrid's first exchange at P = 2, 37 KB of puts, grew two 2 MiB segments: 1024
  // faults, 10-13 ms, and the window's allocation, 15-17 ms of its set-up); doubling keeps a
  // rising small demand's growths few, and a large demand is not given up to twice what it
  // needs (nor /dev/shm asked for it).
  static constexpr std::uint64_t min_half = std::uint64_t{64} << 10;
  static constexpr std::uint64_t grain = std::uint64_t{1} << 20;
  static constexpr std::uint64_t max_half = std::uint64_t{512} << 20;
  int m_pid = 0;
  MPI_Comm m_node = MPI_COMM_NULL;
  MPI_Win m_win = MPI_WIN_NULL;
  std::vector<int> m_node_rank;        // [process]: its rank in m_node, -1 if unreachable
  std::vector<int> m_node_members;     // the processes of m_node, by node rank
  std::vector<const char*> m_base;     // [process]: its segment as mapped here
  std::vector<std::uint64_t> m_half;   // [process]: its half size
  char* m_mine = nullptr;              // this process's segment
  int m_parity = 0;                    // the half this superstep writes
  std::uint64_t m_used = 0;            // bytes of it used in this superstep
  std::uint64_t m_demand = 0;          // large on-node put bytes of this superstep
  bool m_capped = false;               // the node's shared memory had no room to grow
};

}  // namespace bsplib
