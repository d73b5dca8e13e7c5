// DRMA registrations: which local address stands for which remote area.
//
// The definition matches registrations by the order in which the processes make them, so a
// registration is a slot number that every process assigns identically (a deterministic
// free list replayed in call order). Pushes and pops queue up during a superstep and take
// effect in bsp_sync (commit); the sizes of the new slots on every process are exchanged
// there once, so that a put or get is checked against the remote area at the call itself.
//
// A pop is collective, as in BSPonMPI: the k-th pop of a superstep on every process removes
// one registration, and each process names it by its own local address. A name other than
// NULL picks its newest registration locally (counting this superstep's pushes, skipping
// those already being popped). NULL does not: a process with nothing to share may have
// registered NULL for several areas, so its pop of NULL pairs with whatever the others'
// k-th pops name, and where every process pops NULL, with the newest registration that is
// NULL on every process. Which registration that is is settled in commit, from every
// process's choices (an allgather, only in supersteps where some process popped NULL).
//
// A signature of the push/pop sequence lets bsp_sync detect processes that registered in
// a different order or number, or popped different registrations.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <string>
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
  // Queue a pop (see above); false if addr has no registration left to pop: none at all, or
  // every one (effective or pushed in this superstep) already being popped.
  bool pop(const void* addr);

  // What find returns for NULL when this process registered NULL more than once: which
  // remote area is meant is then ambiguous (BSPonMPI refuses NULL as a name altogether).
  static constexpr int ambiguous = -2;
  // The slot that addr currently stands for (its newest registration), -1 if none, or
  // `ambiguous`.
  int find(const void* addr) {
    if (addr == m_last_addr && m_last_slot >= 0) return m_last_slot;
    return find_uncached(addr);
  }
  // How many effective registrations addr has on this process.
  int registrations_of(const void* addr) const {
    auto it = m_by_addr.find(addr);
    return it == m_by_addr.end() ? 0 : it->second.count;
  }
  // The size process pid registered for slot; 0 where it registered NULL (nothing can be
  // written or read there, whatever size it gave).
  long size_on(int slot, int pid) const { return m_sizes[index(slot, pid)]; }
  bool null_on(int slot, int pid) const { return m_null[index(slot, pid)] != 0; }
  char* address(int slot) const { return m_slots[slot].addr; }

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

  // The header word of this superstep's registration calls: bit 63, some pop named NULL;
  // bits 32-62, the running sequence of pushes and pops (their number and order); bits
  // 0-31, the registrations this superstep's pops named (meaningful only where no process
  // popped NULL; otherwise commit compares the pops one by one).
  std::uint64_t signature() const {
    return (m_null_pops ? std::uint64_t{1} << 63 : 0) |
           (m_calls & 0x7fffffffu) << 32 | (m_targets & 0xffffffffu);
  }
  static bool pops_null(std::uint64_t sig) { return sig >> 63; }
  static bool same_calls(std::uint64_t a, std::uint64_t b) {
    return (a >> 32 & 0x7fffffffu) == (b >> 32 & 0x7fffffffu);
  }
  static bool same_pops(std::uint64_t a, std::uint64_t b) {
    return (a & 0xffffffffu) == (b & 0xffffffffu);
  }

  bool has_pending() const { return !m_ops.empty(); }
  // This superstep's queued pushes and pops (the profile records them: a program's first
  // pop costs more than the registration it undoes; first_use.hpp).
  long pending_pushes() const { return static_cast<long>(m_push_count); }
  long pending_pops() const { return static_cast<long>(m_ops.size() - m_push_count); }
  // The pushes queued in this superstep, in call order, as 32-bit words: the size (an int,
  // so bits 0-30), and null_bit where the address is NULL. Up to header_sizes of them
  // travel in bsp_sync's headers, which every process exchanges anyway (an allgather of
  // its own cost the registration superstep 1-2 us more than an empty one at p = 2).
  static constexpr int header_sizes = 2;
  static constexpr std::uint32_t null_bit = 0x80000000u;
  std::vector<std::uint32_t> pending_push_words() const;

  // A disagreement commit found, the same on every process: who is at fault and what.
  struct Mismatch {
    int process = -1;  // -1: none
    std::string what;
  };
  // Applies the queued pops and pushes in call order (the caller has checked that all
  // processes queued the same sequence). The words of the pushes on process q: with at
  // most header_sizes pushes, word_in_header(q, k) of the k-th; else one allgather. Where
  // `pops_null` (some process's header said so), the pops' names are allgathered too.
  // Collective over comm.
  template <class WordInHeader>
  Mismatch commit(MPI_Comm comm, bool pops_null, WordInHeader word_in_header) {
    const int n = static_cast<int>(m_push_count);
    m_push_words.resize(static_cast<std::size_t>(n) * m_nprocs);
    if (n <= header_sizes) {
      for (int k = 0; k < n; ++k)
        for (int pid = 0; pid < m_nprocs; ++pid)
          m_push_words[static_cast<std::size_t>(k) * m_nprocs + pid] = word_in_header(pid, k);
    } else {
      gather_push_words(comm);
    }
    return apply_ops(comm, pops_null && m_nprocs > 1);
  }

 private:
  // Target of a pop, the same number on every process: an effective slot (>= 0), this
  // superstep's op number i as pending_push - i, or NULL's wildcard.
  static constexpr std::int64_t wildcard = -1;
  static constexpr std::int64_t pending_push = -2;
  struct Slot {
    char* addr = nullptr;
    bool live = false;
    bool popping = false;     // a pop of this superstep names it
    int older = -1, newer = -1;  // the neighbours among its address's registrations
    std::uint64_t born = 0;   // the commit that pushed it
  };
  // One address's registrations: a list through Slot::older/newer, newest last.
  struct Address {
    int newest = -1;
    int count = 0;        // effective registrations
    int next_pop = -1;    // the newest one not being popped (the popped ones are the newest)
    std::vector<int> pending;  // this superstep's pushes not being popped: op numbers
  };
  struct Op {
    bool is_push;
    bool popped;  // pushes: a pop of this superstep takes it back (settled in commit)
    const void* addr;
    long size;
  };
  std::size_t index(int slot, int pid) const {
    return static_cast<std::size_t>(slot) * m_nprocs + pid;
  }
  int find_uncached(const void* addr);
  void gather_push_words(MPI_Comm comm);
  Mismatch apply_ops(MPI_Comm comm, bool exchange_pops);
  // The slot the j-th pop (op number i) removes, from every process's name for it
  // (names[q]), or -1 with `m` filled.
  int settle_pop(std::size_t i, int j, const std::int64_t* names, std::size_t stride,
                 const std::vector<int>& slot_of_op, Mismatch& m);
  int newest_null_everywhere() const;
  void link(int slot, const void* addr);
  void unlink(int slot);
  static void mix(std::uint64_t& h, std::uint64_t v) { h = (h ^ v) * 0x100000001b3ULL + 0x9e37; }

  int m_nprocs;
  std::vector<Slot> m_slots;
  std::vector<long> m_sizes;           // [slot * nprocs + pid]
  std::vector<unsigned char> m_null;   // [slot * nprocs + pid]: it registered NULL
  std::vector<int> m_free;
  std::unordered_map<const void*, Address> m_by_addr;
  std::vector<Op> m_ops;
  std::vector<std::int64_t> m_pop_names;  // this superstep's pops, this process's names
  std::size_t m_push_count = 0;
  int m_null_pushes = 0, m_null_pops = 0;  // this superstep's, of NULL
  std::vector<std::uint32_t> m_push_words;  // [push * nprocs + pid]
  std::vector<std::int64_t> m_all_names;    // [pid * pops + pop]
  std::uint64_t m_commits = 0;
  std::uint64_t m_calls = 0xcbf29ce484222325ULL;    // running over the section
  std::uint64_t m_targets = 0xcbf29ce484222325ULL;  // this superstep's
  const void* m_last_addr = nullptr;
  int m_last_slot = -1;
};

}  // namespace bsplib
