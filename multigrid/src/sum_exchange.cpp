// The shared-node superstep (sum_exchange.hpp).
#include "multigrid/sum_exchange.hpp"

#include <algorithm>
#include <stdexcept>

#include "bsp.h"

namespace mg {

std::size_t SumExchange::bytes_out() const {
  std::size_t n = 0;
  for (const Block& b : sends) n += b.slots.size();
  return 8 * n;
}

std::size_t SumExchange::bytes_in() const {
  std::size_t n = 0;
  for (std::uint32_t s : sources) n += s >= kFromRecv;
  return 8 * n;
}

NodeRanks ranks_from_pairs(const std::vector<std::uint64_t>& pairs, std::size_t nodes) {
  // The ranks grouped by node (a counting sort), then each node's few sorted and made unique
  // (a node has few ranks): no sort of every pair.
  std::vector<std::size_t> start(nodes + 1, 0);
  for (std::uint64_t p : pairs) ++start[(p >> 32) + 1];
  for (std::size_t n = 0; n < nodes; ++n) start[n + 1] += start[n];
  std::vector<std::int32_t> grouped(pairs.size());
  std::vector<std::size_t> fill(start.begin(), start.end() - 1);
  for (std::uint64_t p : pairs) grouped[fill[p >> 32]++] = static_cast<std::int32_t>(p & 0xFFFFFFFFu);
  return node_ranks_from_groups(std::move(grouped), start);
}

SumExchange build_sum_exchange(const NodeRanks& contributors, const NodeRanks& holders, int me, int nprocs,
                               const std::vector<std::uint32_t>& slot_of) {
  const std::size_t nodes = contributors.offsets.size() - 1;
  const std::size_t P = static_cast<std::size_t>(nprocs);
  const auto span = [](const NodeRanks& r, std::size_t n) {
    return std::pair{r.ranks.begin() + r.offsets[n], r.ranks.begin() + r.offsets[n + 1]};
  };
  // count[r * P + h]: values r sends to h. Only the rows and columns of `me` matter for the
  // lists, but the offsets into h's buffer need every lower r's count to h.
  std::vector<std::uint32_t> count(P * P, 0);
  for (std::size_t n = 0; n < nodes; ++n) {
    const auto [cb, ce] = span(contributors, n);
    const auto [hb, he] = span(holders, n);
    for (auto c = cb; c != ce; ++c)
      for (auto h = hb; h != he; ++h)
        if (*c != *h) ++count[static_cast<std::size_t>(*c) * P + static_cast<std::size_t>(*h)];
  }
  const std::size_t m = static_cast<std::size_t>(me);
  SumExchange x;
  std::vector<std::uint32_t> recv_offset(P, 0);  // where r's block starts in my buffer
  std::uint32_t recv_size = 0;
  for (std::size_t r = 0; r < P; ++r) {
    recv_offset[r] = recv_size;
    recv_size += count[r * P + m];
  }
  std::vector<int> block_of(P, -1);
  for (std::size_t h = 0; h < P; ++h) {
    if (h == m || count[m * P + h] == 0) continue;
    std::uint32_t offset = 0;
    for (std::size_t r = 0; r < m; ++r) offset += count[r * P + h];
    block_of[h] = static_cast<int>(x.sends.size());
    x.sends.push_back({static_cast<int>(h), offset, {}});
    x.sends.back().slots.reserve(count[m * P + h]);
  }
  std::vector<std::uint32_t> next_from(recv_offset);
  x.source_offsets.push_back(0);
  for (std::size_t n = 0; n < nodes; ++n) {
    const auto [cb, ce] = span(contributors, n);
    const auto [hb, he] = span(holders, n);
    const bool contributes = std::binary_search(cb, ce, me), holds = std::binary_search(hb, he, me);
    if (contributes)
      for (auto h = hb; h != he; ++h)
        if (*h != me) x.sends[static_cast<std::size_t>(block_of[static_cast<std::size_t>(*h)])].slots.push_back(slot_of[n]);
    if (!holds) continue;
    const bool foreign = (ce - cb) > (contributes ? 1 : 0);
    if (!foreign) continue;
    if (slot_of[n] == kNoSlot) throw std::logic_error("sum exchange: a held node without a slot");
    x.targets.push_back(slot_of[n]);
    for (auto c = cb; c != ce; ++c)
      x.sources.push_back(*c == me ? slot_of[n] : SumExchange::kFromRecv + next_from[static_cast<std::size_t>(*c)]++);
    x.source_offsets.push_back(static_cast<std::uint32_t>(x.sources.size()));
  }
  x.recv.assign(std::max<std::size_t>(recv_size, 1), 0.0);
  std::size_t most = 0;
  for (const auto& b : x.sends) most = std::max(most, b.slots.size());
  x.pack.resize(std::max<std::size_t>(most, 1));
  return x;
}

void register_exchange(SumExchange& x) {
  bsp_push_reg(x.recv.data(), static_cast<int>(x.recv.size() * sizeof(double)));
}

void run_exchange(SumExchange& x, double* values, const char* label) {
  for (const SumExchange::Block& b : x.sends) {
    // bsp_put copies the source at the call, so one staging buffer serves every peer.
    for (std::size_t i = 0; i < b.slots.size(); ++i) x.pack[i] = values[b.slots[i]];
    bsp_put(b.peer, x.pack.data(), x.recv.data(), static_cast<int>(b.offset * sizeof(double)),
            static_cast<int>(b.slots.size() * sizeof(double)));
  }
  bsp_profile_label(label);
  bsp_sync();
  const double* recv = x.recv.data();
  for (std::size_t t = 0; t < x.targets.size(); ++t) {
    double sum = 0;
    for (std::uint32_t k = x.source_offsets[t]; k < x.source_offsets[t + 1]; ++k) {
      const std::uint32_t s = x.sources[k];
      sum += s >= SumExchange::kFromRecv ? recv[s - SumExchange::kFromRecv] : values[s];
    }
    values[x.targets[t]] = sum;
  }
}

}  // namespace mg
