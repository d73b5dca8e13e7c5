// The command line of a benchmark: positional counts ("bench_empty_sync [N] [R]"), flags
// ("--lifo-fifo-only") and options with a value ("--machine FILE"), each count read whole and
// in its range. Anything else (an unknown option, a stray word, "5x", 0 where 1 is the least)
// is refused, and so is a process count the benchmark cannot measure at. Every process reads
// the same command line, so every process refuses it alike: the refusal is thrown as
// instrument::CollectiveError, and instrument::run_mpi_main prints it once and makes every
// process exit 1 (no MPI_Abort, no figure printed first).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/option_number.hpp"

namespace bsplib_bench {

class CommandLine {
 public:
  explicit CommandLine(std::string usage) : m_usage(std::move(usage)) {}

  // The next positional argument: a whole number in [lo, hi] into `value` (which holds the
  // default when the argument is not given).
  CommandLine& count(std::string name, std::int64_t lo, std::int64_t hi, int& value) {
    m_counts.push_back({std::move(name), lo, hi, &value});
    return *this;
  }
  // Every positional argument after the counts: whole numbers in [lo, hi] appended to `values`.
  CommandLine& rest(std::string name, std::int64_t lo, std::int64_t hi, std::vector<int>& values) {
    m_rest = Rest{std::move(name), lo, hi, &values};
    return *this;
  }
  CommandLine& flag(std::string name, bool& value) {
    m_flags.push_back({std::move(name), &value});
    return *this;
  }
  // "--name VALUE", VALUE not empty.
  CommandLine& option(std::string name, std::string& value) {
    m_options.push_back({std::move(name), &value});
    return *this;
  }
  // At least `least` processes (MPI_COMM_WORLD), `why` saying what needs them.
  CommandLine& processes_at_least(int least, std::string why) {
    m_least = least;
    m_why = std::move(why);
    return *this;
  }

  // Reads argv on every process; a refusal anywhere is every process's CollectiveError.
  void read(int argc, char** argv) const {
    std::string problem;
    try {
      read_here(argc, argv);
    } catch (const std::exception& e) {
      problem = e.what();
    }
    instrument::throw_if_any_rank_failed(MPI_COMM_WORLD, problem);
  }

 private:
  struct Count {
    std::string name;
    std::int64_t lo, hi;
    int* value;
  };
  struct Rest {
    std::string name;
    std::int64_t lo = 0, hi = 0;
    std::vector<int>* values = nullptr;
  };
  struct Flag {
    std::string name;
    bool* value;
  };
  struct Option {
    std::string name;
    std::string* value;
  };

  [[noreturn]] void refuse(const std::string& what) const {
    throw std::runtime_error(what + " (" + m_usage + ")");
  }

  void read_here(int argc, char** argv) const {
    std::size_t next_count = 0;
    std::vector<std::string> seen;
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      bool matched = false;
      for (const Flag& f : m_flags)
        if (a == f.name) {
          *f.value = true;
          matched = true;
        }
      for (const Option& o : m_options)
        if (a == o.name) {
          if (i + 1 >= argc || argv[i + 1][0] == '\0') refuse(a + " needs a value");
          *o.value = argv[++i];
          matched = true;
        }
      if (matched) {
        for (const std::string& s : seen)
          if (s == a) refuse(a + " given twice");
        seen.push_back(a);
        continue;
      }
      // A count may be negative text ("-1": refused by its range, with the range named);
      // any other word starting with "--" is an option this benchmark does not have.
      if (a.rfind("--", 0) == 0) refuse("unknown option " + instrument::quote_token(a));
      if (next_count == m_counts.size() && m_rest.values) {
        m_rest.values->push_back(
            static_cast<int>(instrument::whole_option(m_rest.name, a, m_rest.lo, m_rest.hi)));
        continue;
      }
      if (next_count == m_counts.size())
        refuse("unexpected argument " + instrument::quote_token(a));
      const Count& c = m_counts[next_count++];
      *c.value = static_cast<int>(instrument::whole_option(c.name, a, c.lo, c.hi));
    }
    int p = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    if (p < m_least)
      refuse("needs " + std::to_string(m_least) + " or more processes (" + m_why + "); got " +
             std::to_string(p));
  }

  std::string m_usage;
  std::vector<Count> m_counts;
  std::vector<Flag> m_flags;
  std::vector<Option> m_options;
  Rest m_rest;
  int m_least = 1;
  std::string m_why;
};

}  // namespace bsplib_bench
