// A program's command line as one table of typed options: the same table reads argv and
// writes --help, so the help lists every option the program accepts, with its range and
// default, and nothing the program does not accept.
//
// Each option is bound to the variable it fills; the variable's value when the option is
// declared is the default the help shows. Reading refuses, with one InputError naming the
// option ("command line:--reps: ..."), an unknown option, a missing value, a value out of
// range or not of its type, and a missing or extra positional argument. The value readers
// are those of option_number.hpp and option_file.hpp, so a range is worded as everywhere.
//
// Converting a program (run_app.hpp runs it; the table is built before MPI starts):
//
//   struct Options { std::string mesh, results = "tycho.h5", machine; int sn = 8;
//                    tycho::Scheme scheme = tycho::Scheme::linear_discontinuous;
//                    bool nonblocking = false, auto_mcps = false; std::int64_t mcps = 512; };
//   Options o;
//   instrument::OptionTable t("tycho", "mpirun -np P tycho MESH [options]");
//   t.positional_file("MESH", o.mesh, instrument::Arity::required, "a .smesh or .msh mesh")
//    .whole("--sn", "N", o.sn, 2, 16, "(the S_N order, even)", "level-symmetric S_N quadrature")
//    .choice("--scheme", "S", o.scheme, {{"ld", Scheme::linear_discontinuous}, {"step", Scheme::step}},
//            "the spatial scheme")
//    .whole_or_word("--mcps", "N", o.mcps, "auto", o.auto_mcps, 1, std::int64_t{1} << 40,
//                   "(tasks a step)", "at most N cell-angle tasks a step; auto: chosen by the GM")
//    .flag("--nonblocking", o.nonblocking, "MPI_Isend/MPI_Irecv")
//    .output_file("--results", "FILE", o.results, "results file")
//    .clear_flag("--no-results", o.results, "write no results file")
//    .input_file("--machine", "FILE", o.machine, "machine file from loggps-probe")
//    .after_reading([&] { if (o.auto_mcps && o.machine.empty()) throw instrument::InputError(
//        "command line", "--mcps auto", "expected --machine too"); });
//   return instrument::run_app(argc, argv, t, [&] { return run(o); });
//
// Anything the typed kinds do not cover (IxJ, a list of numbers, a word checked against the
// CPU) is a `text` option with a reader that throws InputError; bsplib's benchmarks' counts
// are `positional` with a reader, their "rest" a positional of Arity::any.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "instrument/option_number.hpp"

namespace instrument {

// How many times a positional argument may be given.
enum class Arity { required, optional, one_or_more, any };

class OptionTable {
 public:
  // Reads the text of one value; `name` is the option (or positional) it belongs to, for the
  // InputError it throws when the text is not right.
  using Reader = std::function<void(const std::string& name, const std::string& text)>;

  // `synopsis` replaces the generated "PROGRAM [options] POSITIONALS" of the usage line (e.g.
  // "mpiexec -n 2 loggps-probe [options]").
  explicit OptionTable(std::string program, std::string synopsis = "");
  OptionTable(const OptionTable&) = delete;  // its readers point into the program's variables
  OptionTable& operator=(const OptionTable&) = delete;

  const std::string& program() const { return program_; }

  // Text printed under the usage line, as given (rules between options, what the program does).
  OptionTable& notes(std::string text);

  // --name alone sets `target` true.
  OptionTable& flag(std::string name, bool& target, std::string help);
  // --name alone empties `target` (--no-results beside --results FILE).
  OptionTable& clear_flag(std::string name, std::string& target, std::string help);
  // A whole number in [min, max] (whole_option; `unit` follows the range in help and errors).
  template <class Int>
  OptionTable& whole(std::string name, std::string placeholder, Int& target, std::int64_t min,
                     std::int64_t max, std::string unit, std::string help);
  // A whole number in [min, max], or `word` (e.g. "auto"), which sets `word_given` instead.
  template <class Int>
  OptionTable& whole_or_word(std::string name, std::string placeholder, Int& target, std::string word,
                             bool& word_given, std::int64_t min, std::int64_t max, std::string unit,
                             std::string help);
  // A finite real number in [min, max] (real_option).
  OptionTable& real(std::string name, std::string placeholder, double& target, double min, double max,
                    std::string unit, std::string help);
  // One of a fixed set of words, each with the value it sets.
  template <class T>
  OptionTable& choice(std::string name, std::string placeholder, T& target,
                      std::vector<std::pair<std::string, T>> words, std::string help);
  // File names (option_file.hpp): "" refused. An output file is only named here; the program
  // checks it (check_output_file) where it knows which rank writes.
  OptionTable& input_file(std::string name, std::string placeholder, std::string& target, std::string help);
  OptionTable& output_file(std::string name, std::string placeholder, std::string& target, std::string help);
  OptionTable& file_list(std::string name, std::string placeholder, std::vector<std::string>& target,
                         std::string help);
  // Any other value: `read` checks and stores it, throwing InputError.
  OptionTable& text(std::string name, std::string placeholder, Reader read, std::string help);

  // Positional arguments, in order; a list (one_or_more, any) takes every argument left.
  OptionTable& positional_file(std::string name, std::string& target, Arity arity, std::string help);
  OptionTable& positional_files(std::string name, std::vector<std::string>& target, Arity arity,
                                std::string help);
  OptionTable& positional(std::string name, Arity arity, Reader read, std::string help);

  // The default the help shows for the option declared last, instead of its variable's value
  // ("" shows none); e.g. "the widest this CPU has".
  OptionTable& shown_default(std::string text);
  // An option given twice is refused (default: the later one wins, as most programs do).
  OptionTable& refuse_repeats();
  // A check after every option is read (options that need one another); throws InputError.
  OptionTable& after_reading(std::function<void()> check);

  // True when argv asks for help (-h or --help anywhere): nothing else is read then.
  static bool asks_for_help(int argc, char** argv);
  // Reads argv[1..] into the bound variables, then runs the after_reading checks.
  void read(int argc, char** argv);
  // Whether the option (or positional) was on the command line read.
  bool given(const std::string& name) const { return given_.count(name) > 0; }
  // What was typed for each option or positional given (the last, if given more than once;
  // "" for a flag), keyed by name: what a results file records as the run's input.
  const std::map<std::string, std::string>& given_texts() const { return given_; }
  // The usage line, the notes and one entry per option, lines wrapped at 100 columns.
  std::string help() const;
  // Every option's name ("--reps", ...), in the order declared.
  std::vector<std::string> option_names() const;

 private:
  struct Entry {
    Entry(std::string n, std::string p, std::string h, std::string r, std::string d)
        : name(std::move(n)), placeholder(std::move(p)), help(std::move(h)), range(std::move(r)),
          shown_default(std::move(d)) {}
    std::string name, placeholder, help, range, shown_default;
    bool takes_value = true;
    Arity arity = Arity::required;  // positionals only
    Reader read;                    // flags: called with ""
  };
  OptionTable& add(Entry e);
  OptionTable& add_positional(Entry e);
  [[noreturn]] void refuse(const std::string& where, const std::string& expected) const;

  std::string program_, synopsis_, notes_;
  std::vector<Entry> options_, positionals_;
  Entry* last_ = nullptr;
  bool refuse_repeats_ = false;
  std::vector<std::function<void()>> checks_;
  std::map<std::string, std::string> given_;
};

// The text a default is shown as.
std::string shown_value(std::int64_t v);
std::string shown_value(double v);

template <class Int>
OptionTable& OptionTable::whole(std::string name, std::string placeholder, Int& target, std::int64_t min,
                                std::int64_t max, std::string unit, std::string help) {
  static_assert(std::is_integral_v<Int>);
  Entry e{std::move(name), std::move(placeholder), std::move(help), "", shown_value(std::int64_t(target))};
  e.range = "in [" + shown_value(min) + ", " + shown_value(max) + "]" + (unit.empty() ? "" : " " + unit);
  e.read = [&target, min, max, unit](const std::string& n, const std::string& t) {
    target = static_cast<Int>(whole_option(n, t, min, max, unit));
  };
  return add(std::move(e));
}

template <class Int>
OptionTable& OptionTable::whole_or_word(std::string name, std::string placeholder, Int& target, std::string word,
                                        bool& word_given, std::int64_t min, std::int64_t max, std::string unit,
                                        std::string help) {
  static_assert(std::is_integral_v<Int>);
  const std::string suffix = (unit.empty() ? "" : unit + " ") + "or " + word;
  Entry e{std::move(name), std::move(placeholder) + "|" + word, std::move(help), "",
          word_given ? word : shown_value(std::int64_t(target))};
  e.range = "in [" + shown_value(min) + ", " + shown_value(max) + "] " + suffix;
  e.read = [&target, &word_given, word, min, max, suffix](const std::string& n, const std::string& t) {
    word_given = t == word;
    if (!word_given) target = static_cast<Int>(whole_option(n, t, min, max, suffix));
  };
  return add(std::move(e));
}

std::string choice_words(const std::vector<std::string>& words);
[[noreturn]] void refuse_choice(const std::string& option, const std::vector<std::string>& words,
                                const std::string& text);

template <class T>
OptionTable& OptionTable::choice(std::string name, std::string placeholder, T& target,
                                 std::vector<std::pair<std::string, T>> words, std::string help) {
  std::vector<std::string> names;
  std::string current;
  for (const auto& [w, v] : words) {
    names.push_back(w);
    if (current.empty() && v == target) current = w;
  }
  std::string joined;  // "0|1": a placeholder that lists the words needs no range after it
  for (const auto& w : names) joined += (joined.empty() ? "" : "|") + w;
  const std::string range = placeholder == joined ? "" : "one of " + choice_words(names);
  Entry e{std::move(name), std::move(placeholder), std::move(help), range, current};
  e.read = [&target, words, names](const std::string& n, const std::string& t) {
    for (const auto& [w, v] : words)
      if (w == t) {
        target = v;
        return;
      }
    refuse_choice(n, names, t);
  };
  return add(std::move(e));
}

}  // namespace instrument
