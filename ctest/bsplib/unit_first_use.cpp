// The first-use term of a short run's comm+sync (first_use.hpp) and its machine-file keys
// (machine_params.hpp), on hand-made machine files and profiles worked by hand. No MPI, no
// timing.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "bsplib/model/after_gap.hpp"
#include "bsplib/model/first_use.hpp"
#include "bsplib/model/machine_params.hpp"
#include "machine_text.hpp"
#include "bsplib/model/profile_comparison.hpp"
#include "bsplib/model/profile_table.hpp"
#include "bsplib/model/superstep_model.hpp"
#include "instrument/comparison.hpp"

using namespace bspmodel;

namespace {

// Empty superstep 1 us; curves at 8 B and 2048 B: one way 2 and 3 us, exchange 3 and 4 us,
// gets 4 and 5 us. No after-gap figures: only the first-use term is added.
const std::string kBase =
    "format = suite-machine-1\nbsp.p = 2\nbsp.l_seconds = 1e-6\nbsp.g_seconds_per_byte = 1e-9\n"
    "bsp.empty_superstep_seconds = 1e-6\nbsp.curve.h_bytes = 8 2048\n"
    "bsp.curve.one_way_seconds = 2e-6 3e-6\nbsp.curve.exchange_seconds = 3e-6 4e-6\n"
    "bsp.curve.gets_seconds = 4e-6 5e-6\n";
// At 2048 B: first superstep 1.5 us (0.5 over the empty one), exchange 4.7 (0.7 over its
// curve), one way 3.2 (0.2 over), gets 4.0 (below its curve's 5: no excess).
const std::string kFirstUse =
    "bsp.first_use.h_bytes = 2048\nbsp.first_use.first_superstep_seconds = 1.5e-6\n"
    "bsp.first_use.exchange_seconds = 4.7e-6\nbsp.first_use.one_way_seconds = 3.2e-6\n"
    "bsp.first_use.gets_seconds = 4e-6\n";

BspMachine read_text(const std::string& name, const std::string& text) { return read_machine_text("unit_first_use_", name, text); }

std::string read_error(const std::string& name, const std::string& text) {
  return machine_text_error("unit_first_use_", name, text);
}

// Two processes, no computation; per superstep what each sent and received and whether
// process 0 asked a get: the pattern (superstep_model.hpp) follows from these. Each
// superstep's comm+sync is 10 us (process 1 computes 10 us and enters last).
struct Step {
  int bytes0_out, bytes1_out, gets0;
};
Profile profile_of(const std::vector<Step>& steps) {
  std::string text =
      "superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,"
      "msgs_out,msgs_in,gets_out\n";
  double t = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    char row[400];
    std::snprintf(row, sizeof row, "%zu,0,s%zu,%.6f,%.6f,%.6f,0,0.000020,%d,%d,%d,%d,%d\n", i, i, t, t,
                  t + 20e-6, s.bytes0_out, s.bytes1_out, s.bytes0_out ? 1 : 0, s.bytes1_out ? 1 : 0, s.gets0);
    text += row;
    std::snprintf(row, sizeof row, "%zu,1,s%zu,%.6f,%.6f,%.6f,0.000010,0.000010,%d,%d,%d,%d,0\n", i, i, t,
                  t + 10e-6, t + 20e-6, s.bytes1_out, s.bytes0_out, s.bytes1_out ? 1 : 0, s.bytes0_out ? 1 : 0);
    text += row;
    t += 20e-6;
  }
  return parse_profile(text, "made.csv");
}

}  // namespace

TEST_CASE("first_use: the excess of each first superstep over its back-to-back cost, never below 0") {
  const BspMachine m = read_text("excess", kBase + kFirstUse);
  REQUIRE_FALSE(m.first_use.none());
  CHECK(first_use_excess(m, StepPattern::none) == Approx(0.5e-6).epsilon(1e-9));
  CHECK(first_use_excess(m, StepPattern::exchange) == Approx(0.7e-6).epsilon(1e-9));
  CHECK(first_use_excess(m, StepPattern::one_way) == Approx(0.2e-6).epsilon(1e-9));
  CHECK(first_use_excess(m, StepPattern::gets) == 0);
  // An older file (no first-use keys), or one without curves, charges nothing.
  const BspMachine old = read_text("old", kBase);
  CHECK(old.first_use.none());
  CHECK(first_use_excess(old, StepPattern::none) == 0);
  BspMachine no_curves = m;
  no_curves.curves = SuperstepCurves{};
  CHECK(first_use_excess(no_curves, StepPattern::exchange) == 0);
}

TEST_CASE("first_use: superstep 0 and the first later superstep of each pattern pay it, no other") {
  const BspMachine m = read_text("extras", kBase + kFirstUse);
  // 0 registration (none), 1 exchange, 2 one way, 3 gets, 4 exchange, 5 none, 6 one way
  const Profile prof = profile_of({{0, 0, 0}, {2000, 2000, 0}, {2000, 0, 0}, {0, 2000, 1},
                                   {2000, 2000, 0}, {0, 0, 0}, {2000, 0, 0}});
  REQUIRE(prof.steps.size() == 7);
  REQUIRE(pattern_of(prof.steps[1]) == StepPattern::exchange);
  REQUIRE(pattern_of(prof.steps[2]) == StepPattern::one_way);
  REQUIRE(pattern_of(prof.steps[3]) == StepPattern::gets);
  const std::vector<double> e = first_use_extras(m, prof);
  REQUIRE(e.size() == 7);
  CHECK(e[0] == Approx(0.5e-6).epsilon(1e-9));
  CHECK(e[1] == Approx(0.7e-6).epsilon(1e-9));
  CHECK(e[2] == Approx(0.2e-6).epsilon(1e-9));
  CHECK(e[3] == 0);  // the gets' first use was measured below their curve
  CHECK(e[4] == 0);
  CHECK(e[5] == 0);
  CHECK(e[6] == 0);
  // A program whose first superstep already exchanges: that superstep pays the first
  // superstep's excess, and its pattern counts as used.
  const std::vector<double> f = first_use_extras(m, profile_of({{2000, 2000, 0}, {2000, 2000, 0}, {2000, 0, 0}}));
  CHECK(f[0] == Approx(0.5e-6).epsilon(1e-9));
  CHECK(f[1] == 0);
  CHECK(f[2] == Approx(0.2e-6).epsilon(1e-9));
  // Without figures: all zero.
  const std::vector<double> none = first_use_extras(read_text("none", kBase), prof);
  CHECK(none == std::vector<double>(7, 0.0));
}

TEST_CASE("first_use: the comparison's totals include the term") {
  const BspMachine m = read_text("totals", kBase + kFirstUse);
  const Profile prof = profile_of({{0, 0, 0}, {2000, 2000, 0}, {2000, 0, 0}});
  instrument::Comparison c;
  add_bsp_comparison(c, prof, m);
  double by_pattern = -1, measured = -1;
  for (const instrument::ComparisonRow& r : c.rows())
    if (r.term == "comm+sync total, by pattern") {
      by_pattern = r.modelled;
      measured = r.measured;
    }
  // back to back: 1 us (empty) + curve(exchange, 2000 B) + curve(one way, 2000 B); first use:
  // 0.5 + 0.7 + 0.2 us
  const double curve = comm_sync_by_pattern(m.curves, StepPattern::none, 0) +
                       comm_sync_by_pattern(m.curves, StepPattern::exchange, 2000) +
                       comm_sync_by_pattern(m.curves, StepPattern::one_way, 2000);
  CHECK(by_pattern == Approx(curve + 1.4e-6).epsilon(1e-9));
  CHECK(measured == Approx(30e-6).epsilon(1e-6));
}

TEST_CASE("first_use: the keys round-trip, and bad ones are refused in one line naming the key") {
  const BspMachine m = read_text("trip", kBase + kFirstUse);
  const std::string path = "unit_first_use_roundtrip.machine";
  std::remove(path.c_str());
  write_machine_file(path, m, "test");
  const BspMachine back = read_machine_file(path);
  std::remove(path.c_str());
  CHECK(back.first_use.h_bytes == 2048);
  CHECK(back.first_use.first_superstep == m.first_use.first_superstep);
  CHECK(back.first_use.exchange == m.first_use.exchange);
  CHECK(back.first_use.one_way == m.first_use.one_way);
  CHECK(back.first_use.gets == m.first_use.gets);
  CHECK(back.extra.count("bsp.first_use.h_bytes") == 0);

  auto edited = [&](const std::string& from, const std::string& to) {
    std::string text = kBase + kFirstUse;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  const std::vector<std::string> errors = {
      read_error("missing", edited("bsp.first_use.gets_seconds = 4e-6\n", "")),
      read_error("fraction", edited("h_bytes = 2048", "h_bytes = 2048.5")),
      read_error("zero_h", edited("h_bytes = 2048", "h_bytes = 0")),
      read_error("negative", edited("exchange_seconds = 4.7e-6", "exchange_seconds = -4.7e-6")),
      read_error("junk", edited("one_way_seconds = 3.2e-6", "one_way_seconds = 3.2us")),
  };
  for (const std::string& e : errors) CHECK(e.find('\n') == std::string::npos);
  CHECK(errors[0] == "unit_first_use_missing.machine:bsp.first_use.*: a fresh process's first supersteps need "
                     "all of bsp.first_use.h_bytes, bsp.first_use.first_superstep_seconds, "
                     "bsp.first_use.exchange_seconds, bsp.first_use.one_way_seconds and "
                     "bsp.first_use.gets_seconds, or none of them");
  CHECK(errors[1].find("unit_first_use_fraction.machine:bsp.first_use.h_bytes: bsp.first_use.h_bytes must be an "
                       "integer in") == 0);
  CHECK(errors[2].find("unit_first_use_zero_h.machine:bsp.first_use.h_bytes:") == 0);
  CHECK(errors[3].find("unit_first_use_negative.machine:bsp.first_use.exchange_seconds: "
                       "bsp.first_use.exchange_seconds must be a finite number in [0, 100] s; got") == 0);
  CHECK(errors[4].find("unit_first_use_junk.machine:line ") == 0);
  CHECK(errors[4].find("expected a number for 'bsp.first_use.one_way_seconds', got \"3.2us\"") != std::string::npos);
}
