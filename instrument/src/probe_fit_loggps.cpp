// The LogGPS fit of loggps-probe (Ino et al. §4.2-4.3), see probe_fit.hpp.
#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "cost_checks.hpp"
#include "instrument/probe_fit.hpp"

namespace instrument::probe {

namespace {

enum Col { kOprime, kL, kOs, kOr, kGs, kGl, kH, kFirstStep };

// Bytes of (s, k] in each multi-packet segment: (s, b1], (b1, b2], ..., (b_m, inf).
std::vector<double> segment_lengths(std::int64_t k, std::int64_t s,
                                    const std::vector<std::int64_t>& steps) {
  std::vector<double> len(steps.size() + 1, 0.0);
  std::int64_t lower = s;
  for (std::size_t j = 0; j <= steps.size(); ++j) {
    const std::int64_t upper = j < steps.size() ? steps[j] : std::numeric_limits<std::int64_t>::max();
    if (k > lower) len[j] = static_cast<double>(std::min(k, upper) - lower);
    lower = upper;
  }
  return len;
}

// Coefficients of the model in (o', L, O_s, O_r, G_s, G_l, H, steps...), eq. (12)-(14):
// without delay RTT = 2(T1 + T2 + T3) (+ 2T4 + 2T5 above S); with a large delay
// RTT - w = T1 + T3 (k <= S) or 2T1 + T2' + T3 + 2T4 + 2T5 - (o' + L) (k > S), plus one more
// T2' when a send above S returns after the transfer (loggps.hpp, extension 2). H is in T5:
// the jump of the round trip at S beyond what 8o' + 4L explain.
// Each equation is max{A - w, 0} + B; with a large w it is B, without delay A + B while
// A >= 0, which every fit that passes loggps::validate ensures (all T_i > 0).
std::vector<double> model_row(std::int64_t k, bool delayed, std::int64_t s, std::int64_t S,
                              const std::vector<std::int64_t>& steps, loggps::SendReturns rule) {
  std::vector<double> r(kFirstStep + steps.size(), 0.0);
  const double kd = static_cast<double>(k), sd = static_cast<double>(s);
  const auto len = segment_lengths(k, s, steps);
  const bool sync = k > S;
  auto put_gap = [&](double factor) {
    if (k <= s) {
      r[kGs] = factor * kd;
    } else {
      r[kGs] = factor * sd;
      r[kGl] = factor * len[0];
      for (std::size_t j = 0; j < steps.size(); ++j) r[kFirstStep + j] = factor * len[j + 1];
    }
  };
  if (sync) r[kH] = 2.0;  // 2T5
  if (!delayed) {
    r[kOprime] = sync ? 12.0 : 4.0;  // 2(2o') + (2T4 + 2T5 = 8o' + 4L)
    r[kL] = sync ? 6.0 : 2.0;
    r[kOs] = 2.0 * kd;
    r[kOr] = 2.0 * kd;
    put_gap(2.0);
  } else if (!sync) {
    r[kOprime] = 2.0;
    r[kOs] = kd;
    r[kOr] = kd;
  } else {
    const bool after_transfer = rule == loggps::SendReturns::after_transfer;
    r[kOprime] = 10.0;  // 2 + 1 + 1 + 2(2) + 2(2) - 1, see eq. (14)
    r[kL] = after_transfer ? 5.0 : 4.0;
    r[kOs] = 2.0 * kd;
    r[kOr] = kd;
    put_gap(after_transfer ? 2.0 : 1.0);
  }
  return r;
}

loggps::LogGpsParams params_from(const std::vector<double>& x, std::int64_t s, std::int64_t S,
                                 const std::vector<std::int64_t>& steps, loggps::SendReturns rule) {
  loggps::LogGpsParams p;
  p.o_prime = x[kOprime];
  p.L = x[kL];
  p.O_s = x[kOs];
  p.O_r = x[kOr];
  p.G_s = x[kGs];
  p.G_l = x[kGl];
  p.s = s;
  p.S = S;
  p.H = x[kH];
  p.send_returns = rule;
  for (std::size_t j = 0; j < steps.size(); ++j) p.gap_steps.push_back({steps[j], x[kFirstStep + j]});
  return p;
}

// Solves with O_r optionally tied to O_s; columns without data (a gap nobody pays) get 0.
// Non-negative: every parameter >= 0, o' and L >= kTimeFloor.
std::vector<double> solve(const std::vector<std::vector<double>>& rows, const std::vector<double>& rhs,
                          bool tie_Or_to_Os, bool nonnegative) {
  const std::size_t n = rows.front().size();
  std::vector<bool> used(n, false);
  for (const auto& r : rows)
    for (std::size_t j = 0; j < n; ++j) used[j] = used[j] || r[j] != 0.0;
  std::vector<int> map(n, -1);
  int free_cols = 0;
  for (std::size_t j = 0; j < n; ++j) {
    if (!used[j] || (tie_Or_to_Os && j == kOr)) continue;
    map[j] = free_cols++;
  }
  std::vector<std::vector<double>> reduced;
  for (const auto& r : rows) {
    std::vector<double> rr(static_cast<std::size_t>(free_cols), 0.0);
    for (std::size_t j = 0; j < n; ++j)
      if (map[j] >= 0) rr[static_cast<std::size_t>(map[j])] += r[j];
    if (tie_Or_to_Os) rr[static_cast<std::size_t>(map[kOs])] += r[kOr];
    reduced.push_back(std::move(rr));
  }
  std::vector<double> lower(static_cast<std::size_t>(free_cols), 0.0);
  for (const int j : {kOprime, kL})  // H may be 0: the paper
    if (map[j] >= 0) lower[static_cast<std::size_t>(map[j])] = kTimeFloor;
  const auto y = nonnegative ? nonnegative_least_squares(reduced, rhs, lower) : least_squares(reduced, rhs);
  std::vector<double> x(n, 0.0);
  for (std::size_t j = 0; j < n; ++j)
    if (map[j] >= 0) x[j] = y[static_cast<std::size_t>(map[j])];
  if (tie_Or_to_Os) x[kOr] = x[kOs];
  return x;
}

double max_abs_rel_error(const loggps::LogGpsParams& p, const std::vector<RttSample>& data, bool delayed) {
  // "Large w": the max{} terms vanish, so RTT - w is the model at w = +inf, minus w.
  const double w = delayed ? 1.0 : 0.0;
  return max_rel_error(data, [&](std::int64_t k) { return loggps::round_trip_time(p, k, w) - w; });
}

double sum_sq_rel_error(const loggps::LogGpsParams& p, const std::vector<RttSample>& data) {
  double sum = 0.0;
  for (const RttSample& d : data) {
    const double e = relative_error(loggps::round_trip_time(p, d.bytes, 0.0), d.seconds);
    sum += e * e;
  }
  return sum;
}

struct Candidate {
  loggps::LogGpsParams params;
  double err_no_delay = 0.0, err_delayed = 0.0;
};

// One fit for a given s and set of gap steps, with its errors; false when the system is
// singular for that choice.
bool try_fit(const std::vector<RttSample>& no_delay, const std::vector<RttSample>& delayed, std::int64_t s,
             std::int64_t S, const std::vector<std::int64_t>& steps, double delayed_weight, bool nonnegative,
             loggps::SendReturns rule, Candidate& out) {
  try {
    out.params = fit_loggps_fixed(no_delay, delayed, s, S, steps, delayed_weight, nonnegative, rule);
  } catch (const std::runtime_error&) {
    return false;
  }
  out.err_no_delay = max_abs_rel_error(out.params, no_delay, false);
  out.err_delayed = max_abs_rel_error(out.params, delayed, true);
  return true;
}

// The search of s and the gap steps (see fit_loggps), every fit unconstrained or >= 0.
Candidate search(const std::vector<RttSample>& no_delay, const std::vector<RttSample>& delayed,
                 std::int64_t S, const LogGpsFitOptions& options, bool nonnegative) {
  std::vector<std::int64_t> sizes;
  for (const RttSample& d : no_delay) sizes.push_back(d.bytes);
  std::sort(sizes.begin(), sizes.end());
  const std::int64_t largest = sizes.back();
  const double target = options.target_rel_error;
  auto evaluate = [&](std::int64_t s, const std::vector<std::int64_t>& st, Candidate& out) {
    return try_fit(no_delay, delayed, s, S, st, options.delayed_weight, nonnegative, options.send_returns,
                   out);
  };

  // s candidates: measured sizes (at least the second one, so the single-packet band holds
  // two sizes) up to S, and S itself.
  std::vector<std::int64_t> s_candidates;
  for (std::int64_t k : sizes)
    if (k > sizes.front() && k <= S && k < largest) s_candidates.push_back(k);
  if (S < largest && S > sizes.front() && (s_candidates.empty() || s_candidates.back() != S)) s_candidates.push_back(S);
  if (s_candidates.empty()) s_candidates.push_back(std::min<std::int64_t>(S, largest));

  Candidate best;
  bool have_best = false;
  std::size_t best_steps = 0;
  for (std::int64_t s : s_candidates) {
    std::vector<std::int64_t> steps;
    Candidate current;
    if (!evaluate(s, steps, current)) continue;
    // Greedy: add the gap step that lowers the sum of squared relative errors of the
    // undelayed round trips most (the worst error alone can need two steps to move), until
    // every size is within the target.
    while (current.err_no_delay > target && static_cast<int>(steps.size()) < options.max_gap_steps) {
      Candidate round_best;
      std::vector<std::int64_t> round_steps;
      const double current_sse = sum_sq_rel_error(current.params, no_delay);
      double round_sse = current_sse;
      bool improved = false;
      std::vector<std::int64_t> candidates = sizes;
      candidates.push_back(S);
      for (std::int64_t b : candidates) {
        if (b <= s || b >= largest || std::find(steps.begin(), steps.end(), b) != steps.end()) continue;
        auto trial = steps;
        trial.push_back(b);
        std::sort(trial.begin(), trial.end());
        Candidate f;
        if (!evaluate(s, trial, f)) continue;
        const double sse = sum_sq_rel_error(f.params, no_delay);
        // Better in the squares, or (when no step helps the squares) in the worst size.
        const bool helps = sse < round_sse * (1.0 - 1e-9) ||
                           (!improved && f.err_no_delay < current.err_no_delay - 1e-9 && sse < current_sse * 1.5);
        if (helps) {
          round_best = f;
          round_steps = trial;
          round_sse = sse;
          improved = true;
        }
      }
      if (!improved) break;
      current = round_best;
      steps = round_steps;
    }
    // Prefer fits that reach the target with fewer steps; then the smaller error.
    const bool ok = current.err_no_delay <= target;
    const bool best_ok = have_best && best.err_no_delay <= target;
    bool better = !have_best;
    if (have_best) {
      if (ok != best_ok) better = ok;
      else if (ok && steps.size() != best_steps) better = steps.size() < best_steps;
      else better = current.err_no_delay < best.err_no_delay;
    }
    if (better) {
      best = current;
      best_steps = steps.size();
      have_best = true;
    }
  }
  if (!have_best) throw std::runtime_error("LogGPS fit failed: the round trips do not separate the parameters");
  if (best.err_no_delay <= target || options.max_gap_steps == 0) return best;

  // Forward selection can get stuck where two steps are needed at once. Backward elimination
  // then: start with a step at every measured size above s (as many parameters as sizes: the
  // model interpolates) and drop steps while every size stays within the target.
  for (std::int64_t s : {s_candidates.front(), best.params.s}) {
    std::vector<std::int64_t> steps;
    for (std::int64_t k : sizes)
      if (k > s && k < largest) steps.push_back(k);
    if (static_cast<int>(steps.size()) > options.max_gap_steps) continue;
    Candidate current;
    if (!evaluate(s, steps, current)) continue;
    const double allowed = std::max(target, current.err_no_delay);
    for (bool dropped = true; dropped && !steps.empty();) {
      dropped = false;
      Candidate round_best;
      std::size_t drop = 0;
      for (std::size_t j = 0; j < steps.size(); ++j) {
        auto trial = steps;
        trial.erase(trial.begin() + static_cast<std::ptrdiff_t>(j));
        Candidate f;
        if (!evaluate(s, trial, f) || f.err_no_delay > allowed) continue;
        if (!dropped || f.err_no_delay < round_best.err_no_delay) {
          round_best = f;
          drop = j;
          dropped = true;
        }
      }
      if (dropped) {
        steps.erase(steps.begin() + static_cast<std::ptrdiff_t>(drop));
        current = round_best;
      }
    }
    if (current.err_no_delay < best.err_no_delay) best = current;
  }
  return best;
}

}  // namespace

loggps::LogGpsParams fit_loggps_fixed(const std::vector<RttSample>& no_delay,
                                      const std::vector<RttSample>& delayed, std::int64_t s,
                                      std::int64_t S, const std::vector<std::int64_t>& steps,
                                      double delayed_weight, bool nonnegative, loggps::SendReturns rule) {
  bool any_sync_delayed = false;
  for (const RttSample& d : delayed) any_sync_delayed = any_sync_delayed || d.bytes > S;
  // O_s and O_r are told apart only by delayed round trips above S (slope 2O_s + O_r).
  const bool tie = !any_sync_delayed;
  std::vector<std::vector<double>> rows;
  std::vector<double> rhs;
  for (int curve = 0; curve < 2; ++curve) {
    for (const RttSample& d : curve == 0 ? no_delay : delayed) {
      auto r = model_row(d.bytes, curve == 1, s, S, steps, rule);
      const double weight = curve == 0 ? 1.0 : delayed_weight;
      for (double& c : r) c *= weight / d.seconds;  // relative residuals
      rows.push_back(std::move(r));
      rhs.push_back(weight);
    }
  }
  return params_from(solve(rows, rhs, tie, nonnegative), s, S, steps, rule);
}

LogGpsFit fit_loggps(const std::vector<RttSample>& no_delay, const std::vector<RttSample>& delayed,
                     std::int64_t S, const LogGpsFitOptions& options) {
  if (no_delay.size() < 3 || delayed.size() < 2) {
    throw std::invalid_argument("fit_loggps: need round trips at three sizes or more");
  }
  LogGpsFit fit;
  Candidate chosen;
  try {
    chosen = search(no_delay, delayed, S, options, false);
    fit.paper = chosen.params;
    fit.paper_max_rel_error = chosen.err_no_delay;
    fit.rejected = cost_checks::broken_constraint(chosen.params);
    if (fit.rejected.empty() && chosen.err_no_delay > options.accept_rel_error) {
      fit.rejected = "the worst round trip is off by " + cost_checks::number(100 * chosen.err_no_delay) +
                     "%, more than " + cost_checks::number(100 * options.accept_rel_error) + "%";
    }
  } catch (const std::runtime_error& e) {
    fit.rejected = e.what();
  }
  fit.derivation = "ino-4.3";
  if (!fit.rejected.empty()) {
    chosen = search(no_delay, delayed, S, options, true);
    fit.derivation = "constrained";
    const std::string broken = cost_checks::broken_constraint(chosen.params);
    if (!broken.empty()) throw std::runtime_error("LogGPS constrained fit breaks a constraint: " + broken);
  }
  fit.params = chosen.params;
  fit.max_rel_error_no_delay = chosen.err_no_delay;
  fit.max_rel_error_delayed = chosen.err_delayed;
  return fit;
}

}  // namespace instrument::probe
