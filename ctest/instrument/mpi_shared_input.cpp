// read_input_file_shared: one rank reads, every rank gets the same bytes or the same error.
#include <catch2/catch.hpp>
#include <mpi.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "instrument/error.hpp"
#include "instrument/shared_input.hpp"

using namespace instrument;
namespace fs = std::filesystem;

namespace {

// A directory every rank agrees on (rank 0's pid).
fs::path shared_dir() {
  int pid = static_cast<int>(::getpid());
  MPI_Bcast(&pid, 1, MPI_INT, 0, MPI_COMM_WORLD);
  return fs::temp_directory_path() / ("shared_input_test_" + std::to_string(pid));
}

}  // namespace

TEST_CASE("every rank gets the root's bytes, or the root's error") {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const fs::path dir = shared_dir();
  if (rank == 0) {
    fs::create_directories(dir);
    std::ofstream(dir / "deck.txt", std::ios::binary) << std::string("a\0b\nline 2\n", 11);
  }
  MPI_Barrier(MPI_COMM_WORLD);

  // Only the root opens the file: another rank given a missing path still gets the bytes.
  const std::string path = rank == 0 ? (dir / "deck.txt").string() : (dir / "absent").string();
  CHECK(read_input_file_shared(path, "deck", 1024, MPI_COMM_WORLD) == std::string("a\0b\nline 2\n", 11));

  try {
    read_input_file_shared((dir / "absent").string(), "deck", 1024, MPI_COMM_WORLD);
    FAIL("a missing file was read");
  } catch (const InputError& e) {
    CHECK(e.file() == (dir / "absent").string());
    CHECK_THAT(e.what(), Catch::StartsWith((dir / "absent").string() + ": "));
    CHECK_THAT(e.what(), Catch::Contains("No such file") || Catch::Contains("missing"));
  }
  try {
    read_input_file_shared((dir / "deck.txt").string(), "deck", 4, MPI_COMM_WORLD);
    FAIL("an oversize file was read");
  } catch (const InputError& e) {
    CHECK(e.file() == (dir / "deck.txt").string());
    CHECK(std::string(e.what()).find((dir / "deck.txt").string() + ": " + (dir / "deck.txt").string()) ==
          std::string::npos);  // the path named once
  }
  MPI_Barrier(MPI_COMM_WORLD);
  if (rank == 0) fs::remove_all(dir);
}
