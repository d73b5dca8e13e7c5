// Each rank's kernel time per cell-angle by iteration (kernel_rates.hpp), from a hand-made
// gathered trace: the kernel events inside each iteration over their work, fixup iterations
// and events outside any iteration left out, and the line under a comparison when one rank's
// kernel ran 2x slower in one iteration.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "instrument/comparison.hpp"
#include "instrument/run_results.hpp"
#include "instrument/uneven_cpus.hpp"
#include "sweep3d/kernel_rates.hpp"
#include "sweep3d/phases.hpp"

namespace {

enum Kind : std::int32_t { kIterationKind, kKernelKind, kFixupKind, kSendKind };

instrument::TraceEvent event(Kind kind, double begin, double end, std::int64_t work = 0) {
  instrument::TraceEvent e;
  e.kind = kind;
  e.t_begin = begin;
  e.t_end = end;
  e.work = work;
  return e;
}

// Rank r's iterations, one a second from t = 1, each with two kernel blocks of 1000
// cell-angles taking slow[i] x `block` seconds each and a send between them; `fixup[i]`: that iteration's
// blocks are fixup blocks. Events are stored in the order their phases end (children first).
std::vector<instrument::TraceEvent> rank_events(const std::vector<double>& slow, const std::vector<bool>& fixup,
                                                double block) {
  std::vector<instrument::TraceEvent> out;
  out.push_back(event(kKernelKind, 0.1, 0.2, 1000));  // before the first iteration: set-up, not counted
  for (std::size_t i = 0; i < slow.size(); ++i) {
    const double t = 1.0 + static_cast<double>(i);
    const Kind k = fixup[i] ? kFixupKind : kKernelKind;
    out.push_back(event(k, t + 0.1, t + 0.1 + slow[i] * block, 1000));
    out.push_back(event(kSendKind, t + 0.2, t + 0.3));
    out.push_back(event(k, t + 0.4, t + 0.4 + slow[i] * block, 1000));
    out.push_back(event(kIterationKind, t, t + 0.9));
    out.push_back(event(kKernelKind, t + 0.95, t + 0.96, 1));  // between iterations: not counted
  }
  return out;
}

instrument::GatheredTrace trace_of(const std::vector<std::vector<double>>& slow, const std::vector<bool>& fixup,
                                   double block = 1e-6) {
  instrument::GatheredTrace t;
  t.kinds = {std::string(sweep3d::phase::kIteration), std::string(sweep3d::phase::kKernel),
             std::string(sweep3d::phase::kKernelFixup), "send"};
  for (const std::vector<double>& s : slow) t.per_rank.push_back(rank_events(s, fixup, block));
  t.dropped.assign(slow.size(), 0);
  return t;
}

}  // namespace

TEST_CASE("a rank 2x slower in one iteration: ratio 2 there, 1 in the others") {
  const auto rates = sweep3d::kernel_rates_by_iteration(trace_of({{1, 1, 1}, {1, 2, 1}}, {false, false, false}), 0.0);
  REQUIRE(rates.size() == 3);
  CHECK(rates[0].interval == "iteration 1");
  CHECK(rates[2].interval == "iteration 3");
  // 2 us over 2000 cell-angles: 1 ns each; the send between the blocks and the block before
  // the first iteration not in it.
  REQUIRE(rates[1].seconds_per_unit.size() == 2);
  CHECK(rates[0].seconds_per_unit[0] == Approx(1e-9));
  CHECK(rates[0].seconds_per_unit[1] == Approx(1e-9));
  CHECK(rates[1].seconds_per_unit[0] == Approx(1e-9));
  CHECK(rates[1].seconds_per_unit[1] == Approx(2e-9));
  const instrument::UnevenCpus u = instrument::uneven_cpus(rates);
  CHECK(u.ratio == Approx(2.0));
  CHECK(u.interval == "iteration 2");
  CHECK(u.slow_rank == 1);
  CHECK(u.fast_rank == 0);

  instrument::Comparison c;
  c.add({.model = "LogGP", .term = "T_iter", .measured = 1.0, .modelled = 1.05, .source = "s"});
  instrument::mark_if_uneven_cpus(c, rates, "cell-angle");
  std::ostringstream printed;
  c.print(printed);
  CHECK(printed.str().find("unreliable") != std::string::npos);
  CHECK(printed.str().find("cpus: rank 1 took 2.00x rank 0's time per cell-angle in iteration 2 (2 ns against 1 ns)") !=
        std::string::npos);
}

TEST_CASE("even ranks are not marked; fixup iterations are left out") {
  // Rank 1 is 3x slower in iteration 2, but that iteration has fixups: not counted.
  const auto rates = sweep3d::kernel_rates_by_iteration(trace_of({{1, 1, 1.2}, {1.1, 3, 1}}, {false, true, false}), 0.0);
  REQUIRE(rates.size() == 2);
  CHECK(rates[0].interval == "iteration 1");
  CHECK(rates[1].interval == "iteration 3");
  CHECK(instrument::uneven_cpus(rates).ratio == Approx(1.2));
  instrument::Comparison c;
  c.add({.model = "LogGP", .term = "T_iter", .measured = 1.0, .modelled = 1.05, .source = "s"});
  instrument::mark_if_uneven_cpus(c, rates, "cell-angle");
  std::ostringstream printed;
  c.print(printed);
  CHECK(printed.str().find("unreliable") == std::string::npos);
}

TEST_CASE("a rank whose trace ended early is left out of the iterations it lacks") {
  instrument::GatheredTrace t = trace_of({{1, 1, 1}, {1, 1, 1}}, {false, false, false});
  t.per_rank[1].resize(1 + 5);  // the block before, then iteration 1's five events only
  const auto rates = sweep3d::kernel_rates_by_iteration(t, 0.0);
  REQUIRE(rates.size() == 3);
  CHECK(rates[2].seconds_per_unit[1] == 0.0);
  CHECK(rates[2].seconds_per_unit[0] == Approx(1e-9));
  CHECK(instrument::uneven_cpus(rates).ratio == Approx(1.0));
  CHECK(sweep3d::kernel_rates_by_iteration(instrument::GatheredTrace{}).empty());
}

TEST_CASE("short iterations are joined until each rank has 10 ms of kernel; a shorter run is not judged") {
  // 2 x 3 ms a rank an iteration: two iterations make a span; the fifth, short, joins the last.
  const auto rates =
      sweep3d::kernel_rates_by_iteration(trace_of({{1, 1, 1, 1, 1}, {1, 3, 1, 1, 1}}, {false, false, false, false, false}, 3e-3));
  REQUIRE(rates.size() == 2);
  CHECK(rates[0].interval == "iterations 1-2");
  CHECK(rates[1].interval == "iterations 3-5");
  CHECK(rates[0].seconds_per_unit[0] == Approx(3e-6));
  CHECK(rates[0].seconds_per_unit[1] == Approx(6e-6));  // (6 + 18) ms over 4000 cell-angles
  CHECK(rates[1].seconds_per_unit[1] == Approx(3e-6));
  CHECK(instrument::uneven_cpus(rates).ratio == Approx(2.0));
  // Microseconds of kernel in all: nothing to judge, however far apart the ranks.
  CHECK(sweep3d::kernel_rates_by_iteration(trace_of({{1, 1, 1}, {1, 5, 1}}, {false, false, false})).empty());
}
