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
// superstep's comm+sync is 10 us (process 1 computes 10 us and enters last). `pops`: the
// registrations each superstep pops (none where not given), as format 3 records them.
struct Step {
  int bytes0_out, bytes1_out, gets0;
};
Profile profile_of(const std::vector<Step>& steps, const std::vector<int>& pops = {}) {
  std::string text =
      "superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,"
      "msgs_out,msgs_in,gets_out,pushes,pops\n";
  double t = 0;
  for (std::size_t i = 0; i < steps.size(); ++i) {
    const Step& s = steps[i];
    const int popped = i < pops.size() ? pops[i] : 0;
    char row[400];
    std::snprintf(row, sizeof row, "%zu,0,s%zu,%.6f,%.6f,%.6f,0,0.000020,%d,%d,%d,%d,%d,0,%d\n", i, i, t, t,
                  t + 20e-6, s.bytes0_out, s.bytes1_out, s.bytes0_out ? 1 : 0, s.bytes1_out ? 1 : 0, s.gets0,
                  popped);
    text += row;
    std::snprintf(row, sizeof row, "%zu,1,s%zu,%.6f,%.6f,%.6f,0.000010,0.000010,%d,%d,%d,%d,0,0,%d\n", i, i, t,
                  t + 10e-6, t + 20e-6, s.bytes1_out, s.bytes0_out, s.bytes1_out ? 1 : 0, s.bytes0_out ? 1 : 0,
                  popped);
    text += row;
    t += 20e-6;
  }
  return parse_profile(text, "made.csv");
}

// The first pop: 1.8 us, 0.8 over the empty superstep.
const std::string kFirstPop = "bsp.first_use.pop_seconds = 1.8e-6\n";

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
  // A third superstep, empty, that pops: + the empty superstep's curve and the first pop's 0.8
  // us, with a machine that has the pop figure.
  instrument::Comparison p;
  add_bsp_comparison(p, profile_of({{0, 0, 0}, {2000, 2000, 0}, {2000, 0, 0}, {0, 0, 0}}, {0, 0, 0, 2}),
                     read_text("totals_pop", kBase + kFirstUse + kFirstPop));
  double with_pop = -1;
  for (const instrument::ComparisonRow& r : p.rows())
    if (r.term == "comm+sync total, by pattern") with_pop = r.modelled;
  CHECK(with_pop == Approx(curve + 1.4e-6 + comm_sync_by_pattern(m.curves, StepPattern::none, 0) + 0.8e-6)
                        .epsilon(1e-9));
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

TEST_CASE("first_use: the first superstep that pops pays the first pop's excess, once") {
  const BspMachine m = read_text("pop", kBase + kFirstUse + kFirstPop);
  CHECK(first_pop_excess(m) == Approx(0.8e-6).epsilon(1e-9));
  // 0 registration (none), 1 exchange, 2 pops (none), 3 pops again, 4 exchange
  const std::vector<Step> steps = {{0, 0, 0}, {2000, 2000, 0}, {0, 0, 0}, {0, 0, 0}, {2000, 2000, 0}};
  const std::vector<double> e = first_use_extras(m, profile_of(steps, {0, 0, 2, 1, 0}));
  REQUIRE(e.size() == 5);
  CHECK(e[0] == Approx(0.5e-6).epsilon(1e-9));
  CHECK(e[1] == Approx(0.7e-6).epsilon(1e-9));
  CHECK(e[2] == Approx(0.8e-6).epsilon(1e-9));
  CHECK(e[3] == 0);  // the second pop is not a first use
  CHECK(e[4] == 0);
  // A first exchange that also pops pays both; superstep 0 popping pays both too.
  const std::vector<double> both = first_use_extras(m, profile_of(steps, {0, 1, 0, 0, 0}));
  CHECK(both[1] == Approx(0.7e-6 + 0.8e-6).epsilon(1e-9));
  CHECK(both[2] == 0);
  const std::vector<double> at0 = first_use_extras(m, profile_of(steps, {1, 0, 0, 0, 0}));
  CHECK(at0[0] == Approx(0.5e-6 + 0.8e-6).epsilon(1e-9));
  // No pop in the profile (or a format-2 profile, which records none): no pop term.
  CHECK(first_use_extras(m, profile_of(steps))[2] == 0);
  // A machine file without the key (before it existed): no pop term, the others as before.
  const BspMachine older = read_text("pop_older", kBase + kFirstUse);
  CHECK(older.first_use.pop == 0);
  CHECK(first_pop_excess(older) == 0);
  const std::vector<double> o = first_use_extras(older, profile_of(steps, {0, 0, 2, 1, 0}));
  CHECK(o[1] == Approx(0.7e-6).epsilon(1e-9));
  CHECK(o[2] == 0);
  // A first pop measured faster than the empty superstep: no excess, not a refund.
  CHECK(first_pop_excess(read_text("pop_fast", kBase + kFirstUse + "bsp.first_use.pop_seconds = 0.5e-6\n")) == 0);
}

TEST_CASE("first_use: the pop key round-trips, and alone or negative is refused in one line") {
  const BspMachine m = read_text("pop_trip", kBase + kFirstUse + kFirstPop);
  const std::string path = "unit_first_use_pop_roundtrip.machine";
  std::remove(path.c_str());
  write_machine_file(path, m, "test");
  const BspMachine back = read_machine_file(path);
  std::remove(path.c_str());
  CHECK(back.first_use.pop == m.first_use.pop);
  CHECK(back.extra.count("bsp.first_use.pop_seconds") == 0);
  const std::string alone = read_error("pop_alone", kBase + kFirstPop);
  CHECK(alone == "unit_first_use_pop_alone.machine:bsp.first_use.pop_seconds: bsp.first_use.pop_seconds "
                 "needs the other bsp.first_use.* keys");
  const std::string negative = read_error("pop_negative", kBase + kFirstUse + "bsp.first_use.pop_seconds = -1e-6\n");
  CHECK(negative.find('\n') == std::string::npos);
  CHECK(negative.find("unit_first_use_pop_negative.machine:bsp.first_use.pop_seconds: bsp.first_use.pop_seconds "
                      "must be a finite number in [0, 100] s; got") == 0);
}

TEST_CASE("first_use: a figure over 20x its back-to-back cost is named as disturbed") {
  // kBase: empty 1 us; at 2048 B one way 3, exchange 4, gets 5 us.
  const BspMachine m = read_text("calm", kBase + kFirstUse + kFirstPop);
  CHECK(std::string(disturbed_first_use(m.first_use, m.curves)).empty());
  FirstUseCosts u = m.first_use;
  u.gets = 100e-6;  // exactly 20x the gets curve: a slow first use, kept
  CHECK(std::string(disturbed_first_use(u, m.curves)).empty());
  u.gets = 328e-6;  // a descheduled process
  CHECK(std::string(disturbed_first_use(u, m.curves)) == "gets");
  u = m.first_use;
  u.pop = 21e-6;
  CHECK(std::string(disturbed_first_use(u, m.curves)) == "pop");
  u = m.first_use;
  u.first_superstep = 25e-6;
  CHECK(std::string(disturbed_first_use(u, m.curves)) == "first_superstep");
  u = m.first_use;
  u.exchange = 90e-6;
  CHECK(std::string(disturbed_first_use(u, m.curves)) == "exchange");
  // No figures, or no curves to judge them by: nothing is named.
  CHECK(std::string(disturbed_first_use(FirstUseCosts{}, m.curves)).empty());
  CHECK(std::string(disturbed_first_use(u, SuperstepCurves{})).empty());
}
