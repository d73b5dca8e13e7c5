// The pending-message keys of the machine file (loggp_pending.hpp): read back as written, absent
// in an earlier probe's file, bad values refused in one line naming the file and the key, and the
// interpolation in bytes (ends held) worked by hand.
#include <catch2/catch.hpp>

#include <string>

#include "instrument/error.hpp"
#include "instrument/loggp_pending.hpp"
#include "instrument/machine_file.hpp"

using namespace instrument;
using namespace instrument::loggp;

namespace {

// Two sizes, 64 B and 1064 B; every figure 1 us at the first, 3 us at the second.
std::string two_sizes(const std::string& replace_key = "", const std::string& value = "") {
  std::string t = "format = suite-machine-1\nloggp.pending.sizes = 2\n";
  const char* bytes[] = {"64", "1064"};
  const char* v[] = {"1e-6", "3e-6"};
  for (int i = 0; i < 2; ++i) {
    const std::string base = "loggp.pending.size." + std::to_string(i + 1) + ".";
    t += base + "bytes = " + bytes[i] + "\n";
    for (const char* f : {"send_plain", "send_pending", "bsend_plain", "bsend_pending", "receive_plain", "receive_pending"})
      t += base + f + " = " + v[i] + "\n";
  }
  if (!replace_key.empty()) {
    const auto at = t.find(replace_key + " = ");
    REQUIRE(at != std::string::npos);
    t.replace(at, t.find('\n', at) - at, replace_key + " = " + value);
  }
  return t;
}

std::string refusal(const std::string& text) {
  try {
    (void)read_pending(MachineFile::parse(text, "m.machine"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

}  // namespace

TEST_CASE("loggp.pending: read, interpolated in bytes, ends held", "[instrument][loggp]") {
  const auto c = read_pending(MachineFile::parse(two_sizes(), "m.machine"));
  REQUIRE(c);
  REQUIRE(c->points.size() == 2);
  CHECK(c->largest_bytes() == 1064);
  // 314 B: a quarter of the way from 64 to 1064 -> 1 + 0.25 x 2 = 1.5 us.
  const PendingPoint p = c->at(314);
  CHECK(p.bsend_pending == Approx(1.5e-6));
  CHECK(p.receive_plain == Approx(1.5e-6));
  CHECK(p.bytes == 314);
  CHECK(c->at(8).send_pending == Approx(1e-6));
  CHECK(c->at(1 << 20).receive_pending == Approx(3e-6));
  // Written and read back alike.
  MachineFile f;
  write_pending(*c, f);
  const auto back = read_pending(MachineFile::parse(f.text(), "w.machine"));
  REQUIRE(back);
  CHECK(back->at(314).send_plain == Approx(1.5e-6));
}

TEST_CASE("loggp.pending: an earlier probe's file has none", "[instrument][loggp]") {
  CHECK_FALSE(read_pending(MachineFile::parse("format = suite-machine-1\nloggp.L = 1e-6\n", "old.machine")));
}

TEST_CASE("loggp.pending: bad values refused naming the file and the key", "[instrument][loggp]") {
  CHECK(refusal(two_sizes("loggp.pending.size.2.bytes", "64")) ==
        "m.machine:loggp.pending.size.2.bytes: expected sizes in increasing order (above 64 B), got 64");
  CHECK(refusal(two_sizes("loggp.pending.size.1.bsend_pending", "2")).find(
            "m.machine:loggp.pending.size.1.bsend_pending:") == 0);
  CHECK(refusal(two_sizes("loggp.pending.size.1.receive_plain", "-1e-6")).find(
            "m.machine:loggp.pending.size.1.receive_plain:") == 0);
  CHECK(refusal(two_sizes("loggp.pending.sizes", "17")).find("m.machine:loggp.pending.sizes:") == 0);
  CHECK(refusal(two_sizes("loggp.pending.sizes", "3")).find("missing required key 'loggp.pending.size.3.bytes'") !=
        std::string::npos);
  CHECK(refusal(two_sizes("loggp.pending.size.1.bytes", "0")).find("m.machine:loggp.pending.size.1.bytes:") == 0);
  CHECK(refusal("format = suite-machine-1\nloggp.pending.size.1.bytes = 64\n") ==
        "m.machine:loggp.pending.sizes: missing required key (the file has loggp.pending.size.1.bytes)");
  // Keys the count leaves out: a size past loggp.pending.sizes, a misspelt field.
  CHECK(refusal(two_sizes("loggp.pending.sizes", "1")) ==
        "m.machine:loggp.pending.size.2.bytes: not a key of the 1 sizes loggp.pending.sizes gives (sizes 1 "
        "to 1, each bytes and its figures)");
  CHECK(refusal(two_sizes() + "loggp.pending.size.1.send_plian = 1e-6\n").find(
            "m.machine:loggp.pending.size.1.send_plian: not a key of the 2 sizes") == 0);
  CHECK(refusal(two_sizes()) == "accepted");
}
