// Reading a Gmsh .msh file field by field, ASCII or binary, with the place of every field
// kept for the error messages: "line N" in an ASCII file, "byte N" in a binary one (the
// line is counted only when an error is thrown).
//
// The same calls read both encodings, so one parser reads a format in ASCII and binary:
// size() is a size_t of the file (an unsigned token in ASCII, 8 bytes in binary), integer()
// an int (a signed token, 4 bytes), real() a double (a token, 8 bytes). The text parts of a
// binary file (the format line, section headers, the counts of version 2.2) are read as
// lines, never by skipping white space, which could eat binary data.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

namespace mesh {

// The longest section header line read ("$PartitionedEntities" and the like are far shorter).
inline constexpr std::size_t kMaxSectionHeaderBytes = 256;

class GmshCursor {
 public:
  GmshCursor(std::string_view bytes, const std::string& file) : bytes_(bytes), file_(file) {}

  void set_binary(bool binary) { binary_ = binary; }
  bool binary() const { return binary_; }
  std::size_t offset() const { return pos_; }
  // The place of the next field (in ASCII past the white space before it): what errors about
  // a record name.
  std::size_t next() {
    if (!binary_) skip_space();
    return pos_;
  }
  bool at_end() const { return pos_ >= bytes_.size(); }
  std::size_t bytes_left() const { return bytes_.size() - pos_; }

  // Skips spaces, tabs, CR and LF: only where text is expected.
  void skip_space();
  // The rest of the line (without its CR LF), the LF consumed. Refused at the end of the file.
  std::string_view line(const char* what);
  // A line that must be short (a section header): refused as soon as max_bytes pass without
  // its end, so a file of gigabytes with no newline is not scanned to its end.
  std::string_view short_line(const char* what, std::size_t max_bytes);
  // skip_space, then a line that must be exactly `header` ("$Nodes").
  void expect_header(std::string_view header);

  std::uint64_t size(const char* what);
  std::int32_t integer(const char* what);
  double real(const char* what);
  // A size_t field as a count of records of at least `min_bytes` each: refused when the
  // rest of the file cannot hold them, before anything is allocated for them.
  std::uint64_t count(const char* what, std::size_t min_bytes);
  // Refuses (at `at`) n records of at least min_bytes each when the rest of the file is shorter.
  void require_room(std::size_t at, const char* what, std::uint64_t n, std::size_t min_bytes) const;

  // A count on a line of its own (version 2.2's $Nodes and $Elements): a token in ASCII,
  // the whole line in binary. Checked as count() checks.
  std::uint64_t text_count(const char* what, std::size_t min_bytes);

  // The whole section up to and including its end line (`$EndName`), unread; a missing
  // end line is refused at `header_at`, the place of the section's header.
  void skip_section(std::string_view name, std::size_t header_at);

  // Throws InputError(file, place of `at`, expected).
  [[noreturn]] void fail_at(std::size_t at, const std::string& expected) const;
  [[noreturn]] void fail(const std::string& expected) const { fail_at(pos_, expected); }
  std::string place(std::size_t at) const;

 private:
  std::string_view token(const char* what);
  const char* take(std::size_t n, const char* what);

  std::string_view bytes_;
  const std::string& file_;
  std::size_t pos_ = 0;
  bool binary_ = false;
};

}  // namespace mesh
