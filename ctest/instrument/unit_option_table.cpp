// The option table (option_table.hpp): the help lists every option with its range and
// default; reading fills the variables and refuses an unknown option, a missing value, a
// value out of range or of the wrong kind, and missing or extra positionals, naming them.
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "../input_error_text.hpp"
#include "instrument/option_table.hpp"

using namespace instrument;

namespace {

enum class Kernel { fast, reference };

struct Options {
  bool quick = false, auto_mk = false;
  int reps = 51, mk = 10;
  std::int64_t max_bytes = std::int64_t{4} << 20;
  double rate = 1.5;
  Kernel kernel = Kernel::fast;
  std::string deck = "input", machine, results = "run.h5";
  std::vector<std::string> calibration, extra;
  std::string grid;
};

// A table with one option of every kind, bound to `o`.
struct Table {
  Options o;
  OptionTable t{"prog"};
  Table() {
    t.positional_file("DECK", o.deck, Arity::optional, "the input deck")
        .flag("--quick", o.quick, "fewer repetitions")
        .whole("--reps", "N", o.reps, 1, 100000, "", "repetitions a size")
        .whole("--max-bytes", "B", o.max_bytes, 1024, std::int64_t{1} << 30, "B", "the largest message")
        .whole_or_word("--mk", "N", o.mk, "auto", o.auto_mk, 1, 16, "(k-planes per block)", "block size")
        .real("--rate", "R", o.rate, 0.5, 2.0, "B/s", "a rate")
        .choice("--kernel", "K", o.kernel, {{"fast", Kernel::fast}, {"ref", Kernel::reference}}, "the kernel")
        .input_file("--machine", "FILE", o.machine, "a machine file")
        .output_file("--results", "FILE", o.results, "the results file")
        .clear_flag("--no-results", o.results, "write no results file")
        .file_list("--calibration", "RUN[,RUN...]", o.calibration, "earlier runs")
        .text("--grid", "IxJ", [this](const std::string& n, const std::string& v) {
              if (v.find('x') == std::string::npos) throw InputError("command line", n, "expected IxJ");
              o.grid = v;
            }, "the process grid");
  }
  void read(std::vector<std::string> args) {
    args.insert(args.begin(), "prog");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    t.read(static_cast<int>(argv.size()), argv.data());
  }
  std::string refusal(std::vector<std::string> args) {
    return input_error_text([&] { read(std::move(args)); });
  }
};

}  // namespace

TEST_CASE("the help lists every option, its range and its default") {
  Table tb;
  const std::string help = tb.t.help();
  CHECK(help.rfind("usage: prog [options] [DECK]\n", 0) == 0);
  for (const std::string& name : tb.t.option_names()) CHECK(help.find("  " + name) != std::string::npos);
  CHECK(tb.t.option_names().size() == 11);
  CHECK(help.find("--reps N") != std::string::npos);
  CHECK(help.find("N in [1, 100000] (default: 51)") != std::string::npos);
  CHECK(help.find("B in [2^10, 2^30] B (default: 2^22)") != std::string::npos);
  CHECK(help.find("N|auto in [1, 16] (k-planes per block) or auto (default: 10)") != std::string::npos);
  CHECK(help.find("K one of fast or ref (default: fast)") != std::string::npos);
  CHECK(help.find("(default: run.h5)") != std::string::npos);
  CHECK(help.find("  DECK") != std::string::npos);
  CHECK(help.find("  -h, --help") != std::string::npos);
  for (std::size_t at = 0, end; (end = help.find('\n', at)) != std::string::npos; at = end + 1)
    CHECK(end - at <= 100);  // wrapped
}

TEST_CASE("shown_default replaces the variable's value in the help") {
  Options o;
  OptionTable t("prog", "mpiexec -n 2 prog [options]");
  t.input_file("--machine", "FILE", o.machine, "a machine file").shown_default("this host's");
  CHECK(t.help().rfind("usage: mpiexec -n 2 prog [options]\n", 0) == 0);
  CHECK(t.help().find("(default: this host's)") != std::string::npos);
}

TEST_CASE("reading fills the bound variables; defaults stay when not given") {
  Table tb;
  tb.read({"deck.in", "--quick", "--reps", "7", "--mk", "auto", "--rate", "1.25", "--kernel", "ref",
           "--machine", "m.machine", "--calibration", "a.h5,b.h5", "--grid", "2x3", "--no-results"});
  CHECK(tb.o.deck == "deck.in");
  CHECK(tb.o.quick);
  CHECK(tb.o.reps == 7);
  CHECK(tb.o.auto_mk);
  CHECK(tb.o.mk == 10);
  CHECK(tb.o.rate == 1.25);
  CHECK(tb.o.kernel == Kernel::reference);
  CHECK(tb.o.machine == "m.machine");
  CHECK(tb.o.calibration == std::vector<std::string>{"a.h5", "b.h5"});
  CHECK(tb.o.grid == "2x3");
  CHECK(tb.o.results.empty());
  CHECK(tb.o.max_bytes == (std::int64_t{4} << 20));
  CHECK(tb.t.given("--reps"));
  CHECK(tb.t.given("DECK"));
  CHECK_FALSE(tb.t.given("--max-bytes"));
  Table none;
  none.read({});
  CHECK(none.o.deck == "input");
  CHECK_FALSE(none.t.given("DECK"));
}

TEST_CASE("ranges are enforced with the option named, never clamped") {
  Table tb;
  CHECK(tb.refusal({"--reps", "0"}) == "command line:--reps: expected a whole number in [1, 100000], got \"0\"");
  CHECK(tb.refusal({"--reps", "12x"}) == "command line:--reps: expected a whole number in [1, 100000], got \"12x\"");
  CHECK(tb.refusal({"--mk", "17"}) ==
        "command line:--mk: expected a whole number in [1, 16] (k-planes per block) or auto, got \"17\"");
  CHECK(tb.refusal({"--rate", "3"}) == "command line:--rate: expected a number in [0.5, 2] B/s, got \"3\"");
  CHECK(tb.refusal({"--kernel", "slow"}) == "command line:--kernel: expected fast or ref, got \"slow\"");
  CHECK(tb.refusal({"--machine", ""}) == "command line:--machine: expected a file name, got \"\"");
  CHECK(tb.refusal({"--grid", "2"}) == "command line:--grid: expected IxJ");
  CHECK(tb.o.reps == 51);
}

TEST_CASE("an unknown option, a missing value and an extra argument are refused by name") {
  Table tb;
  CHECK(tb.refusal({"--no-such-option"}) == "command line:--no-such-option: unknown option (see prog --help)");
  CHECK(tb.refusal({"--reps"}) == "command line:--reps: expected a value after it");
  CHECK(tb.refusal({"a", "b"}) == "command line:b: expected one DECK only, already have \"a\"");
  Options o;
  OptionTable bare("bare");
  bare.flag("--quick", o.quick, "fewer");
  std::string arg = "x";
  std::vector<char*> argv{arg.data(), arg.data()};
  CHECK(input_error_text([&] { bare.read(2, argv.data()); }) ==
        "command line:x: unexpected argument: this program takes options only (see bare --help)");
}

TEST_CASE("required positionals, lists, repeats and after_reading checks") {
  std::string run;
  std::vector<std::string> machines;
  bool self = false;
  OptionTable t("replay");
  t.positional_file("RUN.h5", run, Arity::required, "the run")
      .positional_files("MACHINE", machines, Arity::one_or_more, "machine files")
      .flag("--self", self, "own gaps")
      .refuse_repeats()
      .after_reading([&] {
        if (!self) throw InputError("command line", "--self", "expected --self");
      });
  auto refusal = [&](std::vector<std::string> args) {
    args.insert(args.begin(), "replay");
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    return input_error_text([&] { t.read(static_cast<int>(argv.size()), argv.data()); });
  };
  CHECK(refusal({}) == "command line:RUN.h5: expected the RUN.h5 argument (see replay --help)");
  CHECK(refusal({"r.h5"}) == "command line:MACHINE: expected the MACHINE argument (see replay --help)");
  CHECK(refusal({"r.h5", "a", "b"}) == "command line:--self: expected --self");
  CHECK(refusal({"r.h5", "a", "b", "--self", "--self"}) == "command line:--self: given twice; expected it once");
  machines.clear();
  CHECK(refusal({"r.h5", "a", "b", "--self"}).empty());
  CHECK(run == "r.h5");
  CHECK(machines == std::vector<std::string>{"a", "b"});
  CHECK(t.help().rfind("usage: replay [options] RUN.h5 MACHINE...\n", 0) == 0);
}

TEST_CASE("-h or --help anywhere asks for help") {
  std::string p = "prog", h = "--help", s = "-h", x = "--reps";
  std::vector<char*> a{p.data(), x.data(), h.data()}, b{p.data(), s.data()}, c{p.data(), x.data()};
  CHECK(OptionTable::asks_for_help(3, a.data()));
  CHECK(OptionTable::asks_for_help(2, b.data()));
  CHECK_FALSE(OptionTable::asks_for_help(2, c.data()));
}
