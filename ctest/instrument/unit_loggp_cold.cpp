// The cold-message keys of the machine file (loggp_cold.hpp): read back as written, absent in
// an earlier probe's file, every bad value refused in one line naming the key, and the
// interpolation in log N worked by hand; the same for the after-stream keys (linear in the interval).
#include <catch2/catch.hpp>

#include <cstdint>
#include <string>
#include <vector>

#include "instrument/error.hpp"
#include "instrument/loggp_cold.hpp"
#include "instrument/machine_file.hpp"

using namespace instrument;
using namespace instrument::loggp;

namespace {

// Three points: 0 (warm), 1 MiB, 16 MiB; allreduce 1, 4, 8 us; the others 1, 2, 3 us (+ offsets).
std::string three_points(const std::string& replace_key = "", const std::string& value = "") {
  std::string t = "format = suite-machine-1\nloggp.cold.small_bytes = 8\nloggp.cold.face_bytes = 8192\n"
                  "loggp.cold.points = 3\n";
  const char* ws[] = {"0", "1048576", "16777216"};
  const char* ar[] = {"1e-6", "4e-6", "8e-6"};
  const char* other[] = {"1e-6", "2e-6", "3e-6"};
  for (int i = 0; i < 3; ++i) {
    const std::string base = "loggp.cold.point." + std::to_string(i + 1) + ".";
    t += base + "working_set_bytes = " + ws[i] + "\n" + base + "allreduce8 = " + ar[i] + "\n";
    for (const char* f : {"receive_small", "receive_face", "send_small", "send_face"})
      t += base + f + " = " + other[i] + "\n";
  }
  if (!replace_key.empty()) {
    const auto at = t.find(replace_key + " = ");
    REQUIRE(at != std::string::npos);
    const auto end = t.find('\n', at);
    t.replace(at, end - at, replace_key + " = " + value);
  }
  return t;
}

std::string refusal(const std::string& text) {
  try {
    (void)read_cold(MachineFile::parse(text, "hand.machine"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("cold keys read back as written", "[loggp_cold]") {
  const auto c = read_cold(MachineFile::parse(three_points(), "hand.machine"));
  REQUIRE(c);
  CHECK(c->small_bytes == 8);
  CHECK(c->face_bytes == 8192);
  REQUIRE(c->points.size() == 3);
  CHECK(c->points[2].working_set_bytes == 16777216);
  CHECK(c->points[2].allreduce8 == 8e-6);
  CHECK(c->warm().receive_face == 1e-6);

  MachineFile f;
  write_cold(*c, f);
  const auto again = read_cold(MachineFile::parse(f.text(), "written"));
  REQUIRE(again);
  REQUIRE(again->points.size() == 3);
  CHECK(again->points[1].send_face == c->points[1].send_face);
  CHECK(again->points[1].working_set_bytes == 1048576);
  // An earlier probe's file names no order (its working sets interleaved), and none is written
  // back for it; today's probe's names its order, which reads back as written.
  CHECK(c->order.empty());
  CHECK_FALSE(MachineFile::parse(f.text(), "written").has("loggp.cold.order"));
  ColdCosts ordered = *c;
  ordered.order = kColdOrder;
  MachineFile g;
  write_cold(ordered, g);
  const auto named = read_cold(MachineFile::parse(g.text(), "named"));
  REQUIRE(named);
  CHECK(named->order == "increasing, 8 repetitions of a working set at a time");
}

TEST_CASE("a file of an earlier probe has no cold costs", "[loggp_cold]") {
  CHECK_FALSE(read_cold(MachineFile::parse("format = suite-machine-1\nloggp.L = 1e-6\n", "old.machine")));
}

TEST_CASE("interpolation in log N, end values held", "[loggp_cold]") {
  const auto c = *read_cold(MachineFile::parse(three_points(), "hand.machine"));
  CHECK(c.at(0).allreduce8 == 1e-6);                      // the warm point itself
  CHECK(c.at(1).allreduce8 == 4e-6);                      // below the smallest N > 0: held
  CHECK(c.at(1048576).allreduce8 == Approx(4e-6));
  CHECK(c.at(4194304).allreduce8 == Approx(6e-6));        // 4 MiB: half way in log from 1 to 16 MiB
  CHECK(c.at(4194304).receive_small == Approx(2.5e-6));
  CHECK(c.at(std::int64_t{1} << 40).allreduce8 == 8e-6);  // beyond the largest: held
}

TEST_CASE("bad cold values are refused naming the key", "[loggp_cold]") {
  CHECK(refusal(three_points("loggp.cold.point.2.allreduce8", "-1e-6")) ==
        "hand.machine:loggp.cold.point.2.allreduce8: expected an overhead in [0, 1] s, got -1e-06");
  CHECK(refusal(three_points("loggp.cold.point.3.send_face", "2")) ==
        "hand.machine:loggp.cold.point.3.send_face: expected an overhead in [0, 1] s, got 2");
  CHECK(refusal(three_points("loggp.cold.point.1.working_set_bytes", "4096")) ==
        "hand.machine:loggp.cold.point.1.working_set_bytes: expected 0 (the first point is the warm reference), got 4096");
  CHECK(refusal(three_points("loggp.cold.point.3.working_set_bytes", "1048576")) ==
        "hand.machine:loggp.cold.point.3.working_set_bytes: expected working sets in increasing order");
  CHECK(refusal(three_points("loggp.cold.points", "0")) ==
        "hand.machine:loggp.cold.points: expected a number of working sets in [1, 64], got 0");
  CHECK(refusal(three_points("loggp.cold.face_bytes", "0")) ==
        "hand.machine:loggp.cold.face_bytes: expected a message size in [1, 1099511627776] B, got 0");
  // A point the count names but the file lacks, and keys without their count.
  CHECK(refusal(three_points("loggp.cold.points", "4")).find("loggp.cold.point.4.working_set_bytes") !=
        std::string::npos);
  CHECK(refusal("format = suite-machine-1\nloggp.cold.point.1.allreduce8 = 1e-6\n") ==
        "hand.machine:loggp.cold.points: missing required key (the file has loggp.cold.point.1.allreduce8)");
  CHECK(refusal(three_points("loggp.cold.point.2.receive_small", "fast")).find("loggp.cold.point.2.receive_small") !=
        std::string::npos);
}

namespace {

// The after-stream keys: three points, 0, 10 and 40 messages 1 ms apart in interval
// (0.1, 1.1, 2.1 ms); the first allreduce 1, 11, 21 us; the second 1 us throughout.
std::string stream_points(const std::string& replace_key = "", const std::string& value = "") {
  std::string t = "format = suite-machine-1\nloggp.after_stream.message_bytes = 12000\n"
                  "loggp.after_stream.gap_seconds = 7e-05\nloggp.after_stream.points = 3\n";
  const char* m[] = {"0", "10", "40"};
  const char* interval[] = {"1e-4", "1.1e-3", "2.1e-3"};
  const char* first[] = {"1e-6", "11e-6", "21e-6"};
  for (int i = 0; i < 3; ++i) {
    const std::string base = "loggp.after_stream.point." + std::to_string(i + 1) + ".";
    t += base + "messages = " + m[i] + "\n" + base + "interval_seconds = " + interval[i] + "\n" + base +
         "allreduce8 = " + first[i] + "\n" + base + "second_allreduce8 = 1e-6\n";
  }
  if (!replace_key.empty()) {
    const auto at = t.find(replace_key + " = ");
    REQUIRE(at != std::string::npos);
    const auto end = t.find('\n', at);
    t.replace(at, end - at, replace_key + " = " + value);
  }
  return t;
}

// stream_points with the series of ranks streaming 1 MiB and 4 MiB: the first allreduce
// twice and three times the spinning ranks' at every point, the second 1.5 and 2 us.
std::string stream_working_sets(const std::string& replace_key = "", const std::string& value = "") {
  std::string t = stream_points() +
                  "loggp.after_stream.working_sets = 2\nloggp.after_stream.working_set.1.bytes = 1048576\n"
                  "loggp.after_stream.working_set.2.bytes = 4194304\n";
  const char* first[] = {"1e-6", "11e-6", "21e-6"};
  for (int i = 0; i < 3; ++i)
    for (int w = 1; w <= 2; ++w) {
      const std::string base =
          "loggp.after_stream.point." + std::to_string(i + 1) + ".working_set." + std::to_string(w) + ".";
      t += base + "allreduce8 = " + std::to_string((w + 1) * std::stod(first[i])) + "\n" + base +
           "second_allreduce8 = " + (w == 1 ? "1.5e-6" : "2e-6") + "\n";
    }
  if (!replace_key.empty()) {
    const auto at = t.find(replace_key + " = ");
    REQUIRE(at != std::string::npos);
    const auto end = t.find('\n', at);
    t.replace(at, end - at, replace_key + " = " + value);
  }
  return t;
}

std::string stream_refusal(const std::string& text) {
  try {
    (void)read_after_stream(MachineFile::parse(text, "hand.machine"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("after-stream keys read back as written; absent in an earlier probe's file", "[loggp_cold]") {
  const auto a = read_after_stream(MachineFile::parse(stream_points(), "hand.machine"));
  REQUIRE(a);
  CHECK(a->message_bytes == 12000);
  CHECK(a->gap == 70e-6);
  REQUIRE(a->points.size() == 3);
  CHECK(a->points[2].messages == 40);
  CHECK(a->points[1].interval == 1.1e-3);
  CHECK(a->points[2].allreduce8 == 21e-6);
  MachineFile f;
  write_after_stream(*a, f);
  const auto again = read_after_stream(MachineFile::parse(f.text(), "written"));
  REQUIRE(again);
  REQUIRE(again->points.size() == 3);
  CHECK(again->points[1].allreduce8 == a->points[1].allreduce8);
  CHECK(again->points[1].second_allreduce8 == 1e-6);
  // An earlier probe's file names no operations, and none is written back for it; today's
  // probe's names the sweep's pair, which reads back as written.
  CHECK(a->operations.empty());
  CHECK_FALSE(MachineFile::parse(f.text(), "written").has("loggp.after_stream.operations"));
  AfterStream pair = *a;
  pair.operations = kAfterStreamOperations;
  MachineFile g;
  write_after_stream(pair, g);
  const auto named = read_after_stream(MachineFile::parse(g.text(), "named"));
  REQUIRE(named);
  CHECK(named->operations == "MPI_LONG_LONG MPI_SUM, then MPI_DOUBLE MPI_MAX");
  CHECK_FALSE(read_after_stream(MachineFile::parse(three_points(), "cold-only.machine")));
  CHECK_FALSE(read_after_stream(MachineFile::parse("format = suite-machine-1\nloggp.L = 1e-6\n", "old.machine")));
}

TEST_CASE("after-stream: linear in the interval, end values held", "[loggp_cold]") {
  const auto a = *read_after_stream(MachineFile::parse(stream_points(), "hand.machine"));
  CHECK(a.at_interval(0.0).allreduce8 == 1e-6);                     // before the first: held
  CHECK(a.at_interval(0.6e-3).allreduce8 == Approx(6e-6));          // half way from 0.1 to 1.1 ms
  CHECK(a.at_interval(1.1e-3).allreduce8 == Approx(11e-6));
  CHECK(a.at_interval(1.35e-3).allreduce8 == Approx(13.5e-6));      // a quarter from 1.1 to 2.1 ms
  CHECK(a.at_interval(1.35e-3).second_allreduce8 == Approx(1e-6));
  CHECK(a.at_interval(25e-3).allreduce8 == 21e-6);                  // beyond the last: held
}

TEST_CASE("bad after-stream values are refused naming the key", "[loggp_cold]") {
  CHECK(stream_refusal(stream_points("loggp.after_stream.point.2.allreduce8", "-1e-6")) ==
        "hand.machine:loggp.after_stream.point.2.allreduce8: expected an overhead in [0, 1] s, got -1e-06");
  CHECK(stream_refusal(stream_points("loggp.after_stream.point.3.second_allreduce8", "2")) ==
        "hand.machine:loggp.after_stream.point.3.second_allreduce8: expected an overhead in [0, 1] s, got 2");
  CHECK(stream_refusal(stream_points("loggp.after_stream.point.1.messages", "5")) ==
        "hand.machine:loggp.after_stream.point.1.messages: expected 0 (the first point is the reference without "
        "a stream), got 5");
  CHECK(stream_refusal(stream_points("loggp.after_stream.point.3.messages", "10")) ==
        "hand.machine:loggp.after_stream.point.3.messages: expected message counts in increasing order");
  CHECK(stream_refusal(stream_points("loggp.after_stream.point.3.interval_seconds", "1e-3")) ==
        "hand.machine:loggp.after_stream.point.3.interval_seconds: expected intervals in increasing order");
  CHECK(stream_refusal(stream_points("loggp.after_stream.point.2.interval_seconds", "5")) ==
        "hand.machine:loggp.after_stream.point.2.interval_seconds: expected an interval in [0, 1] s, got 5");
  CHECK(stream_refusal(stream_points("loggp.after_stream.points", "0")) ==
        "hand.machine:loggp.after_stream.points: expected a number of message counts in [1, 64], got 0");
  CHECK(stream_refusal(stream_points("loggp.after_stream.message_bytes", "0")) ==
        "hand.machine:loggp.after_stream.message_bytes: expected a message size in [1, 1099511627776] B, got 0");
  CHECK(stream_refusal(stream_points("loggp.after_stream.points", "4")).find("loggp.after_stream.point.4.messages") !=
        std::string::npos);
  CHECK(stream_refusal("format = suite-machine-1\nloggp.after_stream.point.1.allreduce8 = 1e-6\n") ==
        "hand.machine:loggp.after_stream.points: missing required key (the file has "
        "loggp.after_stream.point.1.allreduce8)");
}

namespace {

// three_points with rendezvous sizes 12000 and 24000 B (the probe's figures above the eager
// limit): at 12000 B send 3, 5, 9 us and receive 4, 6, 10 us at the three working sets; at
// 24000 B each 2 us more.
std::string with_rendezvous(const std::string& replace_key = "", const std::string& value = "") {
  std::string t = three_points() +
                   "loggp.cold.rendezvous_sizes = 2\nloggp.cold.rendezvous.1.bytes = 12000\n"
                   "loggp.cold.rendezvous.2.bytes = 24000\n";
  const char* send[] = {"3e-6", "5e-6", "9e-6"};
  const char* receive[] = {"4e-6", "6e-6", "10e-6"};
  const char* send2[] = {"5e-6", "7e-6", "11e-6"};
  const char* receive2[] = {"6e-6", "8e-6", "12e-6"};
  for (int i = 0; i < 3; ++i) {
    const std::string base = "loggp.cold.point." + std::to_string(i + 1) + ".rendezvous.";
    t += base + "1.send = " + send[i] + "\n" + base + "1.receive = " + receive[i] + "\n" + base + "2.send = " +
         send2[i] + "\n" + base + "2.receive = " + receive2[i] + "\n";
  }
  if (!replace_key.empty()) {
    const auto at = t.find(replace_key + " = ");
    REQUIRE(at != std::string::npos);
    const auto end = t.find('\n', at);
    t.replace(at, end - at, replace_key + " = " + value);
  }
  return t;
}

// The file without one key (its whole line).
std::string without(const std::string& text, const std::string& key) {
  std::string t = text;
  const auto at = t.find(key + " = ");
  REQUIRE(at != std::string::npos);
  t.erase(at, t.find('\n', at) + 1 - at);
  return t;
}

}  // namespace

TEST_CASE("rendezvous figures: absent in an earlier probe's file, read back as written", "[loggp_cold]") {
  const auto old = *read_cold(MachineFile::parse(three_points(), "old.machine"));
  CHECK(old.rendezvous_bytes.empty());
  CHECK_FALSE(old.rendezvous_at(12000, 1048576));
  CHECK(old.at(4194304).receive_small == Approx(2.5e-6));  // the rest as before

  const auto c = *read_cold(MachineFile::parse(with_rendezvous(), "hand.machine"));
  REQUIRE(c.rendezvous_bytes == std::vector<std::int64_t>{12000, 24000});
  CHECK(c.points[1].send_rendezvous == std::vector<double>{5e-6, 7e-6});
  CHECK(c.points[2].receive_rendezvous == std::vector<double>{10e-6, 12e-6});
  MachineFile f;
  write_cold(c, f);
  const auto again = *read_cold(MachineFile::parse(f.text(), "written"));
  CHECK(again.rendezvous_bytes == c.rendezvous_bytes);
  CHECK(again.points[2].send_rendezvous == c.points[2].send_rendezvous);
  CHECK(again.points[0].receive_rendezvous == c.points[0].receive_rendezvous);
  // Written without rendezvous sizes: no rendezvous keys, and it reads as an earlier probe's.
  MachineFile g;
  write_cold(old, g);
  for (const std::string& k : MachineFile::parse(g.text(), "written").keys())
    CHECK(k.find("rendezvous") == std::string::npos);
}

TEST_CASE("rendezvous figures: linear in bytes, log in N, ends held", "[loggp_cold]") {
  const auto c = *read_cold(MachineFile::parse(with_rendezvous(), "hand.machine"));
  CHECK(c.rendezvous_at(12000, 1048576)->send == Approx(5e-6));
  CHECK(c.rendezvous_at(12000, 1048576)->receive == Approx(6e-6));
  CHECK(c.rendezvous_at(18000, 1048576)->send == Approx(6e-6));     // half way in bytes
  CHECK(c.rendezvous_at(18000, 1048576)->receive == Approx(7e-6));
  CHECK(c.rendezvous_at(9000, 1048576)->send == Approx(5e-6));      // below the smallest size: held
  CHECK(c.rendezvous_at(48000, 1048576)->receive == Approx(8e-6));  // above the largest: held
  CHECK(c.rendezvous_at(12000, 4194304)->send == Approx(7e-6));     // half way in log N: (5 + 9) / 2
  CHECK(c.rendezvous_at(18000, 4194304)->send == Approx(8e-6));     // and in bytes: (7 + 9) / 2
  CHECK(c.rendezvous_at(12000, 0)->send == Approx(3e-6));           // the warm reference
  CHECK(c.rendezvous_at(24000, std::int64_t{1} << 40)->receive == Approx(12e-6));
}

TEST_CASE("bad rendezvous values are refused naming the key", "[loggp_cold]") {
  CHECK(refusal(with_rendezvous("loggp.cold.rendezvous.1.bytes", "8192")) ==
        "hand.machine:loggp.cold.rendezvous.1.bytes: expected a size above loggp.cold.face_bytes = 8192 (a message "
        "sent by the rendezvous), got 8192");
  CHECK(refusal(with_rendezvous("loggp.cold.rendezvous.2.bytes", "12000")) ==
        "hand.machine:loggp.cold.rendezvous.2.bytes: expected rendezvous sizes in increasing order");
  CHECK(refusal(with_rendezvous("loggp.cold.point.2.rendezvous.1.send", "-1e-6")) ==
        "hand.machine:loggp.cold.point.2.rendezvous.1.send: expected an overhead in [0, 1] s, got -1e-06");
  CHECK(refusal(with_rendezvous("loggp.cold.point.3.rendezvous.2.receive", "2")) ==
        "hand.machine:loggp.cold.point.3.rendezvous.2.receive: expected an overhead in [0, 1] s, got 2");
  CHECK(refusal(with_rendezvous("loggp.cold.rendezvous_sizes", "9")) ==
        "hand.machine:loggp.cold.rendezvous_sizes: expected a number of rendezvous sizes in [0, 8], got 9");
  CHECK(refusal(with_rendezvous("loggp.cold.rendezvous_sizes", "3")).find("loggp.cold.rendezvous.3.bytes") !=
        std::string::npos);
  CHECK(refusal(without(with_rendezvous(), "loggp.cold.point.2.rendezvous.2.receive"))
            .find("loggp.cold.point.2.rendezvous.2.receive") != std::string::npos);
  CHECK(refusal(without(with_rendezvous(), "loggp.cold.rendezvous_sizes")) ==
        "hand.machine:loggp.cold.rendezvous_sizes: missing required key (the file has loggp.cold.rendezvous.1.bytes)");
  CHECK(refusal(three_points() + "loggp.cold.point.1.rendezvous.1.send = 1e-6\n") ==
        "hand.machine:loggp.cold.rendezvous_sizes: missing required key (the file has "
        "loggp.cold.point.1.rendezvous.1.send)");
  CHECK(refusal(with_rendezvous("loggp.cold.point.1.rendezvous.1.receive", "slow")).find(
            "loggp.cold.point.1.rendezvous.1.receive") != std::string::npos);
}

TEST_CASE("after-stream working sets read back as written; an earlier file has none", "[loggp_cold]") {
  const auto a = read_after_stream(MachineFile::parse(stream_working_sets(), "hand.machine"));
  REQUIRE(a);
  REQUIRE(a->working_sets == std::vector<std::int64_t>{1048576, 4194304});
  REQUIRE(a->points[1].streamed_allreduce8.size() == 2);
  CHECK(a->points[1].streamed_allreduce8[1] == Approx(33e-6));
  CHECK(a->points[2].streamed_second_allreduce8[0] == 1.5e-6);
  MachineFile f;
  write_after_stream(*a, f);
  const auto again = read_after_stream(MachineFile::parse(f.text(), "written"));
  REQUIRE(again);
  CHECK(again->working_sets == a->working_sets);
  CHECK(again->points[2].streamed_allreduce8 == a->points[2].streamed_allreduce8);
  CHECK(again->points[0].streamed_second_allreduce8 == a->points[0].streamed_second_allreduce8);
  // The spinning series alone (an earlier probe's file): no working sets, and at() at any
  // working set gives its figures.
  const auto old = *read_after_stream(MachineFile::parse(stream_points(), "old.machine"));
  CHECK(old.working_sets.empty());
  CHECK(old.at(0.6e-3, 4 << 20).first == Approx(6e-6));
  CHECK(old.at(0.6e-3, 4 << 20).second == Approx(1e-6));
}

TEST_CASE("after-stream by the working set: linear in N to the first, in log N between, held above",
          "[loggp_cold]") {
  const auto a = *read_after_stream(MachineFile::parse(stream_working_sets(), "hand.machine"));
  CHECK(a.at(1.1e-3, 0).first == Approx(11e-6));            // spinning
  CHECK(a.at(1.1e-3, -5).first == Approx(11e-6));
  CHECK(a.at(1.1e-3, 1 << 19).first == Approx(16.5e-6));    // half way to 1 MiB: linear in N
  CHECK(a.at(1.1e-3, 1 << 19).second == Approx(1.25e-6));
  CHECK(a.at(1.1e-3, 1 << 20).first == Approx(22e-6));
  CHECK(a.at(1.1e-3, 1 << 21).first == Approx(27.5e-6));    // 2 MiB: half way in log N
  CHECK(a.at(1.1e-3, 1 << 22).first == Approx(33e-6));
  CHECK(a.at(1.1e-3, std::int64_t{1} << 34).first == Approx(33e-6));  // held
  CHECK(a.at(0.6e-3, 1 << 22).first == Approx(18e-6));      // and by the interval, as before
  CHECK(a.at(25e-3, 1 << 22).second == Approx(2e-6));
}

TEST_CASE("bad after-stream working sets are refused naming the key", "[loggp_cold]") {
  {  // a working set's keys without their count would be read as none
    std::string t = stream_working_sets();
    const std::string count = "loggp.after_stream.working_sets = 2\n";
    REQUIRE(t.find(count) != std::string::npos);
    t.erase(t.find(count), count.size());
    const std::string refusal = stream_refusal(t);
    CHECK(refusal.rfind("hand.machine:loggp.after_stream.working_sets: missing required key (the file has "
                        "loggp.after_stream.", 0) == 0);
    CHECK(refusal.find("working_set.") != std::string::npos);
  }
  CHECK(stream_refusal(stream_working_sets("loggp.after_stream.working_sets", "9")) ==
        "hand.machine:loggp.after_stream.working_sets: expected a number of working sets in [0, 8], got 9");
  CHECK(stream_refusal(stream_working_sets("loggp.after_stream.working_set.2.bytes", "1048576")) ==
        "hand.machine:loggp.after_stream.working_set.2.bytes: expected working sets in increasing order");
  CHECK(stream_refusal(stream_working_sets("loggp.after_stream.working_set.1.bytes", "0")) ==
        "hand.machine:loggp.after_stream.working_set.1.bytes: expected a working set above 0 B (0 is the "
        "spinning series)");
  CHECK(stream_refusal(stream_working_sets("loggp.after_stream.point.2.working_set.2.allreduce8", "-1e-6")) ==
        "hand.machine:loggp.after_stream.point.2.working_set.2.allreduce8: expected an overhead in [0, 1] s, got "
        "-1e-06");
  CHECK(stream_refusal(stream_working_sets("loggp.after_stream.working_sets", "3"))
            .find("loggp.after_stream.working_set.3.bytes") != std::string::npos);
  CHECK(stream_refusal(stream_working_sets("loggp.after_stream.working_set.1.bytes", "lots"))
            .find("loggp.after_stream.working_set.1.bytes") != std::string::npos);
}
