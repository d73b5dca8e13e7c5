// Sums over all processes (global_sum.hpp).
#include "multigrid/global_sum.hpp"

#include <stdexcept>

#include "bsp.h"

namespace mg {

GlobalSum::GlobalSum(int nprocs) : nprocs_(nprocs), area_(static_cast<std::size_t>(nprocs) * kMaxValues, 0.0) {
  bsp_push_reg(area_.data(), static_cast<int>(area_.size() * sizeof(double)));
}

std::vector<double> GlobalSum::sum(const std::vector<double>& mine, const char* label) {
  if (mine.size() > kMaxValues) throw std::logic_error("GlobalSum: too many values");
  const int me = bsp_pid();
  const int bytes = static_cast<int>(mine.size() * sizeof(double));
  for (int q = 0; q < nprocs_; ++q)
    if (q != me) bsp_put(q, mine.data(), area_.data(), me * kMaxValues * static_cast<int>(sizeof(double)), bytes);
  bsp_profile_label(label);
  bsp_sync();
  std::vector<double> total(mine.size(), 0.0);
  for (int q = 0; q < nprocs_; ++q)
    for (std::size_t k = 0; k < mine.size(); ++k)
      total[k] += q == me ? mine[k] : area_[static_cast<std::size_t>(q) * kMaxValues + k];
  return total;
}

double GlobalSum::sum(double mine, const char* label) { return sum(std::vector<double>{mine}, label)[0]; }

void GlobalSum::release() { bsp_pop_reg(area_.data()); }

}  // namespace mg
