// The speed check (speed_check.hpp): a run's figure over its ranks, a rank whose check changed
// during the run, and a run against a calibration, each beyond 1.15x marked with its line.
#include <catch2/catch.hpp>

#include <string>

#include "instrument/comparison.hpp"
#include "instrument/error.hpp"
#include "instrument/results_file.hpp"
#include "instrument/speed_check.hpp"

namespace {

const std::string kWhat = "a fixed solve";
const std::string kTail = "; the measured-vs-modelled comparison is unreliable";

instrument::Comparison one_row() {
  instrument::Comparison c;
  c.add({.model = "GM", .term = "T_sweep", .measured = 1.0, .modelled = 1.1, .source = "s"});
  return c;
}

}  // namespace

TEST_CASE("the run's figure: the median over ranks of each rank's mean, ranks without one left out") {
  CHECK(instrument::SpeedCheck{}.run_ns() == 0.0);
  CHECK(instrument::SpeedCheck{{24.0}, {26.0}}.run_ns() == 25.0);
  CHECK(instrument::SpeedCheck{{24.0, 30.0, 40.0}, {24.0, 32.0, 40.0}}.run_ns() == 31.0);
  CHECK(instrument::SpeedCheck{{24.0, 0.0}, {26.0, 33.0}}.run_ns() == 25.0);
}

TEST_CASE("a rank's check after the work beyond 1.15x its check before marks the run, the worst rank named") {
  // Within: 23.9 and 27.4 (1.146x), either way.
  CHECK(instrument::speed_changed_line({{23.9, 27.4}, {27.4, 23.9}}, kWhat).empty());
  CHECK(instrument::speed_changed_line({{24.0}, {0.0}}, kWhat).empty());  // no check after: not compared
  // The transition measured on 2026-12-07 (rank 1), and a smaller one on rank 0.
  const instrument::SpeedCheck changed{{24.0, 23.9}, {28.0, 33.2}};
  CHECK(instrument::speed_changed_line(changed, kWhat) ==
        "speed: rank 1's CPU changed speed during the run: a fixed solve took 23.9 ns before the measured work and "
        "33.2 ns after (1.39x; the host's load on it moved)" + kTail);
  instrument::Comparison c = one_row();
  instrument::mark_if_speed_changed(c, {{24.0}, {24.5}}, kWhat);
  CHECK(c.reliable());
  instrument::mark_if_speed_changed(c, changed, kWhat);
  CHECK(c.unreliable_because() == instrument::speed_changed_line(changed, kWhat));
}

TEST_CASE("a run beyond 1.15x its calibration's figure, slower or faster, is marked; a file without one is not") {
  CHECK(instrument::speed_differs_line(27.5, 24.0, "cal.h5", kWhat).empty());  // 1.146x
  CHECK(instrument::speed_differs_line(33.9, 0.0, "old.h5", kWhat).empty());   // before the check
  CHECK(instrument::speed_differs_line(33.9, 24.0, "cal.h5", kWhat) ==
        "speed: this run's CPU took a fixed solve 1.41x slower than when calibration cal.h5 ran (33.9 against 24.0 "
        "ns): its constants came from a CPU at another speed (the host's load moved between the runs)" + kTail);
  CHECK(instrument::speed_differs_line(24.0, 33.9, "cal.h5", kWhat).find("1.41x faster than when calibration cal.h5") !=
        std::string::npos);
  instrument::Comparison c = one_row();
  instrument::mark_if_speed_differs(c, 24.0, 25.0, "cal.h5", kWhat);
  CHECK(c.reliable());
  instrument::mark_if_speed_differs(c, 33.9, 24.0, "cal.h5", kWhat);
  instrument::mark_if_speed_differs(c, 33.9, 24.5, "cal2.h5", kWhat);
  CHECK(c.unreliable_because() == instrument::speed_differs_line(33.9, 24.0, "cal.h5", kWhat) + "\n" +
                                      instrument::speed_differs_line(33.9, 24.5, "cal2.h5", kWhat));
}

TEST_CASE("a calibration file's figure: read where kept, 0 where the file predates the check, refused when damaged") {
  instrument::ResultsDocument doc;
  doc.run.info.app = "tycho";
  CHECK(instrument::calibration_speed_check_ns(doc, "tycho", "/tycho", "cal.h5") == 0.0);  // no /tycho group
  auto& run = doc.extras.group_attributes["/tycho"];
  run["pce"] = 0.9;
  CHECK(instrument::calibration_speed_check_ns(doc, "tycho", "/tycho", "cal.h5") == 0.0);  // no figure
  run["speed_check_ns"] = 24.5;
  CHECK(instrument::calibration_speed_check_ns(doc, "tycho", "/tycho", "cal.h5") == 24.5);
  const auto refusal = [&](instrument::AttributeValue v) -> std::string {
    run["speed_check_ns"] = std::move(v);
    try {
      instrument::calibration_speed_check_ns(doc, "tycho", "/tycho", "cal.h5");
    } catch (const instrument::InputError& e) {
      return e.what();
    }
    return "no error";
  };
  CHECK(refusal(std::string("fast")) ==
        "cal.h5:/tycho/speed_check_ns: a number, ns per unit of the run's speed check, in [0.001, 1e+09]");
  CHECK(refusal(-3.0) == "cal.h5:/tycho/speed_check_ns: ns per unit of the run's speed check in [0.001, 1e+09]; got -3");
  // Another app's file is refused by name, as every calibration read does.
  run["speed_check_ns"] = 24.5;
  doc.run.info.app = "multigrid";
  CHECK(refusal(24.5).find("a tycho results file with a calibration (this one is from") != std::string::npos);
}
