// rank_gather.hpp: the counts first, checked, then one MPI_Gatherv of records as bytes.
#include "instrument/rank_gather.hpp"

#include <climits>
#include <cstdint>

#include "instrument/mpi_main.hpp"

namespace instrument::detail {

std::vector<std::size_t> gather_offsets(MPI_Comm comm, std::size_t count, std::size_t record_bytes,
                                        std::string_view what) {
  int size = 1;
  MPI_Comm_size(comm, &size);
  const std::uint64_t mine = count;
  std::vector<std::uint64_t> counts(static_cast<std::size_t>(size));
  // To every rank, not only root: each then reaches the same verdict below, and a refusal
  // is collective without a second message.
  MPI_Allgather(&mine, 1, MPI_UINT64_T, counts.data(), 1, MPI_UINT64_T, comm);
  // MPI_Gatherv's counts and displacements are int, in records: the last displacement plus
  // the last count, the total, must be at most INT_MAX. Record sizes beyond an int cannot be
  // an MPI type's length either.
  constexpr std::uint64_t kMaxRecords = INT_MAX;
  std::vector<std::size_t> offsets(counts.size() + 1, 0);
  std::uint64_t total = 0;
  bool fits = record_bytes >= 1 && record_bytes <= static_cast<std::size_t>(INT_MAX);
  for (std::size_t r = 0; r < counts.size(); ++r) {
    if (counts[r] > kMaxRecords - total) fits = false;
    if (!fits) break;
    total += counts[r];
    offsets[r + 1] = static_cast<std::size_t>(total);
  }
  if (!fits) {
    std::uint64_t all = 0;  // the total as asked for, for the message
    bool beyond = false;
    for (const std::uint64_t c : counts) {
      beyond = beyond || c > UINT64_MAX - all;
      all = beyond ? all : all + c;
    }
    throw CollectiveError("gathering " + std::string(what) + " to one rank: " +
                          (beyond ? std::string("over 2^64") : std::to_string(all)) + " records of " +
                          std::to_string(record_bytes) + " bytes from " + std::to_string(size) +
                          " ranks; expected at most " + std::to_string(kMaxRecords) +
                          " in all (MPI's int counts), refusing rather than wrap");
  }
  return offsets;
}

void gather_bytes_to_root(MPI_Comm comm, const void* mine, std::size_t record_bytes,
                          const std::vector<std::size_t>& offsets, int root, void* into) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  MPI_Datatype record = MPI_DATATYPE_NULL;
  MPI_Type_contiguous(static_cast<int>(record_bytes), MPI_BYTE, &record);
  MPI_Type_commit(&record);
  const auto at = static_cast<std::size_t>(rank);
  const int count = static_cast<int>(offsets[at + 1] - offsets[at]);  // checked: all <= INT_MAX
  std::vector<int> counts, displacements;
  if (rank == root) {
    for (int r = 0; r < size; ++r) {
      const auto q = static_cast<std::size_t>(r);
      counts.push_back(static_cast<int>(offsets[q + 1] - offsets[q]));
      displacements.push_back(static_cast<int>(offsets[q]));
    }
  }
  MPI_Gatherv(mine, count, record, into, counts.data(), displacements.data(), record, root, comm);
  MPI_Type_free(&record);
}

}  // namespace instrument::detail

namespace instrument {

std::vector<std::string> gather_strings_to_root(MPI_Comm comm, std::string_view mine, int root,
                                                std::string_view what) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const std::vector<std::size_t> offsets = detail::gather_offsets(comm, mine.size(), 1, what);
  std::string all;
  if (rank == root) all.resize(offsets.back());
  detail::gather_bytes_to_root(comm, mine.data(), 1, offsets, root, all.data());
  std::vector<std::string> out;
  if (rank == root)
    for (std::size_t r = 0; r + 1 < offsets.size(); ++r) out.push_back(all.substr(offsets[r], offsets[r + 1] - offsets[r]));
  return out;
}

}  // namespace instrument
