// Recursive-doubling allreduce rounds, counted by hand.
#include <catch2/catch.hpp>

#include "instrument/collective_model.hpp"

TEST_CASE("allreduce rounds: log2 p for powers of two, two more otherwise") {
  CHECK(instrument::allreduce_rounds(1) == 0);
  CHECK(instrument::allreduce_rounds(2) == 1);
  CHECK(instrument::allreduce_rounds(3) == 1 + 2);   // p' = 2
  CHECK(instrument::allreduce_rounds(4) == 2);
  CHECK(instrument::allreduce_rounds(6) == 2 + 2);   // p' = 4
  CHECK(instrument::allreduce_rounds(8) == 3);
  CHECK(instrument::allreduce_rounds(65536) == 16);
  CHECK(instrument::allreduce_rounds(65537) == 18);
  CHECK(instrument::allreduce_seconds(4, 1.5e-6) == Approx(3e-6));
}
