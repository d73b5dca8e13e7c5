// Field reader of .msh files (gmsh_cursor.hpp).
#include "mesh/gmsh_cursor.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <cstring>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"

namespace mesh {

namespace {

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

// Bytes past a header's own length in which its line must end (trailing blanks, CR).
constexpr std::size_t kHeaderSlack = 64;

}  // namespace

std::string GmshCursor::place(std::size_t at) const {
  if (binary_) return "byte " + std::to_string(at);
  at = std::min(at, bytes_.size());
  return "line " + std::to_string(1 + std::count(bytes_.begin(), bytes_.begin() + static_cast<std::ptrdiff_t>(at), '\n'));
}

void GmshCursor::fail_at(std::size_t at, const std::string& expected) const {
  throw instrument::InputError(file_, place(at), expected);
}

void GmshCursor::skip_space() {
  while (pos_ < bytes_.size() && is_space(bytes_[pos_])) ++pos_;
}

std::string_view GmshCursor::line(const char* what) {
  if (at_end()) fail(std::string("expected ") + what + ", found the end of the file (truncated)");
  const std::size_t end = bytes_.find('\n', pos_);
  std::string_view text = bytes_.substr(pos_, end == std::string_view::npos ? std::string_view::npos : end - pos_);
  pos_ = end == std::string_view::npos ? bytes_.size() : end + 1;
  while (!text.empty() && (text.back() == '\r' || text.back() == ' ' || text.back() == '\t')) text.remove_suffix(1);
  return text;
}

std::string_view GmshCursor::short_line(const char* what, std::size_t max_bytes) {
  const std::string_view window = bytes_.substr(pos_, max_bytes);
  if (window.size() < bytes_left() && window.find('\n') == std::string_view::npos)
    fail(std::string("expected ") + what + ", found " + instrument::quote_token(window));
  return line(what);
}

void GmshCursor::expect_header(std::string_view header) {
  skip_space();
  const std::size_t at = pos_;
  const std::string want = "expected " + std::string(header);
  if (at_end()) fail(want + ", found the end of the file (truncated)");
  const std::string_view text = short_line(want.c_str() + 9, header.size() + kHeaderSlack);
  if (text != header) fail_at(at, want + ", found " + instrument::quote_token(text));
}

std::string_view GmshCursor::token(const char* what) {
  skip_space();
  if (at_end()) fail(std::string("expected ") + what + ", found the end of the file (truncated)");
  const std::size_t start = pos_;
  while (pos_ < bytes_.size() && !is_space(bytes_[pos_])) ++pos_;
  return bytes_.substr(start, pos_ - start);
}

const char* GmshCursor::take(std::size_t n, const char* what) {
  if (bytes_left() < n)
    fail(std::string("expected ") + what + " (" + std::to_string(n) + " bytes), found the end of the file after " +
         std::to_string(bytes_left()) + " (truncated)");
  const char* p = bytes_.data() + pos_;
  pos_ += n;
  return p;
}

std::uint64_t GmshCursor::size(const char* what) {
  if (binary_) {
    std::uint64_t v;
    std::memcpy(&v, take(sizeof v, what), sizeof v);
    return v;
  }
  const std::string_view t = token(what);
  std::uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size())
    fail_at(pos_ - t.size(), std::string("expected ") + what + " (an unsigned integer), found " +
                                 instrument::quote_token(t));
  return v;
}

std::int32_t GmshCursor::integer(const char* what) {
  if (binary_) {
    std::int32_t v;
    std::memcpy(&v, take(sizeof v, what), sizeof v);
    return v;
  }
  const std::string_view t = token(what);
  std::int32_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec != std::errc() || end != t.data() + t.size())
    fail_at(pos_ - t.size(), std::string("expected ") + what + " (a 32-bit integer), found " +
                                 instrument::quote_token(t));
  return v;
}

double GmshCursor::real(const char* what) {
  if (binary_) {
    double v;
    std::memcpy(&v, take(sizeof v, what), sizeof v);
    return v;
  }
  const std::string_view t = token(what);
  double v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  if (ec == std::errc::result_out_of_range && end == t.data() + t.size()) {
    // from_chars reports underflow and overflow alike. Gmsh reads 1e-400 as 0 (strtod):
    // so do we; a magnitude past the largest double is refused as such.
    const std::string copy(t);
    v = std::strtod(copy.c_str(), nullptr);
    if (std::isinf(v))
      fail_at(pos_ - t.size(), std::string("expected ") + what +
                                   " (a number of magnitude at most 1.8e308), found " + instrument::quote_token(t));
    return v;
  }
  if (ec != std::errc() || end != t.data() + t.size())
    fail_at(pos_ - t.size(), std::string("expected ") + what + " (a number), found " + instrument::quote_token(t));
  return v;
}

void GmshCursor::require_room(std::size_t at, const char* what, std::uint64_t n, std::size_t min_bytes) const {
  if (min_bytes > 0 && n > bytes_left() / min_bytes)
    fail_at(at, std::string("expected ") + what + " that the rest of the file can hold (" +
                    std::to_string(bytes_left()) + " bytes, at least " + std::to_string(min_bytes) +
                    " per record), found " + std::to_string(n) + " (truncated?)");
}

std::uint64_t GmshCursor::count(const char* what, std::size_t min_bytes) {
  const std::size_t at = next();
  const std::uint64_t n = size(what);
  require_room(at, what, n, min_bytes);
  return n;
}

std::uint64_t GmshCursor::text_count(const char* what, std::size_t min_bytes) {
  if (!binary_) return count(what, min_bytes);
  const std::size_t at = pos_;
  const std::string_view t = line(what);
  std::uint64_t n = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), n);
  if (t.empty() || ec != std::errc() || end != t.data() + t.size())
    fail_at(at, std::string("expected ") + what + " (an unsigned integer on its own line), found " +
                    instrument::quote_token(t));
  require_room(at, what, n, min_bytes);
  return n;
}

void GmshCursor::skip_section(std::string_view name, std::size_t header_at) {
  const std::string end = "$End" + std::string(name);
  std::size_t at = pos_;
  while (true) {
    at = bytes_.find(end, at);
    if (at == std::string_view::npos)
      fail_at(header_at, "expected " + end + " to close $" + std::string(name) + ", found the end of the file (truncated)");
    // The end line starts a line (the data before it may be binary, and ends in LF).
    if (at == 0 || bytes_[at - 1] == '\n') break;
    ++at;
  }
  pos_ = at;
  line(end.c_str());
}

}  // namespace mesh
