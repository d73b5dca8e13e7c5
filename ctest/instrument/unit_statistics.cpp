// summarise and median (instrument/statistics.hpp) on values worked by hand.
#include <catch2/catch.hpp>

#include <vector>

#include "instrument/statistics.hpp"

using namespace instrument;

TEST_CASE("summarise: min, mean, median, max, count", "[statistics]") {
  // 4, 1, 3, 2: sorted 1 2 3 4; mean 10/4 = 2.5; median (2 + 3)/2 = 2.5.
  const std::vector<double> v = {4.0, 1.0, 3.0, 2.0};
  const Summary s = summarise(v);
  CHECK(s.min == 1.0);
  CHECK(s.max == 4.0);
  CHECK(s.mean == 2.5);
  CHECK(s.median == 2.5);
  CHECK(s.count == 4);
  CHECK(v == std::vector<double>{4.0, 1.0, 3.0, 2.0});  // the input is left as it was
  // Odd count: 5, 1, 3 -> median 3, mean 3.
  CHECK(summarise({5.0, 1.0, 3.0}).median == 3.0);
  // Nothing: every field 0.
  const Summary none = summarise({});
  CHECK(none.count == 0);
  CHECK(none.min == 0.0);
  CHECK(none.max == 0.0);
  CHECK(none.median == 0.0);
}

TEST_CASE("median: middle value, or the mean of the two middle ones", "[statistics]") {
  CHECK(median({7.0}) == 7.0);
  CHECK(median({9.0, 1.0, 5.0}) == 5.0);
  CHECK(median({9.0, 1.0, 5.0, 3.0}) == 4.0);  // (3 + 5) / 2
  CHECK(median({2.0, 2.0, 1.0, 8.0, 8.0, 8.0}) == 5.0);  // sorted 1 2 2 8 8 8: (2 + 8) / 2
  CHECK(median({}) == 0.0);
}
