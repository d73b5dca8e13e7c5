#include "instrument/machine_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/output_file.hpp"

namespace instrument {

namespace {

std::string trim(std::string_view s) {
  const char* ws = " \t\r";
  const auto b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return {};
  const auto e = s.find_last_not_of(ws);
  return std::string(s.substr(b, e - b + 1));
}

bool valid_key(const std::string& k) {
  if (k.empty()) return false;
  for (char c : k) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    c == '_' || c == '.' || c == '-';
    if (!ok) return false;
  }
  return true;
}

// What to_chars writes (and "inf", which the models' ranges then refuse by name), whole:
// from_chars takes no leading '+', space or hex, and the whole text must be the number
// ("2000abc" is not 2000). Out of double's range and NaN are not numbers.
std::optional<double> parse_number(const std::string& v) {
  const char* end = v.data() + v.size();
  double d = 0.0;
  const auto r = std::from_chars(v.data(), end, d);
  if (v.empty() || r.ec != std::errc() || r.ptr != end || std::isnan(d)) return std::nullopt;
  return d;
}

// A whole number of bytes as written by set(key, int64): decimal digits only.
std::optional<std::int64_t> parse_whole(const std::string& v) {
  const char* end = v.data() + v.size();
  std::int64_t i = 0;
  const auto r = std::from_chars(v.data(), end, i);
  if (v.empty() || r.ec != std::errc() || r.ptr != end) return std::nullopt;
  return i;
}


}  // namespace

std::string format_number(double value) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, r.ptr);
}

MachineFile MachineFile::read(const std::string& path) {
  return parse(read_input_file(path, "machine file", kMaxBytes), path);
}

MachineFile MachineFile::parse(std::string_view text, const std::string& name) {
  MachineFile mf;
  mf.name_ = name;
  bool seen_format = false;
  int lineno = 0;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    const auto nl = text.find('\n', pos);
    const std::string_view raw =
        text.substr(pos, nl == std::string_view::npos ? std::string_view::npos : nl - pos);
    pos = nl == std::string_view::npos ? text.size() + 1 : nl + 1;
    ++lineno;
    const std::string line = trim(raw);
    if (line.empty() || line[0] == '#') continue;
    const std::string where = "line " + std::to_string(lineno);
    const auto eq = line.find('=');
    if (eq == std::string::npos) {
      throw InputError(name, where, "expected 'key = value', got " + quote_token(line));
    }
    Entry e{trim(std::string_view(line).substr(0, eq)),
            trim(std::string_view(line).substr(eq + 1)), lineno, false};
    if (!valid_key(e.key)) {
      throw InputError(name, where,
                       "expected a key of letters, digits, '_', '.', '-', got " + quote_token(e.key));
    }
    if (e.value.empty()) throw InputError(name, where, "expected a value after '" + e.key + " ='");
    if (e.value.find('\0') != std::string::npos) {
      throw InputError(name, where, "expected text, got a NUL byte in " + quote_token(e.value));
    }
    if (!seen_format) {
      if (e.key != "format" || e.value != kFormat) {
        throw InputError(name, where,
                         std::string("not a machine file of this suite: expected first line "
                                     "'format = ") + kFormat + "'");
      }
      seen_format = true;
      continue;
    }
    if (mf.find(e.key) != nullptr) {
      throw InputError(name, where, "key '" + e.key + "' appears twice (first on " +
                                        mf.where(*mf.find(e.key)) + ")");
    }
    mf.entries_.push_back(std::move(e));
  }
  if (!seen_format) {
    throw InputError(name, "", std::string("empty machine file: expected 'format = ") + kFormat +
                                   "' and key = value lines");
  }
  return mf;
}

const MachineFile::Entry* MachineFile::find(const std::string& key) const {
  for (const Entry& e : entries_) {
    if (!e.is_comment && e.key == key) return &e;
  }
  return nullptr;
}

std::string MachineFile::where(const Entry& e) const {
  return e.line > 0 ? "line " + std::to_string(e.line) : "key " + e.key;
}

void MachineFile::set(const std::string& key, const std::string& value) {
  if (!valid_key(key)) throw std::invalid_argument("MachineFile::set: bad key '" + key + "'");
  if (value.empty() || value.find('\n') != std::string::npos) {
    throw std::invalid_argument("MachineFile::set: value of '" + key + "' must be one non-empty line");
  }
  for (Entry& e : entries_) {
    if (!e.is_comment && e.key == key) {
      e.value = value;
      return;
    }
  }
  entries_.push_back(Entry{key, value, 0, false});
}

void MachineFile::set(const std::string& key, double value) { set(key, format_number(value)); }
void MachineFile::set(const std::string& key, std::int64_t value) {
  set(key, std::to_string(value));
}

void MachineFile::comment(const std::string& text) {
  entries_.push_back(Entry{"", text, 0, true});
}

void MachineFile::erase_prefix(const std::string& prefix) {
  std::erase_if(entries_, [&](const Entry& e) { return !e.is_comment && e.key.rfind(prefix, 0) == 0; });
}

bool MachineFile::has(const std::string& key) const { return find(key) != nullptr; }

std::optional<double> MachineFile::get_double(const std::string& key) const {
  const Entry* e = find(key);
  if (e == nullptr) return std::nullopt;
  const auto d = parse_number(e->value);
  if (!d) throw InputError(name_, where(*e), "expected a number for '" + key + "', got " + quote_token(e->value));
  return d;
}

std::optional<std::string> MachineFile::get_string(const std::string& key) const {
  const Entry* e = find(key);
  if (e == nullptr) return std::nullopt;
  return e->value;
}

double MachineFile::require_double(const std::string& key, const std::string& what) const {
  const auto d = get_double(key);
  if (!d) {
    throw InputError(name_, "", "missing required key '" + key + "'" +
                                    (what.empty() ? std::string() : " (" + what + ")"));
  }
  return *d;
}

std::int64_t MachineFile::require_bytes(const std::string& key) const {
  const Entry* e = find(key);
  if (e == nullptr) throw InputError(name_, "", "missing required key '" + key + "' (a byte count)");
  const auto i = parse_whole(e->value);
  if (!i || *i < 0) {
    throw InputError(name_, where(*e), "expected a non-negative whole number of bytes for '" + key +
                                           "', got " + quote_token(e->value));
  }
  return *i;
}

void MachineFile::require_finite_parameters() const {
  for (const Entry& e : entries_) {
    if (e.is_comment || e.key.find('.') == std::string::npos) continue;
    const char* end = e.value.data() + e.value.size();
    double d = 0.0;
    const auto r = std::from_chars(e.value.data(), end, d);
    if (r.ptr != end) continue;  // not a number at all: a string parameter (a rule's name)
    if (r.ec == std::errc() && std::isfinite(d)) continue;
    throw InputError(name_, where(e), "expected a finite number for '" + e.key + "', got " + quote_token(e.value));
  }
}

std::vector<std::string> MachineFile::keys() const {
  std::vector<std::string> k;
  for (const Entry& e : entries_) {
    if (!e.is_comment) k.push_back(e.key);
  }
  return k;
}

std::string MachineFile::text() const {
  std::string t = std::string("format = ") + kFormat + "\n";
  for (const Entry& e : entries_) {
    if (e.is_comment) t += "# " + e.value + "\n";
    else t += e.key + " = " + e.value + "\n";
  }
  return t;
}

MachineFile MachineFile::read_to_merge(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0 && errno == ENOENT) return {};  // (a dangling link too)
  try {
    return read(path);
  } catch (const InputError& e) {
    throw InputError(path, "",
                     std::string("exists and is not a machine file of this suite, not "
                                 "overwriting it (") +
                         e.what() + ")");
  }
}

std::string MachineFile::output_problem(const std::string& path) {
  try {
    // The shared writer's checks (a symbolic link, device, FIFO or directory is refused),
    // then a trial of the temporary it would write, removed again.
    const OutputFile out(path, "machine file");
    const int fd = ::open(out.temp_path().c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (fd < 0) return path + ": cannot write machine file: " + std::strerror(errno);
    ::close(fd);
    ::unlink(out.temp_path().c_str());
    (void)read_to_merge(out.path());
  } catch (const std::exception& x) {
    return x.what();
  }
  return {};
}

void MachineFile::write(const std::string& path) const { write_text_output(path, "machine file", text()); }

}  // namespace instrument
