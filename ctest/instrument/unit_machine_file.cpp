// The machine parameter file: parsing, typed getters, errors that name file + line + what was
// expected, and the atomic writer.
#include <catch2/catch.hpp>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "instrument/error.hpp"
#include "instrument/machine_file.hpp"

using instrument::InputError;
using instrument::MachineFile;

namespace {

// The message of the InputError that `f` throws ("" if none).
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

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
  const std::string not_ours = error_of([] { MachineFile::parse("hello = 1\n", "a.machine"); });
  CHECK(not_ours.find("a.machine:line 1") != std::string::npos);
  CHECK(not_ours.find("format = suite-machine-1") != std::string::npos);

  const std::string wrong_version =
      error_of([] { MachineFile::parse("format = suite-machine-2\n", "v.machine"); });
  CHECK(wrong_version.find("not a machine file") != std::string::npos);

  const std::string empty = error_of([] { MachineFile::parse("# only a comment\n", "e.machine"); });
  CHECK(empty.find("e.machine") != std::string::npos);
  CHECK(empty.find("empty") != std::string::npos);

  const std::string no_eq =
      error_of([] { MachineFile::parse("format = suite-machine-1\n\njust words\n", "b.machine"); });
  CHECK(no_eq.find("b.machine:line 3") != std::string::npos);
  CHECK(no_eq.find("key = value") != std::string::npos);

  const std::string bad_key =
      error_of([] { MachineFile::parse("format = suite-machine-1\nmy key = 1\n", "k.machine"); });
  CHECK(bad_key.find("line 2") != std::string::npos);

  const std::string no_value =
      error_of([] { MachineFile::parse("format = suite-machine-1\nx =\n", "n.machine"); });
  CHECK(no_value.find("line 2") != std::string::npos);

  const std::string twice =
      error_of([] { MachineFile::parse("format = suite-machine-1\nx = 1\nx = 2\n", "t.machine"); });
  CHECK(twice.find("line 3") != std::string::npos);
  CHECK(twice.find("twice") != std::string::npos);
}

TEST_CASE("typed getters reject what is not a number", "[machine_file]") {
  const auto f = MachineFile::parse(
      "format = suite-machine-1\nsource = probe\nL = 1e-6x\nn = 12\nfrac = 2.5\nneg = -3\n", "g.machine");
  const std::string junk = error_of([&] { (void)f.get_double("L"); });
  CHECK(junk.find("g.machine:line 3") != std::string::npos);
  CHECK(junk.find("expected a number") != std::string::npos);
  CHECK_THROWS_AS(f.get_double("source"), InputError);
  const std::string missing = error_of([&] { (void)f.require_double("loggps.L", "latency"); });
  CHECK(missing.find("g.machine") != std::string::npos);
  CHECK(missing.find("missing required key 'loggps.L'") != std::string::npos);
  CHECK(f.require_bytes("n") == 12);
  CHECK_THROWS_AS(f.require_bytes("frac"), InputError);
  CHECK_THROWS_AS(f.require_bytes("neg"), InputError);
}

TEST_CASE("missing file", "[machine_file]") {
  const std::string e = error_of([] { MachineFile::read("/nonexistent/dir/none.machine"); });
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
  const std::string e = error_of([&] { f.write("/nonexistent/dir/out.machine"); });
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
