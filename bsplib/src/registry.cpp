#include "registry.hpp"

#include <cstdio>

namespace bsplib {

namespace {
const char* ordinal_suffix(int n) {
  if (n % 100 >= 11 && n % 100 <= 13) return "th";
  return n % 10 == 1 ? "st" : n % 10 == 2 ? "nd" : n % 10 == 3 ? "rd" : "th";
}
}  // namespace

void Registry::push(const void* addr, long size) {
  m_by_addr[addr].pending.push_back(static_cast<int>(m_ops.size()));
  m_ops.push_back(Op{true, false, addr, size});
  ++m_push_count;
  if (!addr) ++m_null_pushes;
  mix(m_calls, 1);
}

bool Registry::pop(const void* addr) {
  std::int64_t name;
  if (!addr) {
    // NULL names no registration by itself: commit pairs it with the others' k-th pop.
    const int effective = registrations_of(nullptr);
    if (effective + m_null_pushes - m_null_pops <= 0) return false;
    ++m_null_pops;
    name = wildcard;
  } else {
    auto it = m_by_addr.find(addr);
    if (it == m_by_addr.end()) return false;
    Address& a = it->second;
    if (!a.pending.empty()) {  // the newest registration is a push of this superstep
      name = pending_push - a.pending.back();
      a.pending.pop_back();
    } else if (a.next_pop >= 0) {
      name = a.next_pop;
      m_slots[a.next_pop].popping = true;
      a.next_pop = m_slots[a.next_pop].older;
    } else {
      return false;
    }
    mix(m_targets, static_cast<std::uint64_t>(name) ^ (m_pop_names.size() << 40));
  }
  m_ops.push_back(Op{false, false, addr, 0});
  m_pop_names.push_back(name);
  mix(m_calls, 2);
  return true;
}

int Registry::find_uncached(const void* addr) {
  auto it = m_by_addr.find(addr);
  if (it == m_by_addr.end() || it->second.count == 0) return -1;
  if (!addr && it->second.count > 1) return ambiguous;
  m_last_addr = addr;
  m_last_slot = it->second.newest;
  return m_last_slot;
}

std::vector<std::uint32_t> Registry::pending_push_words() const {
  std::vector<std::uint32_t> words;
  for (const Op& op : m_ops)
    if (op.is_push)
      words.push_back(static_cast<std::uint32_t>(op.size) | (op.addr ? 0 : null_bit));
  return words;
}

void Registry::gather_push_words(MPI_Comm comm) {
  // Every process pushed the same number (checked by the caller): one allgather.
  const int n = static_cast<int>(m_push_count);
  const std::vector<std::uint32_t> mine = pending_push_words();
  std::vector<std::uint32_t> all(static_cast<std::size_t>(n) * m_nprocs);
  MPI_Allgather(mine.data(), n, MPI_UINT32_T, all.data(), n, MPI_UINT32_T, comm);
  for (int pid = 0; pid < m_nprocs; ++pid)
    for (int k = 0; k < n; ++k)
      m_push_words[static_cast<std::size_t>(k) * m_nprocs + pid] =
          all[static_cast<std::size_t>(pid) * n + k];
}

void Registry::link(int slot, const void* addr) {
  Address& a = m_by_addr[addr];
  Slot& s = m_slots[slot];
  s.older = a.newest;
  s.newer = -1;
  if (a.newest >= 0) m_slots[a.newest].newer = slot;
  a.newest = slot;
  ++a.count;
}

void Registry::unlink(int slot) {
  Slot& s = m_slots[slot];
  auto it = m_by_addr.find(s.addr);
  Address& a = it->second;
  if (s.older >= 0) m_slots[s.older].newer = s.newer;
  if (s.newer >= 0) m_slots[s.newer].older = s.older;
  else a.newest = s.older;
  --a.count;
  if (a.count == 0 && a.pending.empty()) m_by_addr.erase(it);
}

int Registry::newest_null_everywhere() const {
  auto it = m_by_addr.find(nullptr);
  if (it == m_by_addr.end()) return -1;
  // Every process's NULL list holds the slots NULL everywhere in the same (push) order.
  for (int slot = it->second.newest; slot >= 0; slot = m_slots[slot].older) {
    bool everywhere = true;
    for (int q = 0; q < m_nprocs && everywhere; ++q) everywhere = null_on(slot, q);
    if (everywhere) return slot;
  }
  return -1;
}

int Registry::settle_pop(std::size_t i, int j, const std::int64_t* names, std::size_t stride,
                         const std::vector<int>& slot_of_op, Mismatch& m) {
  char what[320];
  const int nth = j + 1;
  int by = -1;  // the first process that named a registration
  std::int64_t name = wildcard;
  for (int q = 0; q < m_nprocs; ++q) {
    const std::int64_t n = names[static_cast<std::size_t>(q) * stride];
    if (n == wildcard) continue;
    if (by < 0) {
      by = q;
      name = n;
    } else if (n != name) {
      std::snprintf(what, sizeof what,
                    "its %d%s bsp_pop_reg of this superstep pops another registration than "
                    "process %d's %d%s (the k-th pop on every process removes one "
                    "registration, which each names by its own address)",
                    nth, ordinal_suffix(nth), by, nth, ordinal_suffix(nth));
      m = Mismatch{q, what};
      return -1;
    }
  }
  int slot = -1;
  if (by < 0) {
    slot = newest_null_everywhere();
    if (slot < 0) {
      std::snprintf(what, sizeof what,
                    "every process's %d%s bsp_pop_reg of this superstep names NULL, but no "
                    "registration is NULL on every process",
                    nth, ordinal_suffix(nth));
      m = Mismatch{0, what};
      return -1;
    }
  } else if (name >= 0) {
    // An effective registration, still there (no earlier pop of this commit took it).
    if (name < static_cast<std::int64_t>(m_slots.size()) && m_slots[name].live &&
        m_slots[name].born != m_commits + 1)
      slot = static_cast<int>(name);
  } else {
    const std::int64_t op = pending_push - name;
    if (op >= 0 && static_cast<std::size_t>(op) < i && m_ops[op].is_push && !m_ops[op].popped) {
      m_ops[op].popped = true;
      slot = slot_of_op[op];
    }
  }
  if (slot < 0) {
    std::snprintf(what, sizeof what,
                  "its %d%s bsp_pop_reg of this superstep names a registration another pop "
                  "of this superstep already removed",
                  nth, ordinal_suffix(nth));
    m = Mismatch{by, what};
    return -1;
  }
  for (int q = 0; q < m_nprocs; ++q)
    if (names[static_cast<std::size_t>(q) * stride] == wildcard && !null_on(slot, q)) {
      std::snprintf(what, sizeof what,
                    "its %d%s bsp_pop_reg of this superstep names NULL, but the registration "
                    "that process %d's %d%s pop removes is not NULL on process %d",
                    nth, ordinal_suffix(nth), by, nth, ordinal_suffix(nth), q);
      m = Mismatch{q, what};
      return -1;
    }
  return slot;
}

Registry::Mismatch Registry::apply_ops(MPI_Comm comm, bool exchange_pops) {
  Mismatch m;
  const int pops = static_cast<int>(m_pop_names.size());
  // Every process's names of its pops: its own only, unless some process popped NULL.
  const std::int64_t* names = m_pop_names.data();
  std::size_t stride = 0;  // names[q * stride + j]: process q's name for its j-th pop
  if (exchange_pops) {
    std::vector<int> counts(static_cast<std::size_t>(m_nprocs));
    MPI_Allgather(&pops, 1, MPI_INT, counts.data(), 1, MPI_INT, comm);
    for (int q = 1; q < m_nprocs; ++q)
      if (counts[q] != counts[0]) {
        char what[200];
        std::snprintf(what, sizeof what,
                      "it called bsp_pop_reg %d times in this superstep, process 0 %d times "
                      "(pops are matched by order across processes)",
                      counts[q], counts[0]);
        return Mismatch{q, what};
      }
    m_all_names.resize(static_cast<std::size_t>(pops) * m_nprocs);
    MPI_Allgather(m_pop_names.data(), pops, MPI_INT64_T, m_all_names.data(), pops, MPI_INT64_T,
                  comm);
    names = m_all_names.data();
    stride = static_cast<std::size_t>(pops);
  }
  const std::uint64_t commit = m_commits + 1;
  std::vector<int> slot_of_op(m_ops.size(), -1);  // pushes: the slot each one got
  std::size_t k = 0;  // pushes so far
  int j = 0;          // pops so far
  for (std::size_t i = 0; i < m_ops.size() && m.process < 0; ++i) {
    const Op& op = m_ops[i];
    if (!op.is_push) {
      const int slot = settle_pop(i, j, names + j, stride, slot_of_op, m);
      ++j;
      if (slot < 0) break;
      unlink(slot);
      m_slots[slot] = Slot{};
      m_free.push_back(slot);
    } else {
      int slot;
      if (!m_free.empty()) {
        slot = m_free.back();
        m_free.pop_back();
      } else {
        slot = static_cast<int>(m_slots.size());
        m_slots.emplace_back();
        m_sizes.resize(m_slots.size() * m_nprocs, 0);
        m_null.resize(m_slots.size() * m_nprocs, 0);
      }
      Slot& s = m_slots[slot];
      s.addr = const_cast<char*>(static_cast<const char*>(op.addr));
      s.live = true;
      s.popping = false;
      s.born = commit;
      link(slot, op.addr);
      for (int q = 0; q < m_nprocs; ++q) {
        const std::uint32_t w = m_push_words[k * m_nprocs + q];
        m_null[index(slot, q)] = (w & null_bit) != 0;
        m_sizes[index(slot, q)] = (w & null_bit) ? 0 : static_cast<long>(w);
      }
      slot_of_op[i] = slot;
      ++k;
    }
  }
  // The calls have all been replayed: every address they touched starts the next superstep
  // with no pushes pending and nothing being popped.
  for (const Op& op : m_ops) {
    auto it = m_by_addr.find(op.addr);
    if (it == m_by_addr.end()) continue;
    it->second.pending.clear();
    it->second.next_pop = it->second.newest;
    if (it->second.count == 0) m_by_addr.erase(it);
  }
  m_ops.clear();
  m_pop_names.clear();
  m_push_count = 0;
  m_null_pushes = m_null_pops = 0;
  m_targets = 0xcbf29ce484222325ULL;
  m_commits = commit;
  m_last_addr = nullptr;
  m_last_slot = -1;
  return m;
}

}  // namespace bsplib
