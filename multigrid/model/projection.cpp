// The cycle at any P (projection.hpp).
#include "multigrid/model/projection.hpp"

#include <algorithm>
#include <functional>
#include <map>

#include "multigrid/local_level.hpp"

namespace mg {

namespace {

void add_cycle(std::vector<CycleStep>& out, int level, const CycleOptions& o) {
  if (level == 0) {
    out.insert(out.end(), static_cast<std::size_t>(o.coarse_iterations), {0, CycleStep::apply});
    return;
  }
  out.insert(out.end(), static_cast<std::size_t>(o.pre) + 1, {level, CycleStep::apply});  // and the residual
  out.push_back({level - 1, CycleStep::restrict});
  for (int k = 0; k < o.gamma; ++k) add_cycle(out, level - 1, o);
  out.push_back({level - 1, CycleStep::prolong});
  out.insert(out.end(), static_cast<std::size_t>(o.post), {level, CycleStep::apply});
}

// Per sender, its messages: for every node, each contributor sends one value to each holder
// but itself (sum_exchange.hpp).
std::vector<std::vector<Traffic::Message>> messages(const NodeRanks& contributors, const NodeRanks& holders, int nprocs) {
  std::map<std::pair<std::int32_t, std::int32_t>, std::int64_t> values;
  const std::size_t nodes = contributors.offsets.size() - 1;
  for (std::size_t n = 0; n < nodes; ++n)
    for (std::uint32_t i = contributors.offsets[n]; i < contributors.offsets[n + 1]; ++i)
      for (std::uint32_t j = holders.offsets[n]; j < holders.offsets[n + 1]; ++j)
        if (contributors.ranks[i] != holders.ranks[j]) ++values[{contributors.ranks[i], holders.ranks[j]}];
  std::vector<std::vector<Traffic::Message>> out(static_cast<std::size_t>(nprocs));
  for (const auto& [pair, count] : values) out[static_cast<std::size_t>(pair.first)].push_back({pair.second, 8 * count});
  return out;
}

double most_bytes_in_or_out(const std::vector<std::vector<Traffic::Message>>& sends) {
  std::vector<std::int64_t> in(sends.size(), 0), out(sends.size(), 0);
  for (std::size_t r = 0; r < sends.size(); ++r)
    for (const Traffic::Message& m : sends[r]) {
      out[r] += m.bytes;
      in[static_cast<std::size_t>(m.peer)] += m.bytes;
    }
  std::int64_t most = 0;
  for (std::size_t r = 0; r < sends.size(); ++r) most = std::max({most, in[r], out[r]});
  return static_cast<double>(most);
}

using instrument::replay::Op;
using instrument::replay::OpKind;

// Operations of a superstep on one process: compute, the irecvs, the isends, a wait for each,
// the barrier.
class CycleProgram final : public instrument::replay::Program {
 public:
  CycleProgram(const Traffic& t, const std::vector<CycleStep>& steps, std::function<double(double)> c1)
      : t_(t), steps_(steps), c1_(std::move(c1)), nprocs_(static_cast<int>(t.cells.front().size())) {
    // Receives of each process per exchange, from the senders' lists.
    recvs_.resize(3);
    for (int kind = 0; kind < 3; ++kind) {
      const auto& by_level = exchange(kind);
      recvs_[static_cast<std::size_t>(kind)].resize(by_level.size());
      for (std::size_t l = 0; l < by_level.size(); ++l) {
        auto& r = recvs_[static_cast<std::size_t>(kind)][l];
        r.resize(static_cast<std::size_t>(nprocs_));
        for (std::size_t s = 0; s < by_level[l].size(); ++s)
          for (const Traffic::Message& m : by_level[l][s])
            r[static_cast<std::size_t>(m.peer)].push_back({static_cast<std::int32_t>(s), m.bytes});
      }
    }
    start_.resize(static_cast<std::size_t>(nprocs_));
    for (int r = 0; r < nprocs_; ++r) {
      auto& st = start_[static_cast<std::size_t>(r)];
      st.push_back(0);
      for (const CycleStep& s : steps_) st.push_back(st.back() + ops_of(r, s));
    }
  }
  int ranks() const override { return nprocs_; }
  std::int64_t size(int rank) const override { return start_[static_cast<std::size_t>(rank)].back(); }
  Op op(int rank, std::int64_t index) const override {
    const auto& st = start_[static_cast<std::size_t>(rank)];
    const std::size_t s = static_cast<std::size_t>(std::upper_bound(st.begin(), st.end(), index) - st.begin()) - 1;
    const CycleStep& step = steps_[s];
    std::int64_t k = index - st[s];
    if (k == 0) {
      const double cells = static_cast<double>(t_.cells[static_cast<std::size_t>(step.level)][static_cast<std::size_t>(rank)]);
      return instrument::replay::compute_op(step.kind == CycleStep::apply ? c1_(std::max(cells, 1.0)) * cells : 0.0);
    }
    --k;
    const auto& recv = recvs_[static_cast<std::size_t>(step.kind)][static_cast<std::size_t>(step.level)][static_cast<std::size_t>(rank)];
    const auto& send = exchange(step.kind)[static_cast<std::size_t>(step.level)][static_cast<std::size_t>(rank)];
    const std::int64_t nr = static_cast<std::int64_t>(recv.size()), ns = static_cast<std::int64_t>(send.size());
    if (k < nr) {
      const auto& m = recv[static_cast<std::size_t>(k)];
      return instrument::replay::message_op(OpKind::irecv, m.peer, 0, m.bytes, static_cast<std::int32_t>(k));
    }
    k -= nr;
    if (k < ns) {
      const auto& m = send[static_cast<std::size_t>(k)];
      return instrument::replay::message_op(OpKind::isend, m.peer, 0, m.bytes, static_cast<std::int32_t>(nr + k));
    }
    k -= ns;
    if (k < nr + ns) return instrument::replay::wait_op(static_cast<std::int32_t>(k));
    return instrument::replay::collective_op(instrument::replay::Collective::barrier);
  }

 private:
  const std::vector<std::vector<std::vector<Traffic::Message>>>& exchange(int kind) const {
    return kind == CycleStep::apply ? t_.assemble : kind == CycleStep::restrict ? t_.restrict_sum : t_.prolong_fetch;
  }
  std::int64_t ops_of(int rank, const CycleStep& s) const {
    const std::size_t l = static_cast<std::size_t>(s.level), r = static_cast<std::size_t>(rank);
    const std::int64_t n = static_cast<std::int64_t>(exchange(s.kind)[l][r].size() +
                                                     recvs_[static_cast<std::size_t>(s.kind)][l][r].size());
    return 1 + 2 * n + 1;
  }

  const Traffic& t_;
  std::vector<CycleStep> steps_;
  std::function<double(double)> c1_;  // seconds per cell at the cells a process holds
  int nprocs_;
  // [kind][level][rank]: (sender, bytes)
  std::vector<std::vector<std::vector<std::vector<Traffic::Message>>>> recvs_;
  std::vector<std::vector<std::int64_t>> start_;  // [rank][step]: its first operation
};

}  // namespace

std::vector<CycleStep> cycle_steps(int levels, const CycleOptions& options) {
  std::vector<CycleStep> steps;
  add_cycle(steps, levels - 1, options);
  return steps;
}

Traffic count_traffic(const std::vector<Grid>& grids, const std::vector<std::vector<std::int32_t>>& parts, int nprocs) {
  Traffic t;
  std::vector<NodeRanks> ranks;
  for (std::size_t l = 0; l < grids.size(); ++l) {
    ranks.push_back(node_ranks(grids[l], parts[l]));
    std::vector<std::int64_t> cells(static_cast<std::size_t>(nprocs), 0);
    for (std::int32_t p : parts[l]) ++cells[static_cast<std::size_t>(p)];
    t.cells.push_back(std::move(cells));
    t.assemble.push_back(messages(ranks[l], ranks[l], nprocs));
    t.h_bytes.push_back(most_bytes_in_or_out(t.assemble.back()));
  }
  t.restrict_sum.resize(grids.size());
  t.prolong_fetch.resize(grids.size());
  for (std::size_t l = 0; l < grids.size(); ++l) {
    if (l + 1 < grids.size()) {
      const TransferSets sets = transfer_sets(grids[l + 1], ranks[l + 1], ranks[l]);
      t.restrict_sum[l] = messages(sets.fed_by, ranks[l], nprocs);
      t.prolong_fetch[l] = messages(sets.owner_only, sets.needed_by, nprocs);
    } else {
      t.restrict_sum[l].resize(static_cast<std::size_t>(nprocs));
      t.prolong_fetch[l].resize(static_cast<std::size_t>(nprocs));
    }
  }
  return t;
}

std::unique_ptr<instrument::replay::Program> cycle_program(const Traffic& traffic, const std::vector<CycleStep>& steps,
                                                           std::function<double(double)> c1) {
  return std::make_unique<CycleProgram>(traffic, steps, std::move(c1));
}

}  // namespace mg
