// The ranks' speeds compared (uneven_cpus.hpp): the worst interval's slowest-to-fastest ratio,
// ranks without work left out, and the line under a comparison beyond 1.5x (after a busy one).
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

TEST_CASE("beyond 1.5x the comparison is marked, after any busy line; within, not") {
  instrument::Comparison even;
  even.add({.model = "GM", .term = "T_sweep", .measured = 1.0, .modelled = 1.1, .source = "s"});
  instrument::Comparison uneven = even;
  instrument::mark_if_uneven_cpus(even, {{"iteration 1", {157e-9, 126e-9}}}, "cell-angle task");  // 1.25x
  CHECK(even.reliable());
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
