// The CPUs' placement (core_round_trip.hpp): the ratio of a run's round trips to its probe's,
// the probe's key as loggps-probe and the short probe write it (median; none when the CPUs
// moved during the probe), the placement line under a comparison (after a busy line), and the
// results file's root attributes core_round_trip_start/_end (absent when not measured, a value
// out of (0, 1] s refused naming the attribute).
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "../scratch_dir.hpp"
#include "instrument/comparison.hpp"
#include "instrument/core_round_trip.hpp"
#include "instrument/error.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/machine_load.hpp"
#include "instrument/results_file.hpp"

using instrument::placement_ratio;

TEST_CASE("a run's round trips against its probe's: the largest ratio either way, 0 when unknown") {
  CHECK(placement_ratio(0, {140e-9}) == 0.0);
  CHECK(placement_ratio(140e-9, {}) == 0.0);
  CHECK(placement_ratio(140e-9, {0.0, 140e-9}) == 0.0);
  CHECK(placement_ratio(135e-9, {540e-9, 550e-9}) == Approx(550.0 / 135));
  CHECK(placement_ratio(540e-9, {135e-9, 540e-9}) == Approx(4.0));
  CHECK(instrument::core_round_trip({129e-9, 138e-9, 134e-9}) == Approx(134e-9));
  CHECK(instrument::core_round_trip({}) == 0.0);
  const instrument::CoreRoundTrips rt{0.0, 120e-9};  // run_app did not sample the start
  CHECK(rt.samples() == std::vector<double>{120e-9});
  CHECK(instrument::CoreRoundTrips{}.samples().empty());
}

TEST_CASE("a LogGP probe's round trips become loggp.core_round_trip_seconds unless the CPUs moved") {
  instrument::MachineFile same;
  instrument::write_loggp_core_round_trip({120e-9, 130e-9}, same);
  CHECK(same.get_double(instrument::kLogGpRoundTripKey).value_or(0) == Approx(125e-9));
  CHECK(instrument::probe_core_round_trip(same, instrument::kLogGpRoundTripKey) == Approx(125e-9));
  CHECK(same.text().find("# the round trip of a cache line between the processes' CPUs before and after the probe "
                         "(120 ns, 130 ns)") != std::string::npos);
  instrument::MachineFile moved;
  instrument::write_loggp_core_round_trip({120e-9, 550e-9}, moved);
  CHECK_FALSE(moved.has(instrument::kLogGpRoundTripKey));
  CHECK(moved.get_string(instrument::kMovedKey).value_or("") == "120 ns, 550 ns");
  instrument::MachineFile unmeasured;  // one process, or oversubscribed: LinePairs gives 0
  instrument::write_loggp_core_round_trip({0.0, 0.0}, unmeasured);
  CHECK_FALSE(unmeasured.has(instrument::kLogGpRoundTripKey));
  CHECK(instrument::probe_core_round_trip(unmeasured, instrument::kLogGpRoundTripKey) == 0.0);
}

TEST_CASE("a run at another placement than its probe's is marked under its table, after a busy line") {
  const auto comparison = [] {
    instrument::Comparison c;
    c.add({.model = "loggp", .term = "T_iter", .measured = 1.0, .modelled = 1.1, .source = "machine: m"});
    return c;
  };
  instrument::Comparison near = comparison();
  instrument::mark_if_other_placement(near, 140e-9, {150e-9, 200e-9}, "p.machine");  // 1.43x
  CHECK(near.reliable());
  instrument::Comparison unknown = comparison();
  instrument::mark_if_other_placement(unknown, 0.0, {550e-9}, "p.machine");
  CHECK(unknown.reliable());

  instrument::Comparison far = comparison();
  instrument::MachineLoad load;
  load.state = "busy";
  load.others = 0.5;
  load.steal = 0.0;
  instrument::mark_if_busy(far, load);
  instrument::mark_if_other_placement(far, 140e-9, {150e-9, 560e-9}, "p.machine");
  CHECK_FALSE(far.reliable());
  const std::string placement =
      "placement: this run's CPUs were not where its probe's were (cache-line round trip 150 ns, 560 ns against "
      "140 ns in p.machine, 4.00x): the measured-vs-modelled comparison is unreliable";
  CHECK(far.unreliable_because() == load.busy_line() + "\n" + placement);
  std::ostringstream printed;
  far.print(printed);
  const std::string tail = load.busy_line() + "\n" + placement + "\n";
  REQUIRE(printed.str().size() > tail.size());
  CHECK(printed.str().substr(printed.str().size() - tail.size()) == tail);

  // From a machine file: its key read; a file that cannot be read leaves the comparison alone.
  ScratchDir dir("unit_core_round_trip_mark");
  const std::string path = (dir.path / "p.machine").string();
  instrument::MachineFile m;
  m.set(instrument::kLogGpRoundTripKey, 140e-9);
  m.write(path);
  instrument::Comparison from_file = comparison();
  instrument::mark_if_other_placement(from_file, path, instrument::kLogGpRoundTripKey, {560e-9, 570e-9}, 2);
  CHECK_THAT(from_file.unreliable_because(), Catch::Contains("against 140 ns in " + path + ", 4.07x"));
  instrument::Comparison missing = comparison();
  instrument::mark_if_other_placement(missing, (dir.path / "none.machine").string(), instrument::kLogGpRoundTripKey,
                                      {560e-9, 570e-9}, 2);
  CHECK(missing.reliable());
  // A LogGP probe's pair against a 4-rank run's pairs: not compared.
  instrument::Comparison four = comparison();
  instrument::mark_if_other_placement(four, path, instrument::kLogGpRoundTripKey, {560e-9, 570e-9}, 4);
  CHECK(four.reliable());
}

TEST_CASE("the results file keeps the run's round trips; absent when not measured or out of range") {
  ScratchDir dir("unit_core_round_trip_file");
  const auto doc_with = [](double start, double end) {
    instrument::ResultsDocument doc;
    doc.run.info.app = "demo";
    doc.run.info.nranks = 2;
    doc.run.core_round_trip = {start, end};
    return doc;
  };
  const std::string both = (dir.path / "both.h5").string();
  instrument::write_results(both, doc_with(120e-9, 560e-9));
  const auto back = instrument::read_results(both);
  CHECK(back.run.core_round_trip.start == 120e-9);
  CHECK(back.run.core_round_trip.end == 560e-9);
  CHECK(back.extras.group_attributes.count("/") == 0);  // the writer's attributes, not extras
  const std::string none = (dir.path / "none.h5").string();
  instrument::write_results(none, doc_with(0.0, 0.0));
  CHECK(instrument::read_results(none).run.core_round_trip.samples().empty());
  // A "round trip" of 2 s is none: left out, so the file stays readable (the reader refuses one).
  const std::string bad = (dir.path / "bad.h5").string();
  instrument::write_results(bad, doc_with(120e-9, 2.0));
  const auto kept = instrument::read_results(bad).run.core_round_trip;
  CHECK(kept.start == 120e-9);
  CHECK(kept.end == 0.0);
}
