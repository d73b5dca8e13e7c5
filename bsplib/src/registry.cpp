#include "registry.hpp"

namespace bsplib {

void Registry::push(const void* addr, long size) {
  m_ops.push_back(Op{true, addr, size, -1, -1, false});
  mix(1);
}

bool Registry::pop(const void* addr) {
  // The newest registration is a push queued in this superstep, if there is one left.
  for (std::size_t k = m_ops.size(); k-- > 0;) {
    Op& op = m_ops[k];
    if (op.is_push && op.addr == addr && !op.popped) {
      op.popped = true;
      m_ops.push_back(Op{false, addr, 0, -1, static_cast<int>(k), false});
      mix(3 + (static_cast<std::uint64_t>(k) << 8));
      return true;
    }
  }
  auto it = m_by_addr.find(addr);
  if (it == m_by_addr.end()) return false;
  for (auto s = it->second.rbegin(); s != it->second.rend(); ++s) {
    if (!m_slots[*s].popping) {
      m_slots[*s].popping = true;
      m_ops.push_back(Op{false, addr, 0, *s, -1, false});
      mix(2 + (static_cast<std::uint64_t>(*s) << 8));
      return true;
    }
  }
  return false;
}

std::vector<long> Registry::pending_push_sizes() const {
  std::vector<long> sizes;
  for (const Op& op : m_ops)
    if (op.is_push) sizes.push_back(op.size);
  return sizes;
}

std::vector<int> Registry::apply_ops() {
  m_new_sizes.clear();
  if (m_ops.empty()) return {};
  std::vector<int> new_slots;
  std::vector<int> slot_of_op(m_ops.size(), -1);  // pushes: the slot each one got
  for (std::size_t k = 0; k < m_ops.size(); ++k) {
    const Op& op = m_ops[k];
    if (!op.is_push) {
      const int slot = op.push_op >= 0 ? slot_of_op[op.push_op] : op.slot;
      auto& stack = m_by_addr[op.addr];
      for (auto s = stack.begin(); s != stack.end(); ++s)
        if (*s == slot) {
          stack.erase(s);
          break;
        }
      if (stack.empty()) m_by_addr.erase(op.addr);
      m_slots[slot] = Slot{};
      m_free.push_back(slot);
      continue;
    }
    int slot;
    if (!m_free.empty()) {
      slot = m_free.back();
      m_free.pop_back();
    } else {
      slot = static_cast<int>(m_slots.size());
      m_slots.emplace_back();
      m_sizes.resize(m_slots.size() * m_nprocs, 0);
    }
    m_slots[slot] = Slot{const_cast<char*>(static_cast<const char*>(op.addr)), true, false};
    m_by_addr[op.addr].push_back(slot);
    slot_of_op[k] = slot;
    new_slots.push_back(slot);
    m_new_sizes.push_back(op.size);
  }
  m_ops.clear();
  m_last_addr = nullptr;
  m_last_slot = -1;
  return new_slots;
}

void Registry::exchange_sizes(MPI_Comm comm, const std::vector<int>& new_slots) {
  // Every process pushed the same number (checked by the caller): one allgather of sizes.
  const int n = static_cast<int>(new_slots.size());
  m_all_new_sizes.resize(static_cast<std::size_t>(n) * m_nprocs);
  MPI_Allgather(m_new_sizes.data(), n, MPI_LONG, m_all_new_sizes.data(), n, MPI_LONG, comm);
  for (int pid = 0; pid < m_nprocs; ++pid)
    for (int k = 0; k < n; ++k)
      m_sizes[static_cast<std::size_t>(new_slots[k]) * m_nprocs + pid] =
          m_all_new_sizes[static_cast<std::size_t>(pid) * n + k];
}

}  // namespace bsplib
