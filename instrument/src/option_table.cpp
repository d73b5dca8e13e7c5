// The table of a program's options (option_table.hpp): reading argv and writing --help.
#include "instrument/option_table.hpp"

#include <cstring>
#include <sstream>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/option_file.hpp"

namespace instrument {

namespace {

constexpr std::size_t kHelpWidth = 100;
constexpr std::size_t kHelpColumn = 26;  // where an entry's text starts

// `text` as words wrapped at kHelpWidth, every line after `first` indented to kHelpColumn.
std::string wrapped(const std::string& first, const std::string& text) {
  std::string out = first, line;
  if (out.size() + 1 >= kHelpColumn) {  // a long name: its text starts on the next line
    out += "\n";
    line = std::string(kHelpColumn, ' ');
  } else {
    line = out + std::string(kHelpColumn - out.size(), ' ');
    out.clear();
  }
  std::istringstream words(text);
  std::string w;
  bool line_empty = true;
  while (words >> w) {
    if (!line_empty && line.size() + 1 + w.size() > kHelpWidth) {
      out += line + "\n";
      line = std::string(kHelpColumn, ' ');
      line_empty = true;
    }
    line += (line_empty ? "" : " ") + w;
    line_empty = false;
  }
  return out + line + "\n";
}

}  // namespace

std::string shown_value(std::int64_t v) {
  // Powers of two from 2^10 up read as such (2^30 B, not 1073741824 B).
  if (v >= 1024 && (v & (v - 1)) == 0) {
    int p = 0;
    while ((std::int64_t{1} << p) != v) ++p;
    return "2^" + std::to_string(p);
  }
  return std::to_string(v);
}

std::string shown_value(double v) { return format_number(v); }

std::string choice_words(const std::vector<std::string>& words) {
  std::string s;
  for (std::size_t i = 0; i < words.size(); ++i)
    s += (i == 0 ? "" : i + 1 == words.size() ? " or " : ", ") + words[i];
  return s;
}

void refuse_choice(const std::string& option, const std::vector<std::string>& words, const std::string& text) {
  throw InputError("command line", option, "expected " + choice_words(words) + ", got " + quote_token(text));
}

OptionTable::OptionTable(std::string program, std::string synopsis)
    : program_(std::move(program)), synopsis_(std::move(synopsis)) {}

OptionTable& OptionTable::notes(std::string text) {
  notes_ = std::move(text);
  return *this;
}

OptionTable& OptionTable::add(Entry e) {
  options_.push_back(std::move(e));
  last_ = &options_.back();
  return *this;
}

OptionTable& OptionTable::add_positional(Entry e) {
  positionals_.push_back(std::move(e));
  last_ = &positionals_.back();
  return *this;
}

OptionTable& OptionTable::flag(std::string name, bool& target, std::string help) {
  Entry e{std::move(name), "", std::move(help), "", ""};
  e.takes_value = false;
  e.read = [&target](const std::string&, const std::string&) { target = true; };
  return add(std::move(e));
}

OptionTable& OptionTable::clear_flag(std::string name, std::string& target, std::string help) {
  Entry e{std::move(name), "", std::move(help), "", ""};
  e.takes_value = false;
  e.read = [&target](const std::string&, const std::string&) { target.clear(); };
  return add(std::move(e));
}

OptionTable& OptionTable::real(std::string name, std::string placeholder, double& target, double min, double max,
                               std::string unit, std::string help) {
  Entry e{std::move(name), std::move(placeholder), std::move(help), "", shown_value(target)};
  e.range = "in [" + shown_value(min) + ", " + shown_value(max) + "]" + (unit.empty() ? "" : " " + unit);
  e.read = [&target, min, max, unit](const std::string& n, const std::string& t) {
    target = real_option(n, t, min, max, unit);
  };
  return add(std::move(e));
}

OptionTable& OptionTable::input_file(std::string name, std::string placeholder, std::string& target,
                                     std::string help) {
  Entry e{std::move(name), std::move(placeholder), std::move(help), "", target};
  e.read = [&target](const std::string& n, const std::string& t) { target = file_option(n, t); };
  return add(std::move(e));
}

OptionTable& OptionTable::output_file(std::string name, std::string placeholder, std::string& target,
                                      std::string help) {
  Entry e{std::move(name), std::move(placeholder), std::move(help), "", target};
  e.read = [&target](const std::string& n, const std::string& t) { target = output_file_option(n, t); };
  return add(std::move(e));
}

OptionTable& OptionTable::file_list(std::string name, std::string placeholder, std::vector<std::string>& target,
                                    std::string help) {
  Entry e{std::move(name), std::move(placeholder), std::move(help), "", ""};
  e.read = [&target](const std::string& n, const std::string& t) { target = file_list_option(n, t); };
  return add(std::move(e));
}

OptionTable& OptionTable::text(std::string name, std::string placeholder, Reader read, std::string help) {
  Entry e{std::move(name), std::move(placeholder), std::move(help), "", ""};
  e.read = std::move(read);
  return add(std::move(e));
}

OptionTable& OptionTable::positional_file(std::string name, std::string& target, Arity arity, std::string help) {
  Entry e{std::move(name), "", std::move(help), "", target};
  e.arity = arity;
  e.read = [&target](const std::string& n, const std::string& t) { target = file_option(n, t); };
  return add_positional(std::move(e));
}

OptionTable& OptionTable::positional_files(std::string name, std::vector<std::string>& target, Arity arity,
                                           std::string help) {
  Entry e{std::move(name), "", std::move(help), "", ""};
  e.arity = arity;
  e.read = [&target](const std::string& n, const std::string& t) { target.push_back(file_option(n, t)); };
  return add_positional(std::move(e));
}

OptionTable& OptionTable::positional(std::string name, Arity arity, Reader read, std::string help) {
  Entry e{std::move(name), "", std::move(help), "", ""};
  e.arity = arity;
  e.read = std::move(read);
  return add_positional(std::move(e));
}

OptionTable& OptionTable::shown_default(std::string text) {
  if (last_) last_->shown_default = std::move(text);
  return *this;
}

OptionTable& OptionTable::refuse_repeats() {
  refuse_repeats_ = true;
  return *this;
}

OptionTable& OptionTable::after_reading(std::function<void()> check) {
  checks_.push_back(std::move(check));
  return *this;
}

bool OptionTable::asks_for_help(int argc, char** argv) {
  for (int i = 1; i < argc; ++i)
    if (std::strcmp(argv[i], "-h") == 0 || std::strcmp(argv[i], "--help") == 0) return true;
  return false;
}

void OptionTable::refuse(const std::string& where, const std::string& expected) const {
  throw InputError("command line", where, expected);
}

void OptionTable::read(int argc, char** argv) {
  given_.clear();
  std::size_t slot = 0;       // the positional the next argument fills
  std::string last_positional;  // its text, for the refusal of an extra one
  bool slot_filled = false;
  const std::string see = " (see " + program_ + " --help)";
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a.size() > 1 && a[0] == '-') {
      const Entry* e = nullptr;
      for (const Entry& o : options_)
        if (o.name == a) e = &o;
      if (!e) refuse(a, "unknown option" + see);
      if (refuse_repeats_ && given_.count(a)) refuse(a, "given twice; expected it once");
      if (e->takes_value && i + 1 >= argc) refuse(a, "expected a value after it");
      const std::string value = e->takes_value ? std::string(argv[++i]) : std::string();
      e->read(a, value);
      given_[a] = value;
      continue;
    }
    if (slot_filled && slot < positionals_.size() &&
        (positionals_[slot].arity == Arity::required || positionals_[slot].arity == Arity::optional)) {
      ++slot;
      slot_filled = false;
    }
    if (slot >= positionals_.size()) {
      if (positionals_.empty()) refuse(a, "unexpected argument: this program takes options only" + see);
      const Entry& prev = positionals_.back();
      refuse(a, "expected one " + prev.name + " only, already have " + quote_token(last_positional));
    }
    const Entry& p = positionals_[slot];
    p.read(p.name, a);
    given_[p.name] = a;
    last_positional = a;
    slot_filled = true;
  }
  for (const Entry& p : positionals_)
    if ((p.arity == Arity::required || p.arity == Arity::one_or_more) && !given_.count(p.name))
      refuse(p.name, "expected the " + p.name + " argument" + see);
  for (const auto& check : checks_) check();
}

std::string OptionTable::help() const {
  std::string usage = synopsis_;
  if (usage.empty()) {
    usage = program_ + (options_.empty() ? "" : " [options]");
    for (const Entry& p : positionals_) {
      const bool optional = p.arity == Arity::optional || p.arity == Arity::any;
      const bool list = p.arity == Arity::one_or_more || p.arity == Arity::any;
      usage += optional ? " [" : " ";
      usage += p.name;
      if (list) usage += "...";
      if (optional) usage += "]";
    }
  }
  std::string out = "usage: ";
  out += usage + "\n";
  if (!notes_.empty()) out += notes_ + (notes_.back() == '\n' ? "" : "\n");
  auto entry = [&](const Entry& e) {
    std::string text = e.help;
    if (!e.range.empty()) text += "; " + (e.placeholder.empty() ? std::string("the value") : e.placeholder) + " " + e.range;
    if (!e.shown_default.empty()) text += " (default: " + e.shown_default + ")";
    std::string first = "  " + e.name;
    if (!e.placeholder.empty()) first += " " + e.placeholder;
    out += wrapped(first, text);
  };
  for (const Entry& p : positionals_) entry(p);
  for (const Entry& o : options_) entry(o);
  out += wrapped("  -h, --help", "this text");
  return out;
}

std::vector<std::string> OptionTable::option_names() const {
  std::vector<std::string> names;
  for (const Entry& o : options_) names.push_back(o.name);
  return names;
}

}  // namespace instrument
