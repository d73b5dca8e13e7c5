// replay::peak_bytes (replay_memory.hpp): each count the engine holds adds its bytes, the
// options that keep more (contention, time order, the timeline) add theirs, and absurd counts
// saturate instead of wrapping to a small figure that would let the replay start.
#include <catch2/catch.hpp>

#include <cstdint>

#include "instrument/replay_memory.hpp"

using instrument::replay::Machine;
using instrument::replay::Options;
using instrument::replay::ProgramCounts;
using instrument::replay::peak_bytes;

namespace {

ProgramCounts some() {
  ProgramCounts c;
  c.ranks = 4096;
  c.operations = 4096 * 3000;
  c.channels = 8064;
  c.messages = 39000;
  return c;
}

}  // namespace

TEST_CASE("peak_bytes: the process, then every count adds its share", "[replay_memory]") {
  const Machine m;
  const Options o;
  CHECK(peak_bytes(ProgramCounts{}, m, o) >= instrument::replay::kProcessBytes);
  const std::uint64_t base = peak_bytes(some(), m, o);
  for (std::uint64_t ProgramCounts::*count :
       {&ProgramCounts::ranks, &ProgramCounts::channels, &ProgramCounts::messages, &ProgramCounts::requests}) {
    ProgramCounts more = some();
    more.*count = more.*count * 100 + 100000;
    CHECK(peak_bytes(more, m, o) > base);
  }
  // A message record is about 100 bytes: ten million of them are about a GB, whatever else.
  ProgramCounts many = some();
  many.messages = 10000000;
  CHECK(peak_bytes(many, m, o) > 900000000ULL);
  CHECK(peak_bytes(many, m, o) < 3000000000ULL);
}

TEST_CASE("peak_bytes: contention, time order and the timeline hold more", "[replay_memory]") {
  const std::uint64_t plain = peak_bytes(some(), Machine{}, Options{});
  Machine contended;
  contended.ranks_per_node = 4;
  contended.node_bytes_per_second = 1e9;
  CHECK(peak_bytes(some(), contended, Options{}) > plain);
  Options ordered;
  ordered.time_ordered = true;
  CHECK(peak_bytes(some(), Machine{}, ordered) > plain);
  Options timeline;
  timeline.keep_timeline = true;
  // every operation kept as an interval of at least 40 bytes
  CHECK(peak_bytes(some(), Machine{}, timeline) >= plain + some().operations * 40);
}

TEST_CASE("peak_bytes: counts beyond 2^40 saturate, never wrap", "[replay_memory]") {
  ProgramCounts huge;
  huge.ranks = huge.operations = huge.channels = huge.messages = huge.requests = ~std::uint64_t{0};
  Options everything;
  everything.keep_timeline = true;
  everything.time_ordered = true;
  const std::uint64_t bytes = peak_bytes(huge, Machine{}, everything);
  CHECK(bytes > (std::uint64_t{1} << 40));  // far above any machine: refused by require_memory
}
