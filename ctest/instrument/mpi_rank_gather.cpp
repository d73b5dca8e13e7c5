// gather_to_root and gather_strings_to_root: every rank's records at root in rank order, with
// uneven counts (rank r sends r * r records, so rank 0 and, at 1 rank, all ranks send none),
// nothing on the other ranks; a total past MPI's int counts refused on every rank alike.
#include <catch2/catch.hpp>
#include <mpi.h>

#include <climits>
#include <cstdint>
#include <string>
#include <vector>

#include "instrument/mpi_main.hpp"
#include "instrument/rank_gather.hpp"

using namespace instrument;

namespace {

struct Record {  // a record with padding-free mixed fields, as the apps' are
  double seconds;
  std::int64_t step;
  std::int32_t rank;
  std::int32_t index;
};

int rank_of(MPI_Comm c) {
  int r = 0;
  MPI_Comm_rank(c, &r);
  return r;
}
int size_of(MPI_Comm c) {
  int p = 1;
  MPI_Comm_size(c, &p);
  return p;
}

}  // namespace

TEST_CASE("records of uneven counts, zero included, arrive at root in rank order") {
  const int me = rank_of(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  for (int root = 0; root < p; ++root) {
    std::vector<Record> mine;
    for (int i = 0; i < me * me; ++i) mine.push_back(Record{0.1 * i + me, 1000 * me + i, me, i});
    const GatheredRecords<Record> got = gather_to_root(MPI_COMM_WORLD, std::span<const Record>(mine), root);
    if (me != root) {
      CHECK(got.all.empty());
      CHECK(got.ranks() == 0);
      continue;
    }
    REQUIRE(got.ranks() == p);
    std::size_t expected_total = 0;
    for (int r = 0; r < p; ++r) {
      const auto theirs = got.of_rank(r);
      REQUIRE(theirs.size() == static_cast<std::size_t>(r * r));
      expected_total += theirs.size();
      for (int i = 0; i < r * r; ++i) {
        CHECK(theirs[static_cast<std::size_t>(i)].seconds == 0.1 * i + r);  // bit for bit
        CHECK(theirs[static_cast<std::size_t>(i)].step == 1000 * r + i);
        CHECK(theirs[static_cast<std::size_t>(i)].rank == r);
        CHECK(theirs[static_cast<std::size_t>(i)].index == i);
      }
    }
    CHECK(got.all.size() == expected_total);
    const auto split = got.per_rank();
    REQUIRE(split.size() == static_cast<std::size_t>(p));
    CHECK(split.front().empty());  // rank 0 sent nothing
    CHECK(split.back().size() == static_cast<std::size_t>((p - 1) * (p - 1)));
  }
}

TEST_CASE("strings of any bytes and lengths, empty ones too, arrive whole") {
  const int me = rank_of(MPI_COMM_WORLD), p = size_of(MPI_COMM_WORLD);
  std::string mine;
  if (me % 2 == 1) mine = std::string("rank\0", 5) + std::to_string(me) + std::string(static_cast<std::size_t>(me), 'x');
  const std::vector<std::string> got = gather_strings_to_root(MPI_COMM_WORLD, mine, 0);
  if (me != 0) {
    CHECK(got.empty());
    return;
  }
  REQUIRE(got.size() == static_cast<std::size_t>(p));
  for (int r = 0; r < p; ++r) {
    const std::string expected =
        r % 2 == 1 ? std::string("rank\0", 5) + std::to_string(r) + std::string(static_cast<std::size_t>(r), 'x') : "";
    CHECK(got[static_cast<std::size_t>(r)] == expected);
  }
}

TEST_CASE("a total past MPI's int counts is refused on every rank, before any data moves") {
  const int p = size_of(MPI_COMM_WORLD);
  // Exactly INT_MAX records in all is still addressable; one more is not.
  const std::size_t share = static_cast<std::size_t>(INT_MAX) / static_cast<std::size_t>(p);
  const std::size_t last_extra = static_cast<std::size_t>(INT_MAX) - share * static_cast<std::size_t>(p);
  const bool last = rank_of(MPI_COMM_WORLD) == p - 1;
  const auto fitting = detail::gather_offsets(MPI_COMM_WORLD, share + (last ? last_extra : 0), 8, "test records");
  CHECK(fitting.back() == static_cast<std::size_t>(INT_MAX));
  try {
    (void)detail::gather_offsets(MPI_COMM_WORLD, share + (last ? last_extra + 1 : 0), 8, "test records");
    FAIL("one record past INT_MAX should have been refused");
  } catch (const CollectiveError& e) {
    const std::string what = e.what();
    CHECK(what == "gathering test records to one rank: " + std::to_string(static_cast<long long>(INT_MAX) + 1) +
                      " records of 8 bytes from " + std::to_string(p) +
                      " ranks; expected at most 2147483647 in all (MPI's int counts), refusing rather than wrap");
  }
  // Counts that would wrap a 64-bit sum as well.
  CHECK_THROWS_AS(detail::gather_offsets(MPI_COMM_WORLD, SIZE_MAX, 1, "huge"), CollectiveError);
}
