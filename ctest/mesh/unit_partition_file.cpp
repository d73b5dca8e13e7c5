// Partition files: one part per line; every malformed case with its exact message.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <string>

#include "../input_error_text.hpp"
#include "mesh/partition.hpp"

using namespace mesh;

TEST_CASE("a partition file of one part per line, with or without a final newline", "[partition][file]") {
  CHECK(parse_partition("0\n1\n1\n0\n", 4, 2, "p").part_of_cell == std::vector<std::int32_t>{0, 1, 1, 0});
  CHECK(parse_partition("2\n 0 \r\n1", 3, 3, "p").part_of_cell == std::vector<std::int32_t>{2, 0, 1});
  const std::string path = "unit_partition_file.part";
  { std::ofstream("unit_partition_file.part") << "1\n0\n"; }
  const Partition p = read_partition_file(path, 2, 2);
  CHECK(p.parts == 2);
  CHECK(p.part_of_cell == std::vector<std::int32_t>{1, 0});
  std::remove(path.c_str());
}

TEST_CASE("a partition written is read back the same", "[partition][file]") {
  const Partition p{3, {2, 0, 1, 1}};
  CHECK(format_partition(p) == "2\n0\n1\n1\n");
  const std::string path = "unit_partition_file_written.part";
  write_partition_file(p, path);
  CHECK(read_partition_file(path, 4, 3).part_of_cell == p.part_of_cell);
  std::remove(path.c_str());
}

TEST_CASE("a partition file that is not one part in [0, P) per cell is refused naming the line", "[partition][file]") {
  const auto error = [](std::string_view text, std::size_t cells, int parts) {
    return input_error_text([&] { (void)parse_partition(text, cells, parts, "cube.part"); });
  };
  CHECK(error("0\n1\n", 3, 2) == "cube.part:line 3: expected 3 lines, one part per cell, found 2");
  CHECK(error("0\n1\n1\n0\n", 3, 2) == "cube.part:line 4: expected 3 lines, one part per cell, found more");
  CHECK(error("", 3, 2) == "cube.part:line 1: expected 3 lines, one part per cell, found an empty file");
  CHECK(error("0\n2\n1\n", 3, 2) ==
        "cube.part:line 2: expected the part of cell 1, a whole number in [0, 2), found \"2\"");
  CHECK(error("0\n-1\n1\n", 3, 2) ==
        "cube.part:line 2: expected the part of cell 1, a whole number in [0, 2), found \"-1\"");
  CHECK(error("0\n1\n1.5\n", 3, 2) ==
        "cube.part:line 3: expected the part of cell 2, a whole number in [0, 2), found \"1.5\"");
  CHECK(error("0\n\n1\n", 3, 2) ==
        "cube.part:line 2: expected the part of cell 1, a whole number in [0, 2), found \"\"");
  CHECK(error("0 1\n1\n1\n", 3, 2) ==
        "cube.part:line 1: expected the part of cell 0, a whole number in [0, 2), found \"0 1\"");
  CHECK(error("0\n1\n", 2, 3) == "cube.part:P: expected a part count in [1, 2] (at most one part per cell), found 3");
  CHECK(input_error_text([] { (void)read_partition_file("no-such.part", 2, 2); }).rfind("no-such.part", 0) == 0);
}
