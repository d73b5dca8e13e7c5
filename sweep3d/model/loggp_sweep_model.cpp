#include "loggp_sweep_model.hpp"

#include <algorithm>
#include <vector>

namespace sweep3d::model {

namespace {

struct Terms {
  double t_56 = 0.0, t_78 = 0.0, sync = 0.0;
};

// Evaluates eq. 6-8 with 1-based processor indices (i across, j down) as in the paper.
Terms evaluate(const KbaShape& s, double w_g, const MachineCosts& mc, bool with_comm) {
  const int n = s.npe_i, m = s.npe_j;
  const double blocks = static_cast<double>(s.kb()) * s.mmo();
  auto W = [&](int i, int j) { return w_g * s.block_cell_angles(i - 1, j - 1); };
  // Message costs depend only on the row (east-going I-faces) or the column (south-going
  // J-faces): evaluate them once each, so a 300x300 grid costs 600 calls, not 90 000.
  std::vector<MessageCosts> east_of_row(static_cast<std::size_t>(m) + 1), south_of_col(static_cast<std::size_t>(n) + 1);
  if (with_comm) {
    for (int j = 1; j <= m; ++j) east_of_row[j] = mc.message(s.i_face_bytes(j - 1));
    for (int i = 1; i <= n; ++i) south_of_col[i] = mc.message(s.j_face_bytes(i - 1));
  }
  auto east = [&](int j) -> const MessageCosts& { return east_of_row[j]; };
  auto south = [&](int i) -> const MessageCosts& { return south_of_col[i]; };
  const double L = with_comm ? mc.latency : 0.0;

  std::vector<double> start(static_cast<std::size_t>(n + 1) * (m + 1), 0.0);
  auto S = [&](int i, int j) -> double& { return start[static_cast<std::size_t>(j) * (n + 1) + i]; };
  for (int j = 1; j <= m; ++j)
    for (int i = 1; i <= n; ++i) {
      if (i == 1 && j == 1) continue;  // StartP_1,1 = 0
      double t = 0.0;
      if (i > 1) {  // the message from the west arrives last
        const double recv_north = j > 1 ? south(i).receive : 0.0;
        t = std::max(t, S(i - 1, j) + W(i - 1, j) + east(j).total_comm + recv_north);
      }
      if (j > 1) {  // the message from the north arrives last
        const double send_east = i < n ? east(j - 1).send : 0.0;
        t = std::max(t, S(i, j - 1) + W(i, j - 1) + send_east + south(i).total_comm);
      }
      S(i, j) = t;
    }

  const bool hs = south(1).handshake || east(m).handshake;
  const double sync_m = hs ? (m - 1) * L : 0.0;
  const double sync_n = std::max(n - 2, 0) * L;
  Terms r;
  {
    const double send_e = n > 1 ? east(m).send : 0.0;
    const double recv_n = m > 1 ? south(1).receive : 0.0;
    r.t_56 = S(1, m) + 2.0 * (W(1, m) + send_e + recv_n + sync_m) * blocks;
  }
  if (n == 1) {
    r.t_78 = r.t_56;
    r.sync = 2.0 * (2.0 * sync_m * blocks + 2.0 * sync_m * blocks);
  } else {
    const int i = n - 1;
    const double send_e = east(m).send;
    const double recv_w = i > 1 ? east(m).receive : 0.0;
    const double recv_n = m > 1 ? south(i).receive : 0.0;
    r.t_78 = S(i, m) + 2.0 * (W(i, m) + send_e + recv_w + recv_n + sync_m + sync_n) * blocks +
             east(m).receive + W(n, m);
    r.sync = 2.0 * (2.0 * sync_m * blocks + 2.0 * (sync_m + sync_n) * blocks);
  }
  return r;
}

}  // namespace

LogGpPrediction predict_loggp(const KbaShape& shape, double w_g, const MachineCosts& machine,
                              double w_before, double w_after) {
  const Terms full = evaluate(shape, w_g, machine, true);
  const Terms compute_only = evaluate(shape, w_g, machine, false);
  LogGpPrediction p;
  p.t_56 = full.t_56;
  p.t_78 = full.t_78;
  p.sweeps = 2.0 * (full.t_56 + full.t_78);
  p.w_before = w_before;
  p.w_after = w_after;
  p.per_iteration = p.sweeps + w_before + w_after;
  p.computation = 2.0 * (compute_only.t_56 + compute_only.t_78);
  p.synchronization = full.sync;
  p.communication = p.sweeps - p.computation - p.synchronization;
  return p;
}

}  // namespace sweep3d::model
