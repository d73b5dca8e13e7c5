// The materials file (materials_file.hpp): values read per group, the default problem written
// and read back bit for bit, and each kind of bad line refused with its line number.
#include <catch2/catch.hpp>

#include <string>

#include "instrument/error.hpp"
#include "tycho/materials_file.hpp"

using namespace tycho;

namespace {

std::string error_of(const std::string& text, int groups = 2) {
  try {
    parse_materials(text, groups, "m.txt");
  } catch (const instrument::InputError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace

TEST_CASE("materials file: two materials, comments, blank lines, tabs, CR-LF", "[tycho][materials]") {
  const auto m = parse_materials(
      "# two\n\nmaterial 2 sigma_t 0.1 0.2\r\nmaterial 2 scatter\t0.05 0.1 # within\nmaterial 2 downscatter 0 0.02\n"
      "material 2 source 1 0\nmaterial 7 source 0 3e-1\nmaterial 7 sigma_t 1 2\nmaterial 7 scatter 0 0\n"
      "material 7 downscatter 0 0.75",
      2, "m.txt");
  REQUIRE(m.size() == 2);
  CHECK(m.at(2).sigma_t == std::vector<double>{0.1, 0.2});
  CHECK(m.at(2).scatter == std::vector<double>{0.05, 0.1});
  CHECK(m.at(2).downscatter == std::vector<double>{0, 0.02});
  CHECK(m.at(2).source == std::vector<double>{1, 0});
  CHECK(m.at(7).source == std::vector<double>{0, 0.3});
  CHECK(m.at(7).downscatter == std::vector<double>{0, 0.75});
}

TEST_CASE("materials file: the default problem written and read back bit for bit", "[tycho][materials]") {
  for (int groups : {1, 2, 5}) {
    const std::map<std::uint32_t, MaterialData> in = {{1, default_material(groups)}, {4000000000u, default_material(groups)}};
    const auto out = parse_materials(format_materials(in), groups, "formatted");
    REQUIRE(out.size() == 2);
    for (const auto& [id, data] : in) {
      CHECK(out.at(id).sigma_t == data.sigma_t);
      CHECK(out.at(id).scatter == data.scatter);
      CHECK(out.at(id).downscatter == data.downscatter);
      CHECK(out.at(id).source == data.source);
    }
  }
  CHECK(parse_materials("", 2, "empty").empty());
}

TEST_CASE("materials file: bad lines", "[tycho][materials]") {
  CHECK(error_of("mat 1 sigma_t 1 2") == "m.txt:line 1: expected `material M QUANTITY value...`, found \"mat\"");
  CHECK(error_of("material") == "m.txt:line 1: expected a material number after `material`, found the end of the line");
  CHECK(error_of("material -1 sigma_t 1 2") == "m.txt:line 1: expected a material number in [0, 4294967295], found \"-1\"");
  CHECK(error_of("\nmaterial 1 sigma 1 2") ==
        "m.txt:line 2: expected sigma_t, scatter, downscatter or source after the material, found \"sigma\"");
  CHECK(error_of("material 1 sigma_t 1") == "m.txt:line 1: expected 2 values of sigma_t (one per group), found 1");
  CHECK(error_of("material 1 sigma_t 1 x") == "m.txt:line 1: expected a finite number for group 1 of sigma_t, found \"x\"");
  CHECK(error_of("material 1 sigma_t 1 inf") == "m.txt:line 1: expected a finite number for group 1 of sigma_t, found \"inf\"");
  CHECK(error_of("material 1 sigma_t 1 2\nmaterial 1 sigma_t 1 2") ==
        "m.txt:line 2: material 1's sigma_t once, found it again (first on line 1)");
  CHECK(error_of("material 3 sigma_t 1 2") ==
        "m.txt:material 3: expected all of sigma_t, scatter, downscatter and source, missing scatter");
  CHECK(error_of("material 1 sigma_t 1 2\nmaterial 1 scatter 0 0\nmaterial 1 downscatter 0.1 0\nmaterial 1 source 0 0") ==
        "m.txt:material 1 group 0: down-scattering in [0, 1e30] (0 in group 0)");
  CHECK(error_of("material 1 sigma_t 0 2\nmaterial 1 scatter 0 0\nmaterial 1 downscatter 0 0\nmaterial 1 source 0 0") ==
        "m.txt:material 1 group 0: sigma_t in [1e-30, 1e30]");
  CHECK(error_of("material 1 sigma_t 1 2\nmaterial 1 scatter 0 0\nmaterial 1 downscatter 0 0\nmaterial 1 source 0 -1") ==
        "m.txt:material 1 group 1: a source in [0, 1e30]");
  // Group 0 scatters 0.5 into itself and 0.6 down into group 1: more than its sigma_t of 1
  // (the absorption would be -0.1); exactly sigma_t is physical (no absorption).
  CHECK(error_of("material 1 sigma_t 1 2\nmaterial 1 scatter 0.5 0\nmaterial 1 downscatter 0 0.6\nmaterial 1 source 1 0") ==
        "m.txt:material 1 group 0: scattering out of the group (self plus down to the next) at most sigma_t, "
        "found scatter 0.5 + downscatter to group 1 0.6 = 1.1 > sigma_t 1");
  CHECK(error_of("material 1 sigma_t 1 2\nmaterial 1 scatter 0.5 0\nmaterial 1 downscatter 0 0.5\nmaterial 1 source 1 0") ==
        "no error");
  CHECK(error_of("material 7 sigma_t 1 1 1\nmaterial 7 scatter 0 0.9 0\nmaterial 7 downscatter 0 1 0.2\nmaterial 7 source 1 0 0",
                 3) ==
        "m.txt:material 7 group 1: scattering out of the group (self plus down to the next) at most sigma_t, "
        "found scatter 0.9 + downscatter to group 2 0.2 = 1.1 > sigma_t 1");
}
