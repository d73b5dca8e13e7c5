#include "tycho/model/gm.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

namespace tycho::model {

namespace {

[[noreturn]] void bad(const std::string& what) { throw std::invalid_argument("tycho GM: " + what); }

void check(const GmInputs& in) {
  if (in.ranks < 1) bad("P must be >= 1, got " + std::to_string(in.ranks));
  if (!std::isfinite(in.cells) || in.cells < in.ranks) bad("N must be finite and >= P");
  if (in.directions < 1) bad("N_Omega must be >= 1");
  if (!(in.pce > 0.0 && in.pce <= 1.0)) bad("PCE must be in (0, 1], got " + std::to_string(in.pce));
  if (!std::isfinite(in.bytes_per_boundary_cell_angle) || in.bytes_per_boundary_cell_angle < 0.0) {
    bad("bytes per boundary cell-angle must be finite and >= 0");
  }
  if (!in.t_elem || !in.t_comm) bad("T_elem and T_comm must both be given");
  if (!std::isfinite(in.step_overhead_s) || in.step_overhead_s < 0.0) bad("T_step must be finite and >= 0");
}

double checked_seconds(double t, const char* what) {
  if (!std::isfinite(t) || t < 0.0) bad(std::string(what) + " must be finite and >= 0, got " + std::to_string(t));
  return t;
}

}  // namespace

LogicalGrid logical_grid(int ranks) {
  if (ranks < 1) bad("P must be >= 1, got " + std::to_string(ranks));
  LogicalGrid best{ranks, 1, 1};
  for (int z = 1; static_cast<long long>(z) * z * z <= ranks; ++z) {
    if (ranks % z) continue;
    const int rest = ranks / z;
    for (int y = z; static_cast<long long>(y) * y <= rest; ++y) {
      if (rest % y) continue;
      const int x = rest / y;  // x >= y >= z
      if (x < best.x || (x == best.x && y < best.y)) best = {x, y, z};
    }
  }
  return best;
}

int grid_neighbours(const LogicalGrid& grid) {
  int n = 0;
  for (int extent : {grid.x, grid.y, grid.z}) n += extent > 2 ? 2 : extent == 2 ? 1 : 0;
  return n;
}

GmPrediction general_model(const GmInputs& in) {
  check(in);
  if (in.mcps < 1) bad("MCPS must be >= 1, got " + std::to_string(in.mcps));
  GmPrediction r;
  r.grid = logical_grid(in.ranks);
  r.cells_per_rank = in.cells / in.ranks;
  const double w_p = r.cells_per_rank * in.directions;  // eq. 3
  r.work_per_step = std::min(static_cast<double>(in.mcps), w_p);
  r.work_steps = w_p / (r.work_per_step * in.pce);
  r.pipeline_steps = (r.grid.x - 1) + (r.grid.y - 1) + (r.grid.z - 1);
  r.steps = r.work_steps + r.pipeline_steps;
  r.t_elem_s = checked_seconds(in.t_elem(r.cells_per_rank, static_cast<double>(in.mcps)), "T_elem(E_p, MCPS)");
  r.messages_per_step = grid_neighbours(r.grid);
  r.message_bytes = std::min(std::cbrt(r.cells_per_rank * r.cells_per_rank),
                             std::cbrt(static_cast<double>(in.mcps) * static_cast<double>(in.mcps))) *
                    in.bytes_per_boundary_cell_angle;
  r.t_comm_s = r.messages_per_step > 0
                   ? checked_seconds(in.t_comm(std::llround(r.message_bytes)), "T_comm(N_s)")
                   : 0.0;
  r.compute_s = r.steps * r.work_per_step * r.t_elem_s;
  if (in.t_comm_waiting && r.messages_per_step > 0) {
    r.waiting_sends_per_step = waiting_sends_in_step(r.messages_per_step, r.messages_per_step);
    r.t_comm_waiting_s = checked_seconds(in.t_comm_waiting(std::llround(r.message_bytes)), "T_comm,waiting(N_s)");
  }
  r.comm_s = r.steps * (r.messages_per_step * r.t_comm_s + r.waiting_sends_per_step * (r.t_comm_waiting_s - r.t_comm_s));
  r.bookkeeping_s = r.steps * in.step_overhead_s;
  r.total_s = r.compute_s + r.comm_s + r.bookkeeping_s;
  r.comm_share = r.total_s > 0.0 ? r.comm_s / r.total_s : 0.0;
  return r;
}

McpsChoice choose_mcps(const GmInputs& inputs, double max_comm_share) {
  check(inputs);
  if (!(max_comm_share >= 0.0 && max_comm_share <= 1.0)) {
    bad("the largest communication share must be in [0, 1], got " + std::to_string(max_comm_share));
  }
  const double w_p = inputs.cells / inputs.ranks * inputs.directions;
  const auto top = static_cast<std::int64_t>(std::max(1.0, std::floor(w_p)));
  std::vector<std::int64_t> candidates;
  for (std::int64_t p = 1; p <= top; p *= 2) {
    candidates.push_back(p);
    if (p > 1 && p + p / 2 <= top) candidates.push_back(p + p / 2);
    if (p > top / 2) break;  // p * 2 would pass top (and cannot overflow)
  }

  McpsChoice best_within, best_share;
  bool any_within = false;
  std::size_t within = 0;
  for (std::size_t i = 0; i < candidates.size(); ++i) {
    GmInputs in = inputs;
    in.mcps = candidates[i];
    const GmPrediction g = general_model(in);
    if (g.comm_share <= max_comm_share) {
      ++within;
      if (!any_within || g.total_s < best_within.prediction.total_s) best_within = {in.mcps, g, true, ""};
      any_within = true;
    }
    if (i == 0 || g.comm_share < best_share.prediction.comm_share ||
        (g.comm_share == best_share.prediction.comm_share && g.total_s < best_share.prediction.total_s)) {
      best_share = {in.mcps, g, false, ""};
    }
  }
  std::ostringstream why;
  why.precision(3);
  McpsChoice choice = any_within ? best_within : best_share;
  if (any_within) {
    why << "MCPS " << choice.mcps << ": the least GM time of the " << within << " of "
        << candidates.size() << " candidates (1 .. " << candidates.back()
        << ") whose communication share is at most " << max_comm_share << " (its share "
        << choice.prediction.comm_share << ")";
  } else {
    why << "MCPS " << choice.mcps << ": no candidate of " << candidates.size() << " (1 .. "
        << candidates.back() << ") has a communication share at most " << max_comm_share
        << "; this one has the smallest, " << choice.prediction.comm_share;
  }
  choice.reason = why.str();
  return choice;
}

}  // namespace tycho::model
