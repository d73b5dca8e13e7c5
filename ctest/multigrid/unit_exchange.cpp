// The shared-node exchange's plan (sum_exchange.hpp), played out in memory for four
// processes without bsplib: every holder must end with the sum over contributors in
// process order (the same bits on every holder), the blocks must land exactly where the
// receiver reads them, and nodes nobody else contributes to must be left alone.
#include <catch2/catch.hpp>

#include <cstring>
#include <map>

#include "multigrid/sum_exchange.hpp"

namespace {

constexpr int P = 4;
constexpr mg::Index N = 40;

// A made-up pattern: node n has contributors and holders chosen by n, some nodes with
// contributors that do not hold them (as restriction has) and holders that do not
// contribute (as prolongation has).
std::vector<std::uint64_t> pairs(bool contributors) {
  std::vector<std::uint64_t> v;
  for (mg::Index n = 0; n < N; ++n)
    for (int r = 0; r < P; ++r) {
      const bool c = ((n * 7 + static_cast<mg::Index>(r) * 3) % 5) < 2 || r == static_cast<int>(n % P);
      const bool h = ((n * 5 + static_cast<mg::Index>(r) * 11) % 7) < 3 || r == static_cast<int>((n + 1) % P);
      if (contributors ? c : h) v.push_back(mg::node_rank_pair(n, r));
    }
  return v;
}

// The slot of node n on process r: a permutation, different per process.
std::uint32_t slot(int r, mg::Index n) { return (n * 13 + static_cast<mg::Index>(r) * 7) % N; }

double value(int r, mg::Index n) { return 1.0 / (1 + n) + 0.1 * r + 1e-3 * (n % 3); }

}  // namespace

TEST_CASE("the exchange plan delivers every contributor's value to every holder, summed in process order") {
  const mg::NodeRanks C = mg::ranks_from_pairs(pairs(true), N), H = mg::ranks_from_pairs(pairs(false), N);
  std::vector<mg::SumExchange> x;
  std::vector<std::vector<double>> values(P);
  for (int r = 0; r < P; ++r) {
    std::vector<std::uint32_t> slot_of(N);
    for (mg::Index n = 0; n < N; ++n) slot_of[n] = slot(r, n);
    x.push_back(mg::build_sum_exchange(C, H, r, P, slot_of));
    values[static_cast<std::size_t>(r)].assign(N, 0.0);
    for (mg::Index n = 0; n < N; ++n)
      values[static_cast<std::size_t>(r)][slot(r, n)] = C.holds(n, r) ? value(r, n) : -99.0;  // -99: must not be read
  }
  // The puts: each block into the peer's buffer, checking it stays inside and no two blocks
  // write the same place.
  std::vector<std::vector<int>> written(P);
  for (int r = 0; r < P; ++r) written[static_cast<std::size_t>(r)].assign(x[static_cast<std::size_t>(r)].recv.size(), 0);
  for (int r = 0; r < P; ++r)
    for (const auto& b : x[static_cast<std::size_t>(r)].sends) {
      auto& peer = x[static_cast<std::size_t>(b.peer)];
      REQUIRE(b.offset + b.slots.size() <= peer.recv.size());
      for (std::size_t i = 0; i < b.slots.size(); ++i) {
        peer.recv[b.offset + i] = values[static_cast<std::size_t>(r)][b.slots[i]];
        ++written[static_cast<std::size_t>(b.peer)][b.offset + i];
      }
    }
  for (int r = 0; r < P; ++r) {
    std::size_t used = 0;
    for (std::uint32_t s : x[static_cast<std::size_t>(r)].sources) used += s >= mg::SumExchange::kFromRecv;
    for (std::size_t i = 0; i < used; ++i) CHECK(written[static_cast<std::size_t>(r)][i] == 1);
    CHECK(x[static_cast<std::size_t>(r)].bytes_in() == 8 * used);
  }
  // Combine, as run_exchange does after the sync.
  for (int r = 0; r < P; ++r) {
    auto& e = x[static_cast<std::size_t>(r)];
    auto& v = values[static_cast<std::size_t>(r)];
    for (std::size_t t = 0; t < e.targets.size(); ++t) {
      double sum = 0;
      for (std::uint32_t k = e.source_offsets[t]; k < e.source_offsets[t + 1]; ++k) {
        const std::uint32_t s = e.sources[k];
        sum += s >= mg::SumExchange::kFromRecv ? e.recv[s - mg::SumExchange::kFromRecv] : v[s];
      }
      v[e.targets[t]] = sum;
    }
  }
  int foreign_checked = 0;
  for (mg::Index n = 0; n < N; ++n) {
    double want = 0;
    int others = 0;
    for (std::uint32_t k = C.offsets[n]; k < C.offsets[n + 1]; ++k) want += value(C.ranks[k], n);
    for (std::uint32_t k = H.offsets[n]; k < H.offsets[n + 1]; ++k) {
      const int h = H.ranks[k];
      const bool alone = C.count(n) == 1 && C.holds(n, h);
      const double got = values[static_cast<std::size_t>(h)][slot(h, n)];
      if (alone) {
        CHECK(got == value(h, n));  // nobody else: untouched
      } else {
        CHECK(got == want);  // bit for bit: the same order as `want`
        ++others;
      }
    }
    foreign_checked += others;
  }
  CHECK(foreign_checked > 50);
}

TEST_CASE("ranks_from_pairs sorts and removes duplicates") {
  const mg::NodeRanks r = mg::ranks_from_pairs({mg::node_rank_pair(2, 1), mg::node_rank_pair(0, 3), mg::node_rank_pair(2, 0),
                                                mg::node_rank_pair(2, 1), mg::node_rank_pair(0, 0)},
                                               4);
  CHECK(r.offsets == std::vector<std::uint32_t>{0, 2, 2, 4, 4});
  CHECK(r.ranks == std::vector<std::int32_t>{0, 3, 0, 1});
}
