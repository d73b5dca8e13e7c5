// A loop over a level's nodes shared by OpenMP threads in contiguous chunks (node_update.cpp,
// cycle.cpp): for the passes where each node's result depends on that node's values alone,
// so any split gives the same bits.
#pragma once
#include <omp.h>

#include <algorithm>
#include <cstddef>

#include "multigrid/cell_loop_split.hpp"

namespace mg::detail {

// pass(begin, end) over [0, n) in one chunk a thread, static, on `threads` threads, or on
// fewer so that each takes min_per_thread nodes or more (one call on this thread if one).
template <class Pass>
void for_node_chunks(std::size_t n, int threads, std::size_t min_per_thread, Pass&& pass) {
  const std::size_t most = n / std::max<std::size_t>(1, min_per_thread);
  if (static_cast<std::size_t>(threads) > most) threads = static_cast<int>(most);
  if (threads <= 1) {
    pass(std::size_t{0}, n);
    return;
  }
#pragma omp parallel num_threads(threads)
  {
    const std::size_t t = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t team = static_cast<std::size_t>(omp_get_num_threads());
    const std::size_t chunk = ((n + team - 1) / team + 7) / 8 * 8;  // whole cache lines of doubles
    const std::size_t begin = std::min(n, t * chunk), end = std::min(n, begin + chunk);
    if (begin < end) pass(begin, end);
  }
}

}  // namespace mg::detail
