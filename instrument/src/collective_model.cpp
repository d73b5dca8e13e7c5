#include "instrument/collective_model.hpp"

namespace instrument {

int allreduce_rounds(int nranks) {
  if (nranks <= 1) return 0;
  int log2 = 0;
  while ((2 << log2) <= nranks) ++log2;  // p' = 2^log2 <= nranks < 2p'
  return log2 + ((1 << log2) == nranks ? 0 : 2);
}

double allreduce_seconds(int nranks, double one_message_seconds) {
  return allreduce_rounds(nranks) * one_message_seconds;
}

}  // namespace instrument
