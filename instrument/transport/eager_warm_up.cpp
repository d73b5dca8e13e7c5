// The untimed exchanges that fill the transport's eager buffers once. See eager_warm_up.hpp.
#include "eager_warm_up.hpp"

#include <algorithm>
#include <cstdlib>
#include <vector>

namespace suite_transport {

int eager_warm_up_rounds() {
  int fifo = 64;  // UCX's default
  if (const char* e = std::getenv("UCX_MM_FIFO_SIZE")) {
    char* end = nullptr;
    const long v = std::strtol(e, &end, 10);
    if (end != e && *end == '\0' && v > 0) fifo = static_cast<int>(std::min(v, 4088L));
  }
  return fifo + 8;
}

int eager_warm_up_bytes() {
  long seg = 8192;  // UCX's default
  if (const char* e = std::getenv("UCX_MM_SEG_SIZE")) {
    char* end = nullptr;
    long v = std::strtol(e, &end, 10);
    if (end != e && (*end == 'k' || *end == 'K')) v *= 1024, ++end;
    else if (end != e && (*end == 'm' || *end == 'M')) v *= 1024 * 1024, ++end;
    if (end != e && *end == '\0' && v >= 1024 && v <= (1 << 20)) seg = v;
  }
  return static_cast<int>(seg - 256);
}

std::vector<long> eager_warm_up_sizes(long element, long min_bytes, long max_bytes) {
  std::vector<long> sizes;
  const long largest = std::min(max_bytes, std::max(min_bytes, element));
  if (largest <= 0) return sizes;
  sizes.push_back(largest);
  if (element < largest) sizes.push_back(element);
  long power = 1;
  while (power * 2 < sizes.back()) power *= 2;
  for (int k = 0; k < 3 && power > 1; ++k, power /= 2)
    if (power - 1 < sizes.back()) sizes.push_back(power - 1);
  return sizes;
}

long warm_up_eager_buffers(MPI_Comm comm, int tag, int min_bytes, long max_bytes) {
  int rank = 0, nprocs = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &nprocs);
  // The processes agree on the element and the rounds (their environments may differ).
  long agreed[2] = {eager_warm_up_bytes(), nprocs > 1 ? eager_warm_up_rounds() : 0};
  MPI_Allreduce(MPI_IN_PLACE, agreed, 2, MPI_LONG, MPI_MAX, comm);
  const long rounds = agreed[1];
  const std::vector<long> sizes = eager_warm_up_sizes(agreed[0], min_bytes, max_bytes);
  if (rounds == 0 || sizes.empty()) return 0;
  const std::size_t largest = static_cast<std::size_t>(sizes.front());
  std::vector<char> out(largest, 0);
  std::vector<char> in(largest * static_cast<std::size_t>(nprocs));
  std::vector<MPI_Request> req;
  req.reserve(2 * static_cast<std::size_t>(nprocs));
  long sent = 0;
  for (long bytes : sizes) {
    for (long r = 0; r < rounds; ++r) {
      req.clear();
      for (int q = 0; q < nprocs; ++q) {
        if (q == rank) continue;
        req.emplace_back();
        MPI_Irecv(&in[static_cast<std::size_t>(q) * largest], static_cast<int>(bytes), MPI_BYTE,
                  q, tag, comm, &req.back());
        req.emplace_back();
        MPI_Isend(out.data(), static_cast<int>(bytes), MPI_BYTE, q, tag, comm, &req.back());
        ++sent;
      }
      MPI_Waitall(static_cast<int>(req.size()), req.data(), MPI_STATUSES_IGNORE);
    }
  }
  return sent;
}

}  // namespace suite_transport
