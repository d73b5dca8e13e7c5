// The strict profile reader (parse_profile) and the number parsing under it, on hand-made
// CSV texts: what a good profile reduces to (values worked by hand), and for each kind of bad
// input the one message naming the place and the range.
#include <catch2/catch.hpp>

#include <string>

#include <cstdio>
#include <variant>

#include "../input_error_text.hpp"
#include "bsplib/model/profile_results.hpp"
#include "bsplib/model/profile_table.hpp"
#include "instrument/results_file.hpp"
#include "bsplib/model/strict_number.hpp"
#include "instrument/error.hpp"

using namespace bspmodel;

namespace {

const std::string kHeader =
    "superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,"
    "msgs_out,msgs_in,gets_out\n";
// Two processes, two supersteps. Superstep 0: w = 20 us (process 1), h = 2000 B (process 0
// sends 2000, process 1 receives 1500), comm+sync = the smaller t_exit - t_enter = 280 us.
// Superstep 1: w = 10 us, h = 0, comm+sync = 90 us. Process 1 asked 3 gets in superstep 0.
const std::string kRows =
    "0,0,shift,0.000000000,0.000010000,0.000300000,0.000010000,0.000290000,2000,1000,1,1,0\n"
    "0,1,shift,0.000000000,0.000020000,0.000300000,0.000020000,0.000280000,500,1500,1,1,3\n"
    "1,0,empty,0.000300000,0.000300000,0.000400000,0.000000000,0.000100000,0,0,0,0,0\n"
    "1,1,empty,0.000300000,0.000310000,0.000400000,0.000010000,0.000090000,0,0,0,0,0\n";
const std::string kFormat = "# format = bsplib-profile-2, nprocs = 2, times in seconds\n";

// The message parse_profile throws for `text`, or "" if it accepts it.
std::string error_of(const std::string& text) {
  return input_error_text([&] { parse_profile(text, "p.csv"); });
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  REQUIRE(at != std::string::npos);
  return text.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("a good profile reduces to w_max, h and comm+sync per superstep") {
  const Profile p = parse_profile(kFormat + kHeader + kRows, "p.csv");
  CHECK(p.file == "p.csv");
  CHECK(p.nprocs == 2);
  REQUIRE(p.steps.size() == 2);
  CHECK(p.steps[0].label == "shift");
  CHECK(p.steps[0].w_max == Approx(20e-6));
  CHECK(p.steps[0].h_bytes == 2000);
  CHECK(p.steps[0].total_bytes == 2500);
  CHECK(p.steps[0].comm_sync == Approx(280e-6));
  CHECK(p.steps[0].gets_max == 3);
  CHECK(p.steps[0].per_process[1].gets_out == 3);
  CHECK(p.steps[1].index == 1);
  CHECK(p.steps[1].gets_max == 0);
  CHECK(p.steps[1].w_max == Approx(10e-6));
  CHECK(p.steps[1].h_bytes == 0);
  CHECK(p.steps[1].comm_sync == Approx(90e-6));
  REQUIRE(p.steps[1].per_process.size() == 2);
  CHECK(p.steps[1].per_process[1].t_enter == Approx(310e-6));
}

// Format 3: the same rows with the registrations each superstep commits (pushes, pops).
const std::string kHeader3 =
    "superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,"
    "msgs_out,msgs_in,gets_out,pushes,pops\n";
const std::string kRows3 =
    "0,0,shift,0.000000000,0.000010000,0.000300000,0.000010000,0.000290000,2000,1000,1,1,0,2,0\n"
    "0,1,shift,0.000000000,0.000020000,0.000300000,0.000020000,0.000280000,500,1500,1,1,3,2,0\n"
    "1,0,empty,0.000300000,0.000300000,0.000400000,0.000000000,0.000100000,0,0,0,0,0,0,1\n"
    "1,1,empty,0.000300000,0.000310000,0.000400000,0.000010000,0.000090000,0,0,0,0,0,0,1\n";
const std::string kFormat3 = "# format = bsplib-profile-3, nprocs = 2, times in seconds\n";

TEST_CASE("format 3 carries the registrations; format 2 is read without them") {
  const Profile p = parse_profile(kFormat3 + kHeader3 + kRows3, "p.csv");
  CHECK(p.registrations_known);
  REQUIRE(p.steps.size() == 2);
  CHECK(p.steps[0].pushes == 2);
  CHECK(p.steps[0].pops == 0);
  CHECK(p.steps[1].pushes == 0);
  CHECK(p.steps[1].pops == 1);
  CHECK(p.steps[1].per_process[1].pops == 1);
  // the other fields as format 2 reads them
  CHECK(p.steps[0].gets_max == 3);
  CHECK(p.steps[0].comm_sync == Approx(280e-6));
  CHECK(p.steps[1].w_max == Approx(10e-6));
  // a label with commas: the last twelve fields are the numbers
  const Profile c = parse_profile(kFormat3 + kHeader3 + replaced(kRows3, "0,0,shift,", "0,0,a,b,"), "p.csv");
  CHECK(c.steps[0].label == "a,b");
  CHECK(c.steps[0].pushes == 2);
  // no format line: the header says which; neither: format 2, and format-3 rows are refused
  CHECK(parse_profile(kHeader3 + kRows3, "p.csv").steps[1].pops == 1);
  CHECK(parse_profile(kRows, "p.csv").steps.size() == 2);
  CHECK(error_of(kRows3).find("p.csv:line 1: expected t_begin <= t_enter <= t_exit") == 0);
  const Profile old = parse_profile(kFormat + kHeader + kRows, "p.csv");
  CHECK_FALSE(old.registrations_known);
  CHECK(old.steps[1].pops == 0);
  CHECK(old.steps[0].pushes == 0);
}

TEST_CASE("the results file has the registrations where the profile recorded them") {
  const std::string path = "unit_bsp_profile_registrations.h5";
  std::remove(path.c_str());
  write_profile_results(path, parse_profile(kFormat3 + kHeader3 + kRows3, "p.csv"), {});
  const instrument::ResultsDocument back = instrument::read_results(path);
  std::remove(path.c_str());
  const instrument::Array* pushes = back.extras.find_array("/bsp/process/pushes");
  const instrument::Array* pops = back.extras.find_array("/bsp/process/pops");
  REQUIRE(pushes);
  REQUIRE(pops);
  CHECK(pushes->shape == std::vector<std::size_t>{2, 2});  // [superstep][process]
  CHECK(std::get<std::vector<std::int64_t>>(pushes->values) == std::vector<std::int64_t>{2, 2, 0, 0});
  CHECK(std::get<std::vector<std::int64_t>>(pops->values) == std::vector<std::int64_t>{0, 0, 1, 1});
  // format 2: not recorded, so not written (zeros would read as "none")
  write_profile_results(path, parse_profile(kFormat + kHeader + kRows, "p.csv"), {});
  const instrument::ResultsDocument old = instrument::read_results(path);
  std::remove(path.c_str());
  CHECK(old.extras.find_array("/bsp/process/pops") == nullptr);
  CHECK(old.extras.find_array("/bsp/process/gets_out") != nullptr);
}

TEST_CASE("format 3 rows are refused when short, negative or under the other header") {
  const std::string all = kFormat3 + kHeader3 + kRows3;
  CHECK(error_of(replaced(all, ",0,0,0,0,0,1\n1,1,", ",0,0,0,0,0,-1\n1,1,")) ==
        "p.csv:line 5: pops must be an integer in [0, 9007199254740992] registrations; got \"-1\"");
  // a format-2 row in a format-3 file: two fields short (the label takes none of them)
  CHECK(error_of(replaced(all, ",1,1,0,2,0\n0,1,", ",1,1,0\n0,1,")) ==
        "p.csv:line 3: expected 15 comma-separated fields (superstep,pid,label,t_begin,t_enter,"
        "t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,msgs_out,msgs_in,gets_out,pushes,pops), "
        "got 13");
  // format 3's format line over format 2's header
  CHECK(error_of(kFormat3 + kHeader + kRows3).find("p.csv:line 2: expected the header "
                                                    "'superstep,pid,label,t_begin") == 0);
}

TEST_CASE("rows in any order, CRLF line ends, no format line, a label with commas") {
  std::string rows = kRows;
  rows = replaced(rows, "0,0,shift,", "0,0,a, b,c,");
  // superstep 1 first, process 1 before process 0, Windows line ends
  std::string text = kHeader;
  const std::size_t half = rows.find("1,0,empty");
  std::string second = rows.substr(half), first = rows.substr(0, half);
  for (const std::string& part : {second, first})
    for (std::size_t at = 0, nl; (nl = part.find('\n', at)) != std::string::npos; at = nl + 1)
      text.insert(kHeader.size(), part.substr(at, nl - at) + "\r\n");
  const Profile p = parse_profile(text, "p.csv");
  CHECK(p.nprocs == 2);
  REQUIRE(p.steps.size() == 2);
  CHECK(p.steps[0].label == "a, b,c");
  CHECK(p.steps[0].comm_sync == Approx(280e-6));
  CHECK(p.steps[1].label == "empty");
}

TEST_CASE("an empty profile is refused") {
  CHECK(error_of("") == "p.csv: no supersteps: expected one row per superstep and process "
                       "(a profile written by bsplib with BSP_PROFILE=<file>)");
  CHECK(error_of(kFormat + kHeader).find("p.csv: no supersteps") == 0);
}

TEST_CASE("a missing or repeated row is refused, naming superstep and process") {
  const std::string all = kFormat + kHeader + kRows;
  // process 1 of superstep 1 missing
  CHECK(error_of(replaced(all, "1,1,empty,0.000300000,0.000310000,0.000400000,0.000010000,"
                               "0.000090000,0,0,0,0,0\n", "")) ==
        "p.csv:superstep 1: no row for process 1 (every superstep 0..1 needs one row for each "
        "process 0..1)");
  // superstep 0 missing altogether: rows of 1 only would be charged l before
  std::string only_one = kFormat + kHeader + kRows.substr(kRows.find("1,0,empty"));
  CHECK(error_of(only_one).find("p.csv:superstep 0: no row for process 0") == 0);
  // the format line says 3 processes; the rows have 2
  CHECK(error_of(replaced(all, "nprocs = 2", "nprocs = 3"))
            .find("p.csv:superstep 0: no row for process 2") == 0);
  // a row twice (line 7 repeats line 3's key once the rows are sorted)
  CHECK(error_of(all + kRows.substr(0, kRows.find('\n') + 1)) ==
        "p.csv:line 7: a second row for superstep 0, process 0 (the first is on line 3)");
}

TEST_CASE("every field is a whole token, finite and in its range") {
  const std::string all = kFormat + kHeader + kRows;
  CHECK(error_of(replaced(all, ",2000,1000,", ",2000abc,1000,")) ==
        "p.csv:line 3: bytes_out must be an integer in [0, 9007199254740992] bytes; got "
        "\"2000abc\"");
  CHECK(error_of(replaced(all, "0.000010000,0.000300000", "0.000010000,nan")) ==
        "p.csv:line 3: t_exit must be a finite number in [0, 1e7] s; got \"nan\"");
  CHECK(error_of(replaced(all, ",2000,1000,", ",-1,1000,")).find("bytes_out must be") != std::string::npos);
  CHECK(error_of(replaced(all, "1,1,empty", "1,2,empty")) ==
        "p.csv:line 6: pid must be an integer in [0, 1] (nprocs = 2); got \"2\"");
  CHECK(error_of(replaced(all, "1,1,empty", "99999999999,1,empty")) ==
        "p.csv:line 6: superstep must be an integer in [0, 2147483647]; got \"99999999999\"");
  CHECK(error_of(replaced(all, "0.000300000,0.000400000,0.000000000",
                          "0.000300000,1e308,0.000000000")) ==
        "p.csv:line 5: t_exit must be a finite number in [0, 1e7] s; got \"1e308\"");
  CHECK(error_of(replaced(all, ",1,1,0\n0,1,", ",1,1,\n0,1,")) ==
        "p.csv:line 3: gets_out must be an integer in [0, 9007199254740992] gets; got \"\"");
  CHECK(error_of(replaced(all, ",1,1,3\n", ",1,1,-3\n")) ==
        "p.csv:line 4: gets_out must be an integer in [0, 9007199254740992] gets; got \"-3\"");
  // a format-1 row (no gets_out): one field short
  CHECK(error_of(replaced(all, ",1,1,0\n0,1,", ",1,1\n0,1,")).find("expected 13 comma-separated "
                                                                 "fields") != std::string::npos);
  CHECK(error_of(replaced(all, ",1,1,0\n0,1,", ",1\n0,1,")) ==
        "p.csv:line 3: expected 13 comma-separated fields (superstep,pid,label,t_begin,t_enter,"
        "t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,msgs_out,msgs_in,gets_out), got 11");
  CHECK(error_of(replaced(all, "nprocs = 2", "nprocs = 0")) ==
        "p.csv:line 1: nprocs must be an integer in [1, 2147483647] processes; got \"0\"");
  CHECK(error_of(replaced(all, "bsplib-profile-2", "bsplib-profile-4")) ==
        "p.csv:line 1: expected '# format = bsplib-profile-3' (or bsplib-profile-2), got format "
        "\"bsplib-profile-4\"");
  // format 1 (no gets_out column) is refused with a reason, not misread
  CHECK(error_of(replaced(all, "bsplib-profile-2", "bsplib-profile-1")) ==
        "p.csv:line 1: format bsplib-profile-1 has no gets_out column, which the model needs: "
        "profile the run again (this library writes bsplib-profile-3)");
  CHECK(error_of(replaced(all, "0,0,shift,", "0,0,sh\x01ift,")) ==
        "p.csv:line 3: label must be at most 1024 bytes without control characters; got "
        "\"sh\\x01ift\"");
}

TEST_CASE("times must be ordered and agree with compute_s and comm_sync_s") {
  const std::string all = kFormat + kHeader + kRows;
  CHECK(error_of(replaced(all, "0.000010000,0.000300000,0.000010000,0.000290000",
                          "0.000010000,0.000005000,0.000010000,0.000290000")) ==
        "p.csv:line 3: expected t_begin <= t_enter <= t_exit; got 0.000000000, 0.000010000, "
        "0.000005000");
  CHECK(error_of(replaced(all, "0.000010000,0.000290000,2000", "0.000010000,0.000390000,2000"))
            .find("p.csv:line 3: compute_s and comm_sync_s must be t_enter - t_begin") == 0);
}

TEST_CASE("strict numbers: whole token, overflow detected, finite") {
  CHECK(parse_whole_integer("2000") == 2000);
  CHECK(parse_whole_integer("-9223372036854775808") == INT64_MIN);
  CHECK_FALSE(parse_whole_integer("9223372036854775808"));  // would wrap
  CHECK_FALSE(parse_whole_integer("2000abc"));
  CHECK_FALSE(parse_whole_integer(" 2000"));
  CHECK_FALSE(parse_whole_integer("+2000"));
  CHECK_FALSE(parse_whole_integer("1e3"));
  CHECK_FALSE(parse_whole_integer(""));
  CHECK(parse_finite_real("1e-6") == 1e-6);
  CHECK(parse_finite_real("-0.5") == -0.5);
  CHECK_FALSE(parse_finite_real("nan"));
  CHECK_FALSE(parse_finite_real("inf"));
  CHECK_FALSE(parse_finite_real("1e309"));
  CHECK_FALSE(parse_finite_real("10%"));
  CHECK(range_text(0, 1e7, "s") == "[0, 1e7] s");
  CHECK(range_text(0.001, 100, "percent") == "[0.001, 100] percent");
  CHECK(range_text(0, 1e12, "bytes") == "[0, 1e12] bytes");
  CHECK(range_text(1e-6, 2.5e-3, "") == "[1e-6, 0.0025]");
  CHECK_THROWS_WITH(integer_in_range("99999999999", 1024, 1073741824, {"--hmax", "", "the value", "bytes"}),
                    "--hmax: the value must be an integer in [1024, 1073741824] bytes; got "
                    "\"99999999999\"");
  CHECK_THROWS_WITH(real_in_range("nan", 0.001, 100, {"--accuracy", "", "the value", "percent"}),
                    "--accuracy: the value must be a finite number in [0.001, 100] percent; got "
                    "\"nan\"");
}
