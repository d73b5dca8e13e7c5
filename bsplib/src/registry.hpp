// DRMA registrations: which local address stands for which remote area.
//
// The definition matches registrations by the order in which the processes make them, so a
// registration is a slot number that every process assigns identically (a deterministic
// free list replayed in call order). Pushes and pops queue up during a superstep and take
// effect in bsp_sync (commit); the sizes of the new slots on every process are exchanged
// there once, so that a put or get is checked against the remote area at the call itself.
// A running signature of the push/pop sequence lets bsp_sync detect processes that
// registered in a different order or number.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <unordered_map>
#include <vector>

namespace bsplib {

class Registry {
 public:
  explicit Registry(int nprocs) : m_nprocs(nprocs) {}
  Registry(const Registry&) = delete;
  Registry& operator=(const Registry&) = delete;

  // Queue a push of [addr, addr+size); takes effect at the next commit.
  void push(const void* addr, long size);
  // Queue a pop of the newest registration of addr not already being popped, counting the
  // pushes queued earlier in this superstep (the definition applies pushes and pops at the
  // sync in call order, so a push and its pop may share a superstep); returns false if there
  // is none.
  bool pop(const void* addr);

  // The slot that addr currently stands for (newest registration), or -1.
  int find(const void* addr) {
    if (addr == m_last_addr && m_last_slot >= 0) return m_last_slot;
    auto it = m_by_addr.find(addr);
    if (it == m_by_addr.end() || it->second.empty()) return -1;
    m_last_addr = addr;
    m_last_slot = it->second.back();
    return m_last_slot;
  }
  long size_on(int slot, int pid) const {
    return m_sizes[static_cast<std::size_t>(slot) * m_nprocs + pid];
  }
  char* address(int slot) const { return m_slots[slot].addr; }
  bool live(int slot) const {
    return slot >= 0 && slot < static_cast<int>(m_slots.size()) && m_slots[slot].live;
  }

  // Whether [p, p+n) overlaps an area that `pid` (this process) has registered.
  bool overlaps_own(const char* p, std::size_t n, int pid) const {
    const std::uintptr_t b = reinterpret_cast<std::uintptr_t>(p), e = b + n;
    for (std::size_t slot = 0; slot < m_slots.size(); ++slot) {
      const Slot& s = m_slots[slot];
      if (!s.live) continue;
      const std::uintptr_t sb = reinterpret_cast<std::uintptr_t>(s.addr);
      const std::uintptr_t se = sb + static_cast<std::uintptr_t>(size_on(static_cast<int>(slot), pid));
      if (b < se && sb < e) return true;
    }
    return false;
  }

  std::uint64_t signature() const { return m_signature; }
  bool has_pending() const { return !m_ops.empty(); }
  // The sizes of the pushes queued in this superstep, in call order: up to header_sizes of
  // them travel in bsp_sync's headers (32 bits each: a registration's size is an int),
  // which every process exchanges anyway (an allgather of its own cost the registration
  // superstep 1-2 us more than an empty one at p = 2).
  static constexpr int header_sizes = 2;
  std::vector<long> pending_push_sizes() const;
  // Applies the queued pops and pushes in call order (the caller has already checked that
  // all processes queued the same sequence). The sizes of new slots on process q: with at
  // most header_sizes pushes, size_in_header(q, k) of the k-th; else one allgather
  // (collective over comm).
  template <class SizeInHeader>
  void commit(MPI_Comm comm, SizeInHeader size_in_header) {
    const std::vector<int> new_slots = apply_ops();
    const int n = static_cast<int>(new_slots.size());
    if (n == 0) return;
    if (n <= header_sizes) {
      for (int pid = 0; pid < m_nprocs; ++pid)
        for (int k = 0; k < n; ++k)
          m_sizes[static_cast<std::size_t>(new_slots[k]) * m_nprocs + pid] =
              size_in_header(pid, k);
      return;
    }
    exchange_sizes(comm, new_slots);
  }

 private:
  struct Slot {
    char* addr = nullptr;
    bool live = false;
    bool popping = false;
  };
  struct Op {
    bool is_push;
    const void* addr;
    long size;
    int slot;        // pops of an effective registration: its slot; else -1
    int push_op;     // pops of a push queued in this superstep: its index in m_ops; else -1
    bool popped;     // pushes only: a later pop of this superstep takes it back
  };
  // The queued ops applied, returning the slots that pushes took (in call order; their
  // sizes on this process in m_new_sizes).
  std::vector<int> apply_ops();
  void exchange_sizes(MPI_Comm comm, const std::vector<int>& new_slots);
  void mix(std::uint64_t v) { m_signature = (m_signature ^ v) * 0x100000001b3ULL + 0x9e37; }

  int m_nprocs;
  std::vector<Slot> m_slots;
  std::vector<long> m_sizes;  // [slot * nprocs + pid]
  std::vector<int> m_free;
  std::unordered_map<const void*, std::vector<int>> m_by_addr;
  std::vector<Op> m_ops;
  std::vector<long> m_new_sizes, m_all_new_sizes;
  std::uint64_t m_signature = 0xcbf29ce484222325ULL;
  const void* m_last_addr = nullptr;
  int m_last_slot = -1;
};

}  // namespace bsplib
