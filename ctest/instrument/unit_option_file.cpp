// File names on the command line (option_file.hpp): an empty output name and an empty entry of
// a list refused naming the option; an output path OutputFile would refuse refused up front,
// with nothing created.
#include <catch2/catch.hpp>
#include <mpi.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "../input_error_text.hpp"
#include "../scratch_dir.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/option_file.hpp"

using namespace instrument;
namespace fs = std::filesystem;

TEST_CASE("an output option needs a file name") {
  CHECK(output_file_option("--results", "run.h5") == "run.h5");
  CHECK(input_error_text([] { output_file_option("--results", ""); }) ==
        "command line:--results: expected a file name, got \"\"");
}

TEST_CASE("an input option needs a file name: \"\" is not \"not given\"") {
  CHECK(file_option("--machine", "sp2.machine") == "sp2.machine");
  CHECK(input_error_text([] { file_option("--machine", ""); }) ==
        "command line:--machine: expected a file name, got \"\"");
}

TEST_CASE("a file list refuses an empty entry, naming it") {
  CHECK(file_list_option("--calibration", "a.h5") == std::vector<std::string>{"a.h5"});
  CHECK(file_list_option("--calibration", "a.h5,b.h5") == std::vector<std::string>{"a.h5", "b.h5"});
  CHECK(input_error_text([] { file_list_option("--calibration", ""); }) ==
        "command line:--calibration: expected a file name, got \"\"");
  CHECK(input_error_text([] { file_list_option("--calibration", ","); }) ==
        "command line:--calibration: expected file names separated by commas, got an empty name "
        "(entry 1 of 2) in \",\"");
  CHECK(input_error_text([] { file_list_option("--calibration", "a.h5,,b.h5"); }) ==
        "command line:--calibration: expected file names separated by commas, got an empty name "
        "(entry 2 of 3) in \"a.h5,,b.h5\"");
  CHECK(input_error_text([] { file_list_option("--calibration", "a.h5,"); }).find("(entry 2 of 2)") !=
        std::string::npos);
}

TEST_CASE("an output path is checked up front, nothing created") {
  ScratchDir dir("option_file_test");
  std::ofstream(dir.path / "victim") << "keep\n";
  fs::create_symlink("victim", dir.path / "link.h5");
  CHECK(input_error_text([&] { check_output_file((dir.path / "link.h5").string(), "results file"); }) ==
        (dir.path / "link.h5").string() +
            ": cannot write results file: it is a symbolic link (to victim); refusing to write "
            "through it; give the real path");
  CHECK_NOTHROW(check_output_file((dir.path / "new.h5").string(), "results file"));
  CHECK(dir.names() == std::set<std::string>{"link.h5", "victim"});

  SECTION("on root, the verdict every rank's") {
    CHECK_THROWS_WITH(check_output_file_on_root((dir.path / "link.h5").string(), "results file",
                                                MPI_COMM_SELF),
                      Catch::Contains("it is a symbolic link"));
    CHECK_THROWS_AS(check_output_file_on_root("/dev/null", "results file", MPI_COMM_SELF),
                    CollectiveError);
    CHECK_NOTHROW(check_output_file_on_root((dir.path / "new.h5").string(), "results file", MPI_COMM_SELF));
  }
}
