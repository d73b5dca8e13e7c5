// The library's superstep model (superstep_model.hpp) and the machine-file keys of its
// curves (machine_params.hpp), on hand-worked cases. No MPI, no timing.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "bsplib/model/machine_params.hpp"
#include "machine_text.hpp"
#include "bsplib/model/profile_table.hpp"
#include "bsplib/model/superstep_model.hpp"

using namespace bspmodel;

namespace {

// A superstep of two processes with the given bytes out/in and gets asked, reduced as the
// profile reader reduces it.
SuperstepSummary step(double out0, double in0, double out1, double in1, double gets0 = 0) {
  const std::string text =
      "superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,"
      "msgs_out,msgs_in,gets_out\n"
      "0,0,x,0,0.000001,0.000003,0.000001,0.000002," + std::to_string(long(out0)) + "," +
      std::to_string(long(in0)) + ",1,1," + std::to_string(long(gets0)) + "\n"
      "0,1,x,0,0.000001,0.000003,0.000001,0.000002," + std::to_string(long(out1)) + "," +
      std::to_string(long(in1)) + ",1,1,0\n";
  return parse_profile(text, "made.csv").steps.at(0);
}

// Three points and a step: h = 100, 1000, 1008 B; one way 2, 3, 5 us; exchange 4, 6, 6 us;
// gets 10, 10, 12 us; the empty superstep 1 us.
SuperstepCurves curves() {
  SuperstepCurves c;
  c.empty_seconds = 1e-6;
  c.h_bytes = {100, 1000, 1008};
  c.one_way = {2e-6, 3e-6, 5e-6};
  c.exchange = {4e-6, 6e-6, 6e-6};
  c.gets = {10e-6, 10e-6, 12e-6};
  return c;
}

const std::string kMachine =
    "format = suite-machine-1\nbsp.l_seconds = 1e-6\nbsp.g_seconds_per_byte = 1e-9\n"
    "bsp.empty_superstep_seconds = 1e-6\n";

std::string read_error(const std::string& name, const std::string& text) {
  return machine_text_error("unit_superstep_model_", name, text);
}

}  // namespace

TEST_CASE("a superstep's pattern: gets first, then data both ways, then one way, else none") {
  CHECK(pattern_of(step(0, 0, 0, 0)) == StepPattern::none);
  CHECK(pattern_of(step(2000, 0, 0, 2000)) == StepPattern::one_way);
  CHECK(pattern_of(step(2000, 2000, 2000, 2000)) == StepPattern::exchange);
  // process 0 sends 10 and receives 5: it both sent and received
  CHECK(pattern_of(step(10, 5, 5, 10)) == StepPattern::exchange);
  // a get of 2000 B: the owner sends the reply, the asker receives it; the bytes alone look
  // like a put one way
  CHECK(pattern_of(step(0, 2000, 2000, 0, 1)) == StepPattern::gets);
  CHECK(std::string(pattern_name(StepPattern::one_way)) == "one-way");
}

TEST_CASE("interpolation: flat below the first point, linear between, the last slope beyond") {
  const std::vector<double> h{100, 1000, 1008}, t{2, 3, 5};
  CHECK(interpolate_curve(h, t, 0) == 2);
  CHECK(interpolate_curve(h, t, 100) == 2);
  CHECK(interpolate_curve(h, t, 550) == Approx(2.5));   // half way from 100 to 1000
  CHECK(interpolate_curve(h, t, 1000) == Approx(3));
  CHECK(interpolate_curve(h, t, 1004) == Approx(4));    // across the step, 8 B wide
  CHECK(interpolate_curve(h, t, 1008) == Approx(5));
  CHECK(interpolate_curve(h, t, 1016) == Approx(7));    // slope 2/8 per byte beyond
  // a last segment that falls (a cheaper route for large messages) is not extended down
  CHECK(interpolate_curve({100, 200}, {5, 1}, 1000) == Approx(1));
  CHECK(interpolate_curve({100}, {5}, 1000) == 5);
}

TEST_CASE("comm+sync by pattern reads the pattern's curve at the superstep's h") {
  const SuperstepCurves c = curves();
  CHECK(comm_sync_by_pattern(c, StepPattern::none, 0) == 1e-6);
  CHECK(comm_sync_by_pattern(c, StepPattern::one_way, 550) == Approx(2.5e-6));
  CHECK(comm_sync_by_pattern(c, StepPattern::exchange, 550) == Approx(5e-6));
  CHECK(comm_sync_by_pattern(c, StepPattern::gets, 1004) == Approx(11e-6));
}

TEST_CASE("machine files: the curves round-trip, and bad ones are refused with the key") {
  BspMachine m;
  m.name = "made";
  m.p = 2;
  m.l_seconds = 1e-6;
  m.g_seconds_per_byte = 1e-9;
  m.curves = curves();
  const std::string path = "unit_superstep_model_roundtrip.machine";
  std::remove(path.c_str());
  write_machine_file(path, m, "test");
  const BspMachine back = read_machine_file(path);
  std::remove(path.c_str());
  CHECK(back.curves.empty_seconds == m.curves.empty_seconds);
  CHECK(back.curves.h_bytes == m.curves.h_bytes);
  CHECK(back.curves.one_way == m.curves.one_way);
  CHECK(back.curves.exchange == m.curves.exchange);
  CHECK(back.curves.gets == m.curves.gets);
  CHECK(back.extra.count("bsp.curve.h_bytes") == 0);

  // a file without curves (the paper's machines): eq. 3 only
  CHECK(read_error("none", kMachine).empty());
  const std::string lists =
      "bsp.curve.h_bytes = 8 64\nbsp.curve.one_way_seconds = 1e-6 2e-6\n"
      "bsp.curve.exchange_seconds = 1e-6 2e-6\nbsp.curve.gets_seconds = 1e-6 2e-6\n";
  CHECK(read_error("good", kMachine + lists).empty());
  auto edited = [&](const std::string& from, const std::string& to) {
    std::string text = kMachine + lists;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  CHECK(read_error("missing", edited("bsp.curve.gets_seconds = 1e-6 2e-6\n", ""))
            .find("the superstep curves need all of") != std::string::npos);
  CHECK(read_error("short", edited("gets_seconds = 1e-6 2e-6", "gets_seconds = 1e-6")) ==
        "unit_superstep_model_short.machine:bsp.curve.gets_seconds: bsp.curve.gets_seconds must "
        "hold one time per h of bsp.curve.h_bytes (2); got 1");
  CHECK(read_error("falling", edited("h_bytes = 8 64", "h_bytes = 64 8")) ==
        "unit_superstep_model_falling.machine:bsp.curve.h_bytes item 2: bsp.curve.h_bytes must "
        "be whole numbers in [1, 2147483647] bytes, strictly rising; got 8");
  CHECK(read_error("negative", edited("one_way_seconds = 1e-6 2e-6", "one_way_seconds = 1e-6 -2e-6"))
            .find("bsp.curve.one_way_seconds item 2: bsp.curve.one_way_seconds must be a finite "
                  "number in [0, 100] s; got") != std::string::npos);
  CHECK(read_error("junk", edited("exchange_seconds = 1e-6 2e-6", "exchange_seconds = 1e-6 2e-6x"))
            .find("bsp.curve.exchange_seconds item 2") != std::string::npos);
}
