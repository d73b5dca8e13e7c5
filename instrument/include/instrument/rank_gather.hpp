// rank_gather: every rank's records of one kind gathered to one rank, in rank order, with
// any count per rank (zero too). Collective: every rank of `comm` calls it.
//
// Why one helper: the apps gathered per-rank records by hand (MPI_Gather of the counts, then
// MPI_Gatherv or a loop of receives), each with int counts and displacements that wrap
// silently past 2^31. Here the counts travel as 64-bit numbers to every rank, so every rank
// sees the same totals and refuses a gather MPI's int counts cannot carry with the same
// CollectiveError, before any data moves: never a wrapped count, a short buffer or a hang.
// Records travel as their bytes (one MPI type of sizeof(T) bytes), so what root gets is bit
// for bit what each rank had.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace instrument {

// Every rank's records at root; empty on the other ranks.
template <class T>
struct GatheredRecords {
  std::vector<T> all;                // rank 0's records, then rank 1's, ...
  std::vector<std::size_t> offsets;  // rank r's are all[offsets[r], offsets[r + 1]); size ranks + 1

  int ranks() const noexcept { return offsets.empty() ? 0 : static_cast<int>(offsets.size() - 1); }
  std::span<const T> of_rank(int r) const {
    const auto at = static_cast<std::size_t>(r);
    return std::span<const T>(all).subspan(offsets.at(at), offsets.at(at + 1) - offsets[at]);
  }
  // One vector per rank (a copy), for callers that keep them apart.
  std::vector<std::vector<T>> per_rank() const {
    std::vector<std::vector<T>> out;
    for (int r = 0; r < ranks(); ++r) out.emplace_back(of_rank(r).begin(), of_rank(r).end());
    return out;
  }
};

namespace detail {

// The counts of a gather, known to every rank: records before each rank's (size ranks + 1).
// Throws CollectiveError on every rank when they exceed MPI's int counts and displacements;
// `what` names the records in that error ("tycho's step records").
std::vector<std::size_t> gather_offsets(MPI_Comm comm, std::size_t count, std::size_t record_bytes,
                                        std::string_view what);
// Moves the records: `into` (root only) holds offsets.back() records of record_bytes each.
void gather_bytes_to_root(MPI_Comm comm, const void* mine, std::size_t record_bytes,
                          const std::vector<std::size_t>& offsets, int root, void* into);

}  // namespace detail

// Gathers `mine` from every rank to `root`. Throws CollectiveError on every rank when the
// records of all ranks together exceed what MPI's int counts and displacements can address.
template <class T>
GatheredRecords<T> gather_to_root(MPI_Comm comm, std::span<const T> mine, int root = 0,
                                  std::string_view what = "per-rank records") {
  static_assert(std::is_trivially_copyable_v<T>, "records travel as their bytes");
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::vector<std::size_t> offsets = detail::gather_offsets(comm, mine.size(), sizeof(T), what);
  GatheredRecords<T> out;
  if (rank == root) out.all.resize(offsets.back());  // straight into place: no second copy at root
  detail::gather_bytes_to_root(comm, mine.data(), sizeof(T), offsets, root, out.all.data());
  if (rank == root) out.offsets = std::move(offsets);
  return out;
}

// Strings (one a rank, any bytes, '\0' too): every rank's at root, in rank order; empty on the
// other ranks. The same overflow check, counted in bytes.
std::vector<std::string> gather_strings_to_root(MPI_Comm comm, std::string_view mine, int root = 0,
                                                std::string_view what = "per-rank text");

}  // namespace instrument
