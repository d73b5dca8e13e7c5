// The machine parameter file: parsing, typed getters, errors that name file + line + what was
// expected, and the atomic writer.
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <string>

#include "instrument/error.hpp"
#include "instrument/machine_file.hpp"
#include "../input_error_text.hpp"

using instrument::InputError;
using instrument::MachineFile;

namespace {


std::string temp_dir() {
  const auto d = std::filesystem::temp_directory_path() / ("machine_file_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d.string();
}

}  // namespace

TEST_CASE("parse: comments, blanks, numbers and strings", "[machine_file]") {
  const auto f = MachineFile::parse(
      "# a machine\n\nformat = suite-machine-1\n  # indented comment\nsource = loggps-probe\n"
      "loggps.L = 1.5e-6\r\nbsp.g=2\n", "x.machine");
  CHECK(f.get_string("source") == std::string("loggps-probe"));
  CHECK(f.get_double("loggps.L") == 1.5e-6);
  CHECK(f.get_double("bsp.g") == 2.0);  // no spaces, CRLF tolerated
  CHECK_FALSE(f.get_double("bsp.l").has_value());
  CHECK(f.has("bsp.g"));
  CHECK(f.keys().size() == 3);
}

TEST_CASE("errors name the file, the line and what was expected", "[machine_file]") {
  const std::string not_ours = input_error_text([] { MachineFile::parse("hello = 1\n", "a.machine"); });
  CHECK(not_ours.find("a.machine:line 1") != std::string::npos);
  CHECK(not_ours.find("format = suite-machine-1") != std::string::npos);

  const std::string wrong_version =
      input_error_text([] { MachineFile::parse("format = suite-machine-2\n", "v.machine"); });
  CHECK(wrong_version.find("not a machine file") != std::string::npos);

  const std::string empty = input_error_text([] { MachineFile::parse("# only a comment\n", "e.machine"); });
  CHECK(empty.find("e.machine") != std::string::npos);
  CHECK(empty.find("empty") != std::string::npos);

  const std::string no_eq =
      input_error_text([] { MachineFile::parse("format = suite-machine-1\n\njust words\n", "b.machine"); });
  CHECK(no_eq.find("b.machine:line 3") != std::string::npos);
  CHECK(no_eq.find("key = value") != std::string::npos);

  const std::string bad_key =
      input_error_text([] { MachineFile::parse("format = suite-machine-1\nmy key = 1\n", "k.machine"); });
  CHECK(bad_key.find("line 2") != std::string::npos);

  const std::string no_value =
      input_error_text([] { MachineFile::parse("format = suite-machine-1\nx =\n", "n.machine"); });
  CHECK(no_value.find("line 2") != std::string::npos);

  const std::string twice =
      input_error_text([] { MachineFile::parse("format = suite-machine-1\nx = 1\nx = 2\n", "t.machine"); });
  CHECK(twice.find("line 3") != std::string::npos);
  CHECK(twice.find("twice") != std::string::npos);
}

TEST_CASE("typed getters reject what is not a number", "[machine_file]") {
  const auto f = MachineFile::parse(
      "format = suite-machine-1\nsource = probe\nL = 1e-6x\nn = 12\nfrac = 2.5\nneg = -3\n", "g.machine");
  const std::string junk = input_error_text([&] { (void)f.get_double("L"); });
  CHECK(junk.find("g.machine:line 3") != std::string::npos);
  CHECK(junk.find("expected a number") != std::string::npos);
  CHECK_THROWS_AS(f.get_double("source"), InputError);
  const std::string missing = input_error_text([&] { (void)f.require_double("loggps.L", "latency"); });
  CHECK(missing.find("g.machine") != std::string::npos);
  CHECK(missing.find("missing required key 'loggps.L'") != std::string::npos);
  CHECK(f.require_bytes("n") == 12);
  CHECK_THROWS_AS(f.require_bytes("frac"), InputError);
  CHECK_THROWS_AS(f.require_bytes("neg"), InputError);
}

TEST_CASE("missing file", "[machine_file]") {
  const std::string e = input_error_text([] { MachineFile::read("/nonexistent/dir/none.machine"); });
  CHECK(e.find("/nonexistent/dir/none.machine") != std::string::npos);
  CHECK(e.find("cannot open") != std::string::npos);
}

TEST_CASE("write then read gives back every value exactly", "[machine_file]") {
  const std::string dir = temp_dir();
  const std::string path = dir + "/m.machine";
  MachineFile f;
  f.comment("written by a test");
  f.set("source", "unit test");
  f.set("loggps.L", 1.16e-6);
  f.set("third", 1.0 / 3.0);
  f.set("bytes", std::int64_t{16383});
  f.set("loggps.L", 2.0e-6);  // replaces, keeps its place
  f.write(path);
  const auto g = MachineFile::read(path);
  CHECK(g.get_double("loggps.L") == 2.0e-6);
  CHECK(g.get_double("third") == 1.0 / 3.0);
  CHECK(g.require_bytes("bytes") == 16383);
  CHECK(g.get_string("source") == std::string("unit test"));
  CHECK(g.keys() == std::vector<std::string>{"source", "loggps.L", "third", "bytes"});
  // Nothing but the file itself is left in the directory (the temporary was renamed).
  int entries = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    (void)e;
    ++entries;
  }
  CHECK(entries == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("unwritable path: InputError and no file left", "[machine_file]") {
  MachineFile f;
  f.set("x", 1.0);
  const std::string e = input_error_text([&] { f.write("/nonexistent/dir/out.machine"); });
  CHECK(e.find("/nonexistent/dir/out.machine") != std::string::npos);
  CHECK(e.find("cannot write") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists("/nonexistent/dir/out.machine"));
}

TEST_CASE("set rejects keys and values that would not read back", "[machine_file]") {
  MachineFile f;
  CHECK_THROWS(f.set("bad key", 1.0));
  CHECK_THROWS(f.set("k", std::string("two\nlines")));
  CHECK_THROWS(f.set("k", std::string("")));
}

TEST_CASE("erase_prefix removes one probe's keys and keeps the others", "[machine_file]") {
  auto f = MachineFile::parse("format = suite-machine-1\nsource = x\nloggps.L = 1\nloggps.S = 2\n"
                              "bsp.g = 3\nloggpsx = 4\n", "p.machine");
  f.erase_prefix("loggps.");
  CHECK(f.keys() == std::vector<std::string>{"source", "bsp.g", "loggpsx"});
}

TEST_CASE("numbers are read whole; the bad token is quoted short and printable", "[machine_file]") {
  const auto f = MachineFile::parse(
      "format = suite-machine-1\na = 2000abc\nb = 0x10\nc = +5\nd = 1e3\ne = inf\nf = 1e999\n"
      "g = " + std::string(40, '7') + "z\nh = 12\x01" "3\n", "s.machine");
  CHECK(input_error_text([&] { (void)f.get_double("a"); }) == "s.machine:line 2: expected a number for 'a', got \"2000abc\"");
  CHECK(input_error_text([&] { (void)f.get_double("b"); }) == "s.machine:line 3: expected a number for 'b', got \"0x10\"");
  CHECK(input_error_text([&] { (void)f.get_double("c"); }) == "s.machine:line 4: expected a number for 'c', got \"+5\"");
  CHECK(f.get_double("d") == 1000.0);
  CHECK(input_error_text([&] { (void)f.require_bytes("d"); }) ==
        "s.machine:line 5: expected a non-negative whole number of bytes for 'd', got \"1e3\"");
  CHECK(f.get_double("e") == std::numeric_limits<double>::infinity());  // the models' ranges refuse it
  CHECK(input_error_text([&] { (void)f.get_double("f"); }) == "s.machine:line 7: expected a number for 'f', got \"1e999\"");
  CHECK(input_error_text([&] { (void)f.get_double("g"); }) ==
        "s.machine:line 8: expected a number for 'g', got \"777777777777777777777777...\"");
  CHECK(input_error_text([&] { (void)f.get_double("h"); }) == "s.machine:line 9: expected a number for 'h', got \"12\\x013\"");
  CHECK(input_error_text([&] { (void)f.require_bytes("a"); }).find("got \"2000abc\"") != std::string::npos);
  const std::string line = input_error_text([] { MachineFile::parse("format = suite-machine-1\n\x1b[2Jx\n", "c.machine"); });
  CHECK(line == "c.machine:line 2: expected 'key = value', got \"\\x1b[2Jx\"");
}

TEST_CASE("read refuses what is not a regular machine file, without blocking", "[machine_file]") {
  const std::string dir = temp_dir();
  const std::string fifo = dir + "/fifo.machine";
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  ::alarm(20);  // a blocking open would hang: SIGALRM fails the test instead
  CHECK(input_error_text([&] { MachineFile::read(fifo); }) ==
        fifo + ": machine file is a FIFO, not a regular file; expected a regular file");
  ::alarm(0);
  CHECK(input_error_text([&] { MachineFile::read(dir); }) ==
        dir + ": machine file is a directory, not a regular file; expected a regular file");
  CHECK(input_error_text([] { MachineFile::read("/dev/zero"); }) ==
        "/dev/zero: machine file is a character device, not a regular file; expected a regular file");
  std::ofstream(dir + "/big.machine") << "format = suite-machine-1\n# " << std::string(1 << 20, 'x') << "\n";
  CHECK(input_error_text([&] { MachineFile::read(dir + "/big.machine"); }).find("more than the 1048576 bytes") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("write goes through the shared writer: links and devices refused", "[machine_file]") {
  const std::string dir = temp_dir();
  MachineFile f;
  f.set("x", 1.0);
  std::filesystem::create_symlink("real.machine", dir + "/link.machine");
  CHECK_THAT(input_error_text([&] { f.write(dir + "/link.machine"); }),
             Catch::Contains("cannot write machine file: it is a symbolic link (to real.machine)"));
  CHECK(std::filesystem::is_symlink(dir + "/link.machine"));
  CHECK_FALSE(std::filesystem::exists(dir + "/real.machine"));
  CHECK_THAT(MachineFile::output_problem(dir + "/link.machine"), Catch::Contains("it is a symbolic link"));
  const std::string dev = input_error_text([&] { f.write("/dev/null"); });
  CHECK(dev.find("/dev/null: cannot write machine file") == 0);
  CHECK(dev.find("character device") != std::string::npos);
  CHECK(MachineFile::output_problem("/dev/null").find("character device") != std::string::npos);
  CHECK(MachineFile::output_problem(dir + "/new.machine").empty());
  CHECK_FALSE(std::filesystem::exists(dir + "/new.machine"));  // the trial left nothing
  std::filesystem::remove_all(dir);
}

TEST_CASE("require_finite_parameters: every number of a parameter finite, used or not", "[machine_file]") {
  const std::string good =
      "format = suite-machine-1\nhost = inf\ndate = 2026-11-22T20:56:01Z\nloggps.L = 1e-6\n"
      "loggps.rendezvous_send = synchronous\nprobe.reps = 51\nloggp.per_byte_cost = band-rate\n";
  CHECK_NOTHROW(MachineFile::parse(good, "m.machine").require_finite_parameters());  // host: a name
  for (const std::string bad : {"nan", "inf", "-inf", "INF", "infinity", "1e999", "-1e400"}) {
    const MachineFile f = MachineFile::parse(good + "loggp.band.2.G = " + bad + "\n", "m.machine");
    CHECK(input_error_text([&] { f.require_finite_parameters(); }) ==
          "m.machine:line 8: expected a finite number for 'loggp.band.2.G', got \"" + bad + "\"");
  }
}
