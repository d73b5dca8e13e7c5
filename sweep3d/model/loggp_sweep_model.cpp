#include "sweep3d/model/loggp_sweep_model.hpp"

#include <algorithm>
#include <vector>

namespace sweep3d::model {

PathTerms& PathTerms::operator+=(const PathTerms& o) noexcept {
  computation += o.computation;
  communication += o.communication;
  synchronization += o.synchronization;
  return *this;
}

PathTerms PathTerms::scaled(double f) const noexcept { return {computation * f, communication * f, synchronization * f}; }

namespace {

PathTerms compute(double s) { return {s, 0.0, 0.0}; }
PathTerms comm(double s) { return {0.0, s, 0.0}; }
PathTerms sync(double s) { return {0.0, 0.0, s}; }
PathTerms operator+(PathTerms a, const PathTerms& b) { return a += b; }

}  // namespace

// Eq. 6-8 with 1-based processor indices (i across, j down) as in the paper.
LogGpSweeps predict_loggp(const KbaShape& s, double w_g, const MachineCosts& warm, SendMode mode,
                          const FaceWork& faces) {
  const MachineCosts mc = after_kernel_blocks(warm, s.block_bytes(0, 0));  // every face message follows a block
  const int n = s.npe_i, m = s.npe_j;
  const double blocks = static_cast<double>(s.kb()) * s.mmo();
  auto W = [&](int i, int j) {
    return compute(faces.volume_w(w_g) * s.block_cell_angles(i - 1, j - 1) + faces.block_seconds(s, i - 1, j - 1));
  };
  // Message costs depend only on the row (east-going I-faces) or the column (south-going
  // J-faces): evaluate them once each, so a 300x300 grid costs 600 calls, not 90 000.
  std::vector<MessageCosts> east(static_cast<std::size_t>(m) + 1), south(static_cast<std::size_t>(n) + 1);
  for (int j = 1; j <= m; ++j) east[static_cast<std::size_t>(j)] = mc.message(s.i_face_bytes(j - 1));
  for (int i = 1; i <= n; ++i) south[static_cast<std::size_t>(i)] = mc.message(s.j_face_bytes(i - 1));
  const bool blocking = mode == SendMode::blocking;
  auto send_of = [&](const MessageCosts& c) { return comm(blocking ? c.send : c.isend); };
  auto E = [&](int j) -> const MessageCosts& { return east[static_cast<std::size_t>(j)]; };
  auto S = [&](int i) -> const MessageCosts& { return south[static_cast<std::size_t>(i)]; };

  // StartP with its terms, carried along the branch eq. 6's max takes.
  std::vector<PathTerms> start(static_cast<std::size_t>(n + 1) * static_cast<std::size_t>(m + 1));
  auto Start = [&](int i, int j) -> PathTerms& {
    return start[static_cast<std::size_t>(j) * static_cast<std::size_t>(n + 1) + static_cast<std::size_t>(i)];
  };
  for (int j = 1; j <= m; ++j)
    for (int i = 1; i <= n; ++i) {
      if (i == 1 && j == 1) continue;  // StartP_1,1 = 0
      PathTerms best;
      bool have = false;
      if (i > 1) {  // the message from the west arrives last
        best = Start(i - 1, j) + W(i - 1, j) + comm(E(j).total_comm) + comm(j > 1 ? S(i).receive : 0.0);
        have = true;
      }
      if (j > 1) {  // the message from the north arrives last
        const PathTerms north =
            Start(i, j - 1) + W(i, j - 1) + (i < n ? send_of(E(j - 1)) : PathTerms{}) + comm(S(i).total_comm);
        if (!have || north.total() > best.total()) best = north;
      }
      Start(i, j) = best;
    }

  // (m-1)L: a blocking sender waiting for its receiver, only with the handshake.
  // Only messages that exist count: a single column (n = 1) sends nothing east, a single row
  // (m = 1) nothing south.
  const bool hs = blocking && ((m > 1 && S(1).handshake) || (n > 1 && E(m).handshake));
  const PathTerms sync_m = sync(hs ? (m - 1) * mc.latency : 0.0);
  const PathTerms sync_n = sync(std::max(n - 2, 0) * mc.latency);
  LogGpSweeps r;
  {
    const PathTerms send_e = n > 1 ? send_of(E(m)) : PathTerms{};
    const PathTerms recv_n = comm(m > 1 ? S(1).receive : 0.0);
    r.t_56 = Start(1, m) + (W(1, m) + send_e + recv_n + sync_m).scaled(2.0 * blocks);
  }
  if (n == 1) {
    r.t_78 = r.t_56;
  } else {
    const int i = n - 1;
    const PathTerms recv_w = comm(i > 1 ? E(m).receive : 0.0);
    const PathTerms recv_n = comm(m > 1 ? S(i).receive : 0.0);
    r.t_78 = Start(i, m) + (W(i, m) + send_of(E(m)) + recv_w + recv_n + sync_m + sync_n).scaled(2.0 * blocks) +
             comm(E(m).receive) + W(n, m);
  }
  r.sweeps = (r.t_56 + r.t_78).scaled(2.0);
  return r;
}

}  // namespace sweep3d::model
