// The gap term and the working-set term of a superstep's comm+sync (after_gap.hpp,
// after_stream.hpp) and the machine-file keys of the after-gap and after-stream costs
// (machine_params.hpp), on hand-made machine files worked by hand. No MPI, no timing.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "bsplib/model/after_gap.hpp"
#include "bsplib/model/after_stream.hpp"
#include "bsplib/model/cost_model.hpp"
#include "bsplib/model/machine_params.hpp"
#include "machine_text.hpp"
#include "bsplib/model/profile_table.hpp"
#include "bsplib/model/superstep_model.hpp"

using namespace bspmodel;

namespace {

// l = 1 us, g = 1 ns/B, N1/2 = 0; curves: one way 2 us at 8 B and 3 us at 1000 B. After-gap
// costs at gaps 0, 10 us, 100 us, 1 ms, 10 ms: empty 1 1 1 1 4 us, 64 B 1 1 1 2 5 us, 2 KiB
// 1 1 1 3 6 us, so their mean is 1 1 1 2 5 us.
const std::string kBase =
    "format = suite-machine-1\nbsp.p = 2\nbsp.l_seconds = 1e-6\nbsp.g_seconds_per_byte = 1e-9\n"
    "bsp.empty_superstep_seconds = 1e-6\nbsp.curve.h_bytes = 8 1000\n"
    "bsp.curve.one_way_seconds = 2e-6 3e-6\nbsp.curve.exchange_seconds = 2e-6 3e-6\n"
    "bsp.curve.gets_seconds = 2e-6 3e-6\n";
const std::string kGaps =
    "bsp.after_gap.gap_seconds = 0 1e-5 1e-4 1e-3 1e-2\n"
    "bsp.after_gap.empty_seconds = 1e-6 1e-6 1e-6 1e-6 4e-6\n"
    "bsp.after_gap.one_way_64_seconds = 1e-6 1e-6 1e-6 2e-6 5e-6\n"
    "bsp.after_gap.one_way_2048_seconds = 1e-6 1e-6 1e-6 3e-6 6e-6\n";

// After-stream costs at 0, 1 MiB, 4 MiB, 16 MiB, 64 MiB: empty 1 1 2 3 5 us, 64 B 1 1 2 4 6 us,
// 2 KiB 1 1 2 5 7 us, so their mean is 1 1 2 4 6 us.
const std::string kStreams =
    "bsp.after_stream.working_set_bytes = 0 1048576 4194304 16777216 67108864\n"
    "bsp.after_stream.empty_seconds = 1e-6 1e-6 2e-6 3e-6 5e-6\n"
    "bsp.after_stream.one_way_64_seconds = 1e-6 1e-6 2e-6 4e-6 6e-6\n"
    "bsp.after_stream.one_way_2048_seconds = 1e-6 1e-6 2e-6 5e-6 7e-6\n";
constexpr double MiB = 1048576;

BspMachine read_text(const std::string& name, const std::string& text) { return read_machine_text("unit_after_gap_", name, text); }

std::string read_error(const std::string& name, const std::string& text) {
  return machine_text_error("unit_after_gap_", name, text);
}

// A one-way superstep of 500 B from process 0 to 1 in which process 0 entered the sync at
// 100 us and waited (220 us in it) and process 1, the last to enter, computed 316 us and
// spent 4 us in it: comm+sync 4 us, the gap of the last to enter 316 us.
SuperstepSummary late_step() {
  const std::string text =
      "superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,"
      "msgs_out,msgs_in,gets_out\n"
      "0,0,x,0,0.000100,0.000320,0.000100,0.000220,500,0,1,0,0\n"
      "0,1,x,0,0.000316,0.000320,0.000316,0.000004,0,500,0,1,0\n";
  return parse_profile(text, "made.csv").steps.at(0);
}

}  // namespace

TEST_CASE("after_gap: linear from 0 to the first gap, linear in log gap between, held beyond") {
  const BspMachine m = read_text("good", kBase + kGaps);
  REQUIRE(!m.after_gap.none());
  CHECK(after_gap_extra(m.after_gap, 0) == 0);
  CHECK(after_gap_extra(m.after_gap, 5e-6) == Approx(0).margin(1e-15));  // 1 us to 1 us
  // sqrt(1e-4 x 1e-3): halfway in log between 1 us and 2 us
  CHECK(after_gap_extra(m.after_gap, std::sqrt(1e-4 * 1e-3)) == Approx(0.5e-6).epsilon(1e-9));
  CHECK(after_gap_extra(m.after_gap, 1e-3) == Approx(1e-6).epsilon(1e-12));
  CHECK(after_gap_extra(m.after_gap, 1e-2) == Approx(4e-6).epsilon(1e-12));
  CHECK(after_gap_extra(m.after_gap, 1.0) == Approx(4e-6).epsilon(1e-12));  // held
  // A cost after a gap below the one back to back (noise): the curve dips, the extra stays 0.
  AfterGapCosts a;
  a.gap_seconds = {0, 1e-5, 1e-3};
  a.empty = a.one_way_64 = a.one_way_2048 = {2e-6, 1e-6, 4e-6};
  CHECK(after_gap_cost(a, 2.5e-6) == Approx(1.75e-6).epsilon(1e-12));  // linear from 0 to 10 us
  CHECK(after_gap_extra(a, 2.5e-6) == 0);
  CHECK(after_gap_extra(a, 1e-4) == Approx(0.5e-6).epsilon(1e-12));  // 2.5 us, halfway in log
  CHECK(after_gap_extra(AfterGapCosts{}, 1e-2) == 0);  // no figures: nothing charged
}

TEST_CASE("after_gap: the last process to enter gives the gap; both models add the term") {
  const BspMachine m = read_text("priced", kBase + kGaps);
  const SuperstepSummary s = late_step();
  REQUIRE(s.comm_sync == Approx(4e-6).epsilon(1e-6));
  CHECK(gap_of_last_to_enter(s) == Approx(316e-6).epsilon(1e-9));
  // at 316 us: 1 us + log10(3.16) x (2 - 1) us, less 1 us at 0
  const double extra = std::log10(3.16) * 1e-6;
  CHECK(after_gap_extra(m.after_gap, gap_of_last_to_enter(s)) == Approx(extra).epsilon(1e-9));
  // eq. 3: l + h g = 1 us + 500 ns; by pattern (one way, 500 B): 2 + (500 - 8) / 992 us
  CHECK(comm_sync_eq3_after_gap(m, s) == Approx(1.5e-6 + extra).epsilon(1e-9));
  CHECK(comm_sync_by_pattern_after_gap(m, s) == Approx(2e-6 + 492.0 / 992 * 1e-6 + extra).epsilon(1e-9));
  // An older machine file (no after-gap keys) prices as before.
  const BspMachine old = read_text("old", kBase);
  CHECK(old.after_gap.none());
  CHECK(comm_sync_eq3_after_gap(old, s) == comm_sync_granular(old, s.h_bytes));
  CHECK(comm_sync_by_pattern_after_gap(old, s) == comm_sync_by_pattern(old.curves, pattern_of(s), s.h_bytes));
}

TEST_CASE("after_gap: the keys round-trip, and bad ones are refused in one line naming the key") {
  BspMachine m = read_text("trip", kBase + kGaps);
  const std::string path = "unit_after_gap_roundtrip.machine";
  std::remove(path.c_str());
  write_machine_file(path, m, "test");
  const BspMachine back = read_machine_file(path);
  std::remove(path.c_str());
  CHECK(back.after_gap.gap_seconds == m.after_gap.gap_seconds);
  CHECK(back.after_gap.empty == m.after_gap.empty);
  CHECK(back.after_gap.one_way_64 == m.after_gap.one_way_64);
  CHECK(back.after_gap.one_way_2048 == m.after_gap.one_way_2048);
  CHECK(back.extra.count("bsp.after_gap.gap_seconds") == 0);

  auto edited = [&](const std::string& from, const std::string& to) {
    std::string text = kBase + kGaps;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  const std::vector<std::string> errors = {
      read_error("missing", edited("bsp.after_gap.one_way_64_seconds = 1e-6 1e-6 1e-6 2e-6 5e-6\n", "")),
      read_error("short", edited("1e-6 1e-6 1e-6 3e-6 6e-6", "1e-6 1e-6 1e-6 3e-6")),
      read_error("not_zero", edited("gap_seconds = 0 1e-5", "gap_seconds = 1e-6 1e-5")),
      read_error("falling", edited("1e-4 1e-3 1e-2", "1e-3 1e-4 1e-2")),
      read_error("negative", edited("empty_seconds = 1e-6 1e-6", "empty_seconds = 1e-6 -1e-6")),
      read_error("junk", edited("1e-6 1e-6 1e-6 1e-6 4e-6", "1e-6 1e-6 1e-6 1e-6 4e-6us")),
      read_error("empty", edited("gap_seconds = 0 1e-5 1e-4 1e-3 1e-2", "gap_seconds = ")),
  };
  for (const std::string& e : errors) CHECK(e.find('\n') == std::string::npos);
  CHECK(errors[0] == "unit_after_gap_missing.machine:bsp.after_gap.*: the after-gap costs need all of "
                     "bsp.after_gap.gap_seconds, bsp.after_gap.empty_seconds, "
                     "bsp.after_gap.one_way_64_seconds and bsp.after_gap.one_way_2048_seconds, or none of them");
  CHECK(errors[1] == "unit_after_gap_short.machine:bsp.after_gap.one_way_2048_seconds: "
                     "bsp.after_gap.one_way_2048_seconds must hold one time per gap of "
                     "bsp.after_gap.gap_seconds (5); got 4");
  CHECK(errors[2] == "unit_after_gap_not_zero.machine:bsp.after_gap.gap_seconds item 1: "
                     "bsp.after_gap.gap_seconds must be numbers in [0, 100] s, 0 first, strictly rising; got 1e-06");
  CHECK(errors[3] == "unit_after_gap_falling.machine:bsp.after_gap.gap_seconds item 4: "
                     "bsp.after_gap.gap_seconds must be numbers in [0, 100] s, 0 first, strictly rising; got 1e-04");
  CHECK(errors[4].find("unit_after_gap_negative.machine:bsp.after_gap.empty_seconds item 2: "
                       "bsp.after_gap.empty_seconds must be a finite number in [0, 100] s; got") == 0);
  CHECK(errors[5].find("unit_after_gap_junk.machine:bsp.after_gap.empty_seconds item 5") == 0);
  CHECK(errors[6] == "unit_after_gap_empty.machine:line 10: expected a value after 'bsp.after_gap.gap_seconds ='");
}

TEST_CASE("after_stream: linear from 0 to the first working set, linear in log N between, held beyond") {
  const BspMachine m = read_text("stream_good", kBase + kGaps + kStreams);
  REQUIRE(!m.after_stream.none());
  CHECK(after_stream_extra(m.after_stream, 0) == 0);
  CHECK(after_stream_extra(m.after_stream, 0.5 * MiB) == Approx(0).margin(1e-15));  // 1 us to 1 us
  CHECK(after_stream_extra(m.after_stream, 2 * MiB) == Approx(0.5e-6).epsilon(1e-9));  // halfway in log
  CHECK(after_stream_extra(m.after_stream, 16 * MiB) == Approx(3e-6).epsilon(1e-12));
  CHECK(after_stream_extra(m.after_stream, 32 * MiB) == Approx(4e-6).epsilon(1e-9));
  CHECK(after_stream_extra(m.after_stream, 1024 * MiB) == Approx(5e-6).epsilon(1e-12));  // held
  // A cost below the one back to back (noise) charges nothing.
  AfterStreamCosts a;
  a.working_set_bytes = {0, MiB, 16 * MiB};
  a.empty = a.one_way_64 = a.one_way_2048 = {2e-6, 1e-6, 4e-6};
  CHECK(after_stream_cost(a, 0.25 * MiB) == Approx(1.75e-6).epsilon(1e-12));  // linear from 0 to 1 MiB
  CHECK(after_stream_extra(a, 0.25 * MiB) == 0);
  CHECK(after_stream_extra(a, 4 * MiB) == Approx(0.5e-6).epsilon(1e-12));  // 2.5 us, halfway in log
  CHECK(after_stream_extra(AfterStreamCosts{}, 64 * MiB) == 0);  // no figures: nothing charged
}

TEST_CASE("after_stream: the larger of the gap and the working-set term; both models add it") {
  const BspMachine m = read_text("stream_priced", kBase + kGaps + kStreams);
  const SuperstepSummary s = late_step();
  const double gap = gap_of_last_to_enter(s);  // 316 us: the gap term log10(3.16) us
  const double gap_extra = std::log10(3.16) * 1e-6;
  REQUIRE(after_gap_extra(m.after_gap, gap) == Approx(gap_extra).epsilon(1e-9));
  // A small working set: the gap term is the larger; a large one: the working set's.
  CHECK(cold_sync_extra(m, gap, 0) == Approx(gap_extra).epsilon(1e-9));
  // 1.5 MiB: log4(1.5) = 0.29 us below the gap's 0.50 us
  CHECK(cold_sync_extra(m, gap, 1.5 * MiB) == Approx(gap_extra).epsilon(1e-9));
  CHECK(cold_sync_extra(m, gap, 16 * MiB) == Approx(3e-6).epsilon(1e-12));
  // eq. 3: l + h g = 1 us + 500 ns; by pattern (one way, 500 B): 2 + (500 - 8) / 992 us
  CHECK(comm_sync_eq3_cold(m, s, 16 * MiB) == Approx(1.5e-6 + 3e-6).epsilon(1e-9));
  CHECK(comm_sync_by_pattern_cold(m, s, 16 * MiB) == Approx(2e-6 + 492.0 / 992 * 1e-6 + 3e-6).epsilon(1e-9));
  // Working set 0 prices as the gap term alone (after_gap.hpp's models).
  CHECK(comm_sync_eq3_cold(m, s, 0) == comm_sync_eq3_after_gap(m, s));
  CHECK(comm_sync_by_pattern_cold(m, s, 0) == comm_sync_by_pattern_after_gap(m, s));
  // A file without after-stream keys (older probes) prices as after_gap.hpp did.
  const BspMachine old = read_text("stream_old", kBase + kGaps);
  CHECK(old.after_stream.none());
  CHECK(comm_sync_eq3_cold(old, s, 64 * MiB) == comm_sync_eq3_after_gap(old, s));
  CHECK(comm_sync_by_pattern_cold(old, s, 64 * MiB) == comm_sync_by_pattern_after_gap(old, s));
}

TEST_CASE("after_stream: the keys round-trip, and bad ones are refused in one line naming the key") {
  const BspMachine m = read_text("stream_trip", kBase + kGaps + kStreams);
  const std::string path = "unit_after_gap_stream_roundtrip.machine";
  std::remove(path.c_str());
  write_machine_file(path, m, "test");
  const BspMachine back = read_machine_file(path);
  std::remove(path.c_str());
  CHECK(back.after_stream.working_set_bytes == m.after_stream.working_set_bytes);
  CHECK(back.after_stream.empty == m.after_stream.empty);
  CHECK(back.after_stream.one_way_64 == m.after_stream.one_way_64);
  CHECK(back.after_stream.one_way_2048 == m.after_stream.one_way_2048);
  CHECK(back.extra.count("bsp.after_stream.working_set_bytes") == 0);

  auto edited = [&](const std::string& from, const std::string& to) {
    std::string text = kBase + kGaps + kStreams;
    text.replace(text.find(from), from.size(), to);
    return text;
  };
  const std::vector<std::string> errors = {
      read_error("stream_missing", edited("bsp.after_stream.one_way_64_seconds = 1e-6 1e-6 2e-6 4e-6 6e-6\n", "")),
      read_error("stream_short", edited("1e-6 1e-6 2e-6 5e-6 7e-6", "1e-6 1e-6 2e-6 5e-6")),
      read_error("stream_not_zero", edited("working_set_bytes = 0 1048576", "working_set_bytes = 4096 1048576")),
      read_error("stream_falling", edited("4194304 16777216", "16777216 4194304")),
      read_error("stream_fraction", edited("1048576 4194304", "1048576.5 4194304")),
      read_error("stream_negative", edited("after_stream.empty_seconds = 1e-6 1e-6", "after_stream.empty_seconds = 1e-6 -1e-6")),
  };
  for (const std::string& e : errors) CHECK(e.find('\n') == std::string::npos);
  CHECK(errors[0] == "unit_after_gap_stream_missing.machine:bsp.after_stream.*: the after-stream costs need all of "
                     "bsp.after_stream.working_set_bytes, bsp.after_stream.empty_seconds, "
                     "bsp.after_stream.one_way_64_seconds and bsp.after_stream.one_way_2048_seconds, or none of them");
  CHECK(errors[1] == "unit_after_gap_stream_short.machine:bsp.after_stream.one_way_2048_seconds: "
                     "bsp.after_stream.one_way_2048_seconds must hold one time per working set of "
                     "bsp.after_stream.working_set_bytes (5); got 4");
  CHECK(errors[2] == "unit_after_gap_stream_not_zero.machine:bsp.after_stream.working_set_bytes item 1: "
                     "bsp.after_stream.working_set_bytes must be whole numbers of bytes in [0, 2^50], 0 first, "
                     "strictly rising; got 4096");
  CHECK(errors[3] == "unit_after_gap_stream_falling.machine:bsp.after_stream.working_set_bytes item 4: "
                     "bsp.after_stream.working_set_bytes must be whole numbers of bytes in [0, 2^50], 0 first, "
                     "strictly rising; got 4194304");
  CHECK(errors[4].find("unit_after_gap_stream_fraction.machine:bsp.after_stream.working_set_bytes item 2: ") == 0);
  CHECK(errors[5].find("unit_after_gap_stream_negative.machine:bsp.after_stream.empty_seconds item 2: "
                       "bsp.after_stream.empty_seconds must be a finite number in [0, 100] s; got") == 0);
}
