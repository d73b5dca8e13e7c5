#include "instrument/shared_input.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>
#include <exception>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"

namespace instrument {

namespace {

// MPI counts are int: large contents go in pieces.
void broadcast_bytes(std::string& bytes, MPI_Comm comm, int root) {
  std::uint64_t size = bytes.size();
  MPI_Bcast(&size, 1, MPI_UINT64_T, root, comm);
  bytes.resize(static_cast<std::size_t>(size));
  constexpr std::size_t kPiece = std::size_t{1} << 30;
  for (std::size_t at = 0; at < bytes.size(); at += kPiece) {
    const std::size_t n = std::min(kPiece, bytes.size() - at);
    MPI_Bcast(bytes.data() + at, static_cast<int>(n), MPI_CHAR, root, comm);
  }
}

}  // namespace

std::string read_input_file_shared(const std::string& path, const std::string& what,
                                   std::size_t max_bytes, MPI_Comm comm, int root) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string content, error;
  int failed = 0;
  if (rank == root) {
    try {
      content = read_input_file(path, what, max_bytes);
    } catch (const std::exception& e) {
      error = e.what();  // "<path>: <why>" (InputError's text)
      failed = 1;
    }
  }
  MPI_Bcast(&failed, 1, MPI_INT, root, comm);
  if (failed) {
    broadcast_bytes(error, comm, root);
    const std::string prefix = path + ": ";
    const bool named = error.compare(0, prefix.size(), prefix) == 0;
    throw InputError(path, "", named ? error.substr(prefix.size()) : error);
  }
  broadcast_bytes(content, comm, root);
  return content;
}

}  // namespace instrument
