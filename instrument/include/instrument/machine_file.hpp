// MachineFile: the machine parameter file the apps read with `--machine FILE`.
//
// Plain text, one `key = value` a line, `#` comment lines and blank lines ignored; the first
// non-comment line must be `format = suite-machine-1`. Values are numbers (seconds, bytes,
// seconds per byte) or strings (`source = loggps-probe`). Keys are [A-Za-z0-9_.-]+ and each
// appears once. The file is a generic key -> value map so that every probe (LogGPS, LogGP,
// BSP) writes its own keys into one file; typed structs (LogGpsParams, LogGpParams, ...) are
// built from it by their own modules.
//
// Reading refuses what is not a regular file (read_input_file) and files over 1 MiB. Numbers
// are read whole, as std::from_chars reads them ("2000abc" and "0x10" are not numbers); byte
// counts are decimal digits only. A bad token is quoted short and printable (quote_token).
// The models check each value against its physical range (loggp.hpp, loggps.hpp).
//
// Errors are InputError naming the file, the line and what was expected.
#pragma once
#include <cstdint>
#include <optional>
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace instrument {

class MachineFile {
 public:
  static constexpr const char* kFormat = "suite-machine-1";

  MachineFile() = default;

  // Reads and parses `path`; throws InputError if it is missing, unreadable or malformed.
  static MachineFile read(const std::string& path);
  // The largest file read() accepts: a machine file is a few hundred lines.
  static constexpr std::size_t kMaxBytes = std::size_t{1} << 20;
  // For a probe that adds its keys to a file other probes also write: the machine file at
  // `path` if there is one, else an empty one. A file that exists but is not a machine
  // file of this suite is refused (InputError), never overwritten.
  static MachineFile read_to_merge(const std::string& path);
  // Why a probe could not write its result to `path` (unwritable, or an existing file
  // that is not ours), or "" if it can; checked before a probe spends time measuring.
  static std::string output_problem(const std::string& path);
  // Parses text; `name` is used in error messages (a file name or "<string>").
  static MachineFile parse(std::string_view text, const std::string& name);

  // Adds or replaces a value (insertion order is kept for writing).
  void set(const std::string& key, double value);
  void set(const std::string& key, std::int64_t value);
  void set(const std::string& key, const std::string& value);
  void set(const std::string& key, const char* value) { set(key, std::string(value)); }
  // A comment line written before the next key (for people reading the file).
  void comment(const std::string& text);
  // Removes every key starting with `prefix` (a probe replacing its own keys in a file that
  // another probe also wrote to). Comments read from a file are not kept anyway.
  void erase_prefix(const std::string& prefix);

  bool has(const std::string& key) const;
  // Absent -> nullopt; present but not a number -> InputError naming its line. "inf" is a
  // number here: the range a model checks names it.
  std::optional<double> get_double(const std::string& key) const;
  std::optional<std::string> get_string(const std::string& key) const;
  // Absent -> InputError "missing required key"; `what` says what the key means.
  double require_double(const std::string& key, const std::string& what = "") const;
  // A byte count: a non-negative integer in decimal digits, else InputError.
  std::int64_t require_bytes(const std::string& key) const;
  // Every parameter (a key of a family, with a '.': loggp.L, probe.reps) whose value reads
  // as a number is a finite one, whether the reader uses it or not: InputError(file,
  // "line N", "expected a finite number for 'loggp.L', got \"inf\"") for inf, nan and
  // numbers beyond double's range. Keys without a '.' are descriptions (host, date).
  void require_finite_parameters() const;

  const std::string& name() const noexcept { return name_; }
  std::vector<std::string> keys() const;

  // The file text (format line first).
  std::string text() const;
  // Writes through the suite's one writer (instrument/output_file.hpp): a symbolic link, a
  // device, FIFO or directory refused, a temporary renamed over the target, no partial file
  // left; throws InputError(path, "", "cannot write machine file: <reason>").
  void write(const std::string& path) const;

 private:
  struct Entry {
    std::string key, value;
    int line = 0;          // line in the file it was read from; 0 if set in code
    bool is_comment = false;
  };
  const Entry* find(const std::string& key) const;
  std::string where(const Entry& e) const;

  std::string name_ = "<memory>";
  std::vector<Entry> entries_;
};

// The shortest text that reads back as exactly the same double.
std::string format_number(double value);

}  // namespace instrument
