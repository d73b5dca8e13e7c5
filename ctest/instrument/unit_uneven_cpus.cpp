// The ranks' speeds compared (uneven_cpus.hpp): the worst interval's slowest-to-fastest ratio,
// ranks without work left out, and the line under a comparison beyond 1.25x (after a busy one).
#include <catch2/catch.hpp>

#include <string>

#include "instrument/comparison.hpp"
#include "instrument/machine_load.hpp"
#include "instrument/uneven_cpus.hpp"

using instrument::RankRates;

TEST_CASE("the worst interval's slowest rank against its fastest") {
  const std::vector<RankRates> rates = {{"iteration 0", {150e-9, 148e-9}},
                                        {"iteration 2", {223e-9, 128e-9}},
                                        {"iteration 3", {202e-9, 125e-9}},
                                        {"iteration 4", {0.0, 100e-9}}};  // rank 0 idle: left out
  const instrument::UnevenCpus u = instrument::uneven_cpus(rates);
  CHECK(u.ratio == Approx(223.0 / 128));
  CHECK(u.interval == "iteration 2");
  CHECK(u.slow_rank == 0);
  CHECK(u.fast_rank == 1);
  CHECK(instrument::uneven_cpus({}).ratio == 1.0);
  CHECK(instrument::uneven_cpus({{"one rank", {150e-9}}}).ratio == 1.0);
  CHECK(instrument::uneven_cpus({{"three", {100e-9, 130e-9, 90e-9}}}).fast_rank == 2);
}

TEST_CASE("beyond 1.25x the comparison is marked, after any busy line; within, not") {
  instrument::Comparison even;
  even.add({.model = "GM", .term = "T_sweep", .measured = 1.0, .modelled = 1.1, .source = "s"});
  instrument::Comparison uneven = even;
  instrument::Comparison just_beyond = even;
  instrument::mark_if_uneven_cpus(even, {{"iteration 1", {156e-9, 126e-9}}}, "cell-angle task");  // 1.238x
  CHECK(even.reliable());
  // 1.30x: a rank of the 2026-12-06 runs that the old 1.5 let through (instrument/uneven_cpus.hpp).
  instrument::mark_if_uneven_cpus(just_beyond, {{"iteration 3", {182e-9, 140e-9}}}, "cell-angle task");
  CHECK(just_beyond.unreliable_because() ==
        "cpus: rank 0 took 1.30x rank 1's time per cell-angle task in iteration 3 (182 ns against 140 ns): its CPU "
        "ran slower (the host's load on it); the measured-vs-modelled comparison is unreliable");
  instrument::MachineLoad load;
  load.state = "busy";
  load.others = 0.5;
  load.steal = 0.0;
  instrument::mark_if_busy(uneven, load);
  instrument::mark_if_uneven_cpus(uneven, {{"iteration 2", {223e-9, 128e-9}}}, "cell-angle task");
  CHECK(uneven.unreliable_because() ==
        load.busy_line() +
            "\ncpus: rank 0 took 1.74x rank 1's time per cell-angle task in iteration 2 (223 ns against 128 ns): its "
            "CPU ran slower (the host's load on it); the measured-vs-modelled comparison is unreliable");
}

TEST_CASE("intervals joined until every working rank has the minimum; a short tail joins the last span") {
  using instrument::RankWork;
  // Rank 1 idle in interval 2; 4 ms a rank an interval otherwise.
  const std::vector<RankWork> work = {{1, {4e-3, 4e-3}, {1000, 1000}},
                                      {2, {4e-3, 0.0}, {1000, 0}},
                                      {3, {4e-3, 8e-3}, {1000, 1000}},
                                      {4, {4e-3, 4e-3}, {1000, 1000}}};
  const std::vector<RankRates> spans = instrument::rates_over_spans(work, "iteration", 0.01);
  REQUIRE(spans.size() == 1);  // 1-3 reach 12 ms on both ranks; 4 (4 ms) joins them
  CHECK(spans[0].interval == "iterations 1-4");
  CHECK(spans[0].seconds_per_unit[0] == Approx(16e-3 / 4000));
  CHECK(spans[0].seconds_per_unit[1] == Approx(16e-3 / 3000));
  const std::vector<RankRates> each = instrument::rates_over_spans(work, "cycle", 0.0);
  REQUIRE(each.size() == 4);
  CHECK(each[1].interval == "cycle 2");
  CHECK(each[1].seconds_per_unit[1] == 0.0);  // no work: left out by uneven_cpus
  CHECK(each[2].seconds_per_unit[1] == Approx(8e-6));
  CHECK(instrument::rates_over_spans(work, "iteration", 1.0).empty());  // 16 ms in all: too short to tell
  CHECK(instrument::rates_over_spans({}, "iteration").empty());
}

TEST_CASE("a rank that stops working does not hold the spans open, and is left out where short") {
  using instrument::RankWork;
  // Rank 0 10 ms an interval throughout; rank 1 1 ms in the first only, then nothing.
  const std::vector<RankWork> work = {{1, {10e-3, 1e-3}, {1000, 1000}},
                                      {2, {10e-3, 0.0}, {1000, 0}},
                                      {3, {10e-3, 0.0}, {1000, 0}}};
  const std::vector<RankRates> spans = instrument::rates_over_spans(work, "iteration", 0.01);
  // Interval 1: rank 1 short, so it stays open; interval 2: rank 0 alone worked, 20 ms: closes.
  REQUIRE(spans.size() == 2);
  CHECK(spans[0].interval == "iterations 1-2");
  CHECK(spans[1].interval == "iteration 3");
  CHECK(spans[0].seconds_per_unit[0] == Approx(10e-6));
  CHECK(spans[0].seconds_per_unit[1] == 0.0);  // 1 ms in its span: too short to judge
  CHECK(instrument::uneven_cpus(spans).ratio == 1.0);
}
