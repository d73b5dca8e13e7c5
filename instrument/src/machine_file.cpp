#include "instrument/machine_file.hpp"

#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>

#include "instrument/error.hpp"

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

// strtod accepts what we write (to_chars output, "inf") and nothing with trailing junk.
std::optional<double> parse_number(const std::string& v) {
  if (v.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const double d = std::strtod(v.c_str(), &end);
  if (end != v.c_str() + v.size() || errno == ERANGE || std::isnan(d)) return std::nullopt;
  return d;
}

}  // namespace

std::string format_number(double value) {
  char buf[64];
  const auto r = std::to_chars(buf, buf + sizeof buf, value);
  return std::string(buf, r.ptr);
}

MachineFile MachineFile::read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) {
    throw InputError(path, "", std::string("cannot open machine file: ") + std::strerror(errno) +
                                   " (expected a file written by loggps-probe or bspprobe)");
  }
  std::ostringstream ss;
  ss << in.rdbuf();
  if (in.bad()) throw InputError(path, "", "cannot read machine file");
  return parse(ss.str(), path);
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
      throw InputError(name, where, "expected 'key = value', got '" + line + "'");
    }
    Entry e{trim(std::string_view(line).substr(0, eq)),
            trim(std::string_view(line).substr(eq + 1)), lineno, false};
    if (!valid_key(e.key)) {
      throw InputError(name, where, "expected a key of letters, digits, '_', '.', '-', got '" +
                                        e.key + "'");
    }
    if (e.value.empty()) throw InputError(name, where, "expected a value after '" + e.key + " ='");
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
  if (!d) throw InputError(name_, where(*e), "expected a number for '" + key + "', got '" + e->value + "'");
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
  const double d = require_double(key, "a byte count");
  if (!(d >= 0.0) || d > 9.0e18 || std::floor(d) != d) {
    throw InputError(name_, where(*find(key)),
                     "expected a non-negative whole number of bytes for '" + key + "'");
  }
  return static_cast<std::int64_t>(d);
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
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (f == nullptr) return {};
  std::fclose(f);
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
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) return path + ": cannot write: " + std::strerror(errno);
  std::fclose(f);
  std::remove(tmp.c_str());
  try {
    (void)read_to_merge(path);
  } catch (const std::exception& x) {
    return x.what();
  }
  return {};
}

void MachineFile::write(const std::string& path) const {
  const std::string tmp = path + ".tmp." + std::to_string(::getpid());
  const std::string body = text();
  std::FILE* f = std::fopen(tmp.c_str(), "wb");
  if (f == nullptr) throw InputError(path, "", std::string("cannot write: ") + std::strerror(errno));
  const bool wrote = std::fwrite(body.data(), 1, body.size(), f) == body.size();
  const int err_write = errno;
  const bool closed = std::fclose(f) == 0;
  if (!wrote || !closed) {
    const int err = wrote ? errno : err_write;
    std::remove(tmp.c_str());
    throw InputError(path, "", std::string("cannot write: ") + std::strerror(err));
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    const int err = errno;
    std::remove(tmp.c_str());
    throw InputError(path, "", std::string("cannot write (rename failed): ") + std::strerror(err));
  }
}

}  // namespace instrument
