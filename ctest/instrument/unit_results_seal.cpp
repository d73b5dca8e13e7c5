// The seal that lets the results reader refuse a damaged file before libhdf5 parses it.
#include <catch2/catch.hpp>

#include <string>

#include "../../instrument/src/results_seal.hpp"
#include "instrument/error.hpp"

using Catch::Matchers::Contains;
namespace seal = instrument::seal;

namespace {

std::string sealed(const std::string& body) { return seal::user_block_for(body) + body; }

std::string refusal(const std::string& file) {
  try {
    seal::verify(file, "run.h5");
  } catch (const instrument::InputError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("the seal's CRC-32 is the IEEE one (zlib, Python)", "[seal]") {
  CHECK(seal::crc32_of("123456789") == 0xCBF43926u);  // the standard check value
  CHECK(seal::crc32_of("") == 0u);
}

TEST_CASE("the user block is 512 bytes of header then NULs", "[seal]") {
  const std::string block = seal::user_block_for("123456789");
  REQUIRE(block.size() == 512);
  CHECK(block.substr(0, block.find('\n') + 1) == "suite-results-seal-1 crc32 cbf43926 bytes 9\n");
  CHECK(block.find_first_not_of('\0', block.find('\n') + 1) == std::string::npos);
}

TEST_CASE("a sealed file passes; a damaged, truncated or unsealed one is refused", "[seal]") {
  const std::string body(5000, 'x');
  const std::string good = sealed(body);
  CHECK(refusal(good).empty());

  std::string damaged = good;
  damaged[600] = 'y';
  CHECK_THAT(refusal(damaged), Contains("run.h5: the file does not match its seal") &&
                                   Contains("damaged or edited"));

  CHECK_THAT(refusal(good.substr(0, good.size() - 1)), Contains("truncated"));
  CHECK_THAT(refusal(good + "z"), Contains("truncated or extended"));

  std::string forged_header = good;
  forged_header[30] = forged_header[30] == '0' ? '1' : '0';  // a digit of the CRC
  CHECK_THAT(refusal(forged_header), Contains("does not match its seal"));

  CHECK_THAT(refusal(body), Contains("not a sealed suite results file"));
  CHECK_THAT(refusal(""), Contains("not a sealed suite results file"));
  CHECK_THAT(refusal(std::string(512, '\0') + body), Contains("not a sealed"));
}
