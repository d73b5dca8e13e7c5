// read_input_file / require_regular_input refuse what is not a regular file without blocking,
// and quote_token quotes a bad token short and printable.
#include <catch2/catch.hpp>
#include <sys/stat.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <string>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "../input_error_text.hpp"

using instrument::InputError;
using instrument::quote_token;
using instrument::read_input_file;
using instrument::require_regular_input;

namespace {


std::filesystem::path temp_dir() {
  const auto d = std::filesystem::temp_directory_path() / ("input_file_test_" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

void write(const std::filesystem::path& p, const std::string& text) {
  std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("a regular file is read whole, bytes as they are", "[input_file]") {
  const auto d = temp_dir();
  const std::string text("a = 1\n\0b\r\n", 10);
  write(d / "deck", text);
  CHECK(read_input_file((d / "deck").string(), "input deck") == text);
  write(d / "empty", "");
  CHECK(read_input_file((d / "empty").string(), "input deck").empty());
  CHECK_NOTHROW(require_regular_input((d / "deck").string(), "results file"));
  std::filesystem::remove_all(d);
}

TEST_CASE("a FIFO with no writer is refused at once, not waited on", "[input_file]") {
  const auto d = temp_dir();
  const std::string fifo = (d / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  ::alarm(20);  // a blocking open would hang the test: SIGALRM ends it as a failure instead
  const std::string e = input_error_text([&] { (void)read_input_file(fifo, "input deck"); });
  CHECK(e == fifo + ": input deck is a FIFO, not a regular file; expected a regular file");
  const std::string r = input_error_text([&] { require_regular_input(fifo, "results file"); });
  CHECK(r == fifo + ": results file is a FIFO, not a regular file; expected a regular file");
  ::alarm(0);
  std::filesystem::remove_all(d);
}

TEST_CASE("a directory, a device and a missing path are refused", "[input_file]") {
  const auto d = temp_dir();
  CHECK(input_error_text([&] { (void)read_input_file(d.string(), "machine file"); }) ==
        d.string() + ": machine file is a directory, not a regular file; expected a regular file");
  CHECK(input_error_text([] { (void)read_input_file("/dev/zero", "input deck"); }) ==
        "/dev/zero: input deck is a character device, not a regular file; expected a regular file");
  CHECK(input_error_text([] { require_regular_input("/dev/null", "calibration file"); }) ==
        "/dev/null: calibration file is a character device, not a regular file; expected a regular file");
  const std::string missing = (d / "nothing-here").string();
  CHECK(input_error_text([&] { (void)read_input_file(missing, "input deck"); }) ==
        missing + ": cannot open input deck: No such file or directory");
  std::filesystem::remove_all(d);
}

TEST_CASE("a file larger than the limit is refused with both sizes", "[input_file]") {
  const auto d = temp_dir();
  write(d / "big", std::string(101, 'x'));
  const std::string big = (d / "big").string();
  CHECK(input_error_text([&] { (void)read_input_file(big, "profile", 100); }) ==
        big + ": profile is 101 bytes, more than the 100 bytes expected of one");
  CHECK(read_input_file(big, "profile", 101).size() == 101);  // the limit itself is allowed
  std::filesystem::remove_all(d);
}

TEST_CASE("an unreadable file is refused with the reason", "[input_file]") {
  if (::geteuid() == 0) SUCCEED("root reads every file: nothing to check");
  else {
    const auto d = temp_dir();
    write(d / "secret", "x");
    std::filesystem::permissions(d / "secret", std::filesystem::perms::none);
    const std::string p = (d / "secret").string();
    CHECK(input_error_text([&] { (void)read_input_file(p, "input deck"); }) ==
          p + ": cannot open input deck: Permission denied");
    std::filesystem::remove_all(d);
  }
}

TEST_CASE("quote_token: short, printable, in double quotes", "[input_file]") {
  CHECK(quote_token("2000abc") == "\"2000abc\"");
  CHECK(quote_token("") == "\"\"");
  CHECK(quote_token("12\n3") == "\"12\\x0a3\"");
  CHECK(quote_token(std::string_view("a\0b", 3)) == "\"a\\x00b\"");
  CHECK(quote_token("\x7f\t") == "\"\\x7f\\x09\"");
  CHECK(quote_token("\xc3\xa9") == "\"\\xc3\\xa9\"");  // UTF-8 e-acute: bytes, not a character
  CHECK(quote_token("say \"hi\"\\") == "\"say \\x22hi\\x22\\x5c\"");
  // 24 bytes are kept whole; the 25th starts the ellipsis.
  CHECK(quote_token("abcdefghijklmnopqrstuvwx") == "\"abcdefghijklmnopqrstuvwx\"");
  CHECK(quote_token("abcdefghijklmnopqrstuvwxy") == "\"abcdefghijklmnopqrstuvwx...\"");
  CHECK(quote_token(std::string(1000000, '9')) == "\"" + std::string(24, '9') + "...\"");
  // An escape counts as the one byte it stands for.
  CHECK(quote_token(std::string(30, '\n')).size() == 1 + 24 * 4 + 3 + 1);
}
