// bsp_sync's header exchange through shared memory, when every process of the run is on one
// node (and there are few enough of them that a p x p table of slots is cheap). An empty
// superstep is then two cache-line transfers per peer (my header to it, its epoch seen by
// me) instead of an MPI message each way through the transport's FIFO: at p = 2 on the
// development machine 0.73 us a superstep by MPI (bsplib/BENCHMARKS.md).
//
// Each process owns a segment of slots [source][parity] that its peers write into. A slot is
// an epoch word, then the header and inline stream laid out exactly as the MPI route's
// header message (so every check reads the same words): the epoch and the 7 header words are
// one cache line. For its e-th exchange a process writes into slot [itself][e % 2] of every
// peer, then stores e + 1 into that slot's epoch (release); a reader waits until its slot
// from each peer shows e + 1 (acquire) and reads the header and stream in place.
//
// Why a slot is not overwritten while it is read: process q writes slot [q][e % 2] of r again
// only in exchange e + 2, after it has seen r's epoch e + 2 in exchange e + 1; r stores that
// only once it has left the sync of exchange e, where it reads everything it reads of that
// slot. So two slots per source (by parity) and the epochs are the only synchronisation.
//
// Waiting spins briefly, then yields the core (the tests run 4 processes on 2 cores: a peer
// that is not running cannot publish), poking MPI's progress engine now and then so that a
// peer's MPI operation that needs this process to progress completes.
#pragma once
#include <mpi.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace bsplib {

class SharedHeaders {
 public:
  // Collective over comm. On when 2 <= p <= max_procs, every process of comm shares one node,
  // and no process has BSP_SHARED_SYNC=0 in its environment (that forces the MPI route).
  // payload_words: the header and the largest inline stream, in 8-byte words.
  SharedHeaders(MPI_Comm comm, std::size_t payload_words);
  ~SharedHeaders();  // collective over comm (bsp_end)
  SharedHeaders(const SharedHeaders&) = delete;
  SharedHeaders& operator=(const SharedHeaders&) = delete;

  static constexpr int max_procs = 16;
  bool on() const { return m_win != MPI_WIN_NULL; }

  // This exchange's slot of mine at process q: the header, then room for the stream.
  std::uint64_t* outgoing(int q) const {
    return slot(m_base[static_cast<std::size_t>(q)], m_pid) + 1;
  }
  // The header and stream written to outgoing(q) are q's to read.
  void publish(int q) const {
    std::atomic_ref<std::uint64_t>(*slot(m_base[static_cast<std::size_t>(q)], m_pid))
        .store(m_epoch + 1, std::memory_order_release);
  }
  // Waits until process q has published this exchange to me; its header (and stream after
  // it), in place, valid until I publish my next exchange.
  const std::uint64_t* incoming(int q) const {
    std::uint64_t* s = slot(m_base[static_cast<std::size_t>(m_pid)], q);
    if (std::atomic_ref<std::uint64_t>(*s).load(std::memory_order_acquire) != m_epoch + 1)
      wait_for(s);
    return s + 1;
  }
  // After the exchange: the next one uses the other slots.
  void next() { ++m_epoch; }

 private:
  // The slot [source][this exchange's parity] in the segment at base.
  std::uint64_t* slot(char* base, int source) const {
    return reinterpret_cast<std::uint64_t*>(
        base + (static_cast<std::size_t>(source) * 2 + (m_epoch & 1)) * m_slot_bytes);
  }
  void wait_for(std::uint64_t* epoch_word) const;

  MPI_Comm m_comm = MPI_COMM_NULL;  // a node communicator whose ranks are the processes
  MPI_Win m_win = MPI_WIN_NULL;
  int m_pid = 0;
  std::size_t m_slot_bytes = 0;  // whole cache lines
  std::vector<char*> m_base;     // [process]: its segment as mapped here
  std::uint64_t m_epoch = 0;     // exchanges done
};

}  // namespace bsplib
