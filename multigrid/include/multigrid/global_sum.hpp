// Sums over all processes in one superstep (norms, dot products, counts): each process puts
// its values to every other, then every process adds them in process order, so all get the
// same bits.
#pragma once
#include <vector>

namespace mg {

class GlobalSum {
 public:
  static constexpr int kMaxValues = 8;
  // Registers the buffer (collective; takes effect at the next sync).
  explicit GlobalSum(int nprocs);
  GlobalSum(const GlobalSum&) = delete;
  GlobalSum& operator=(const GlobalSum&) = delete;
  // At most kMaxValues values; `label` names the superstep in the profile.
  std::vector<double> sum(const std::vector<double>& mine, const char* label);
  // One value. Taken by value: a sum built in a loop and handed to the vector form as
  // {value} was kept by the compiler in the list's memory, a store and a reload an addition.
  double sum(double mine, const char* label);
  // Pops the registration (collective; the buffer must live until the next sync).
  void release();

 private:
  int nprocs_;
  std::vector<double> area_;  // [process * kMaxValues + k]
};

}  // namespace mg
