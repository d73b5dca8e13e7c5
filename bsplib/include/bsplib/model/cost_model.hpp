// The BSP cost of a superstep's communication and synchronisation (Hill, Crumpton & Burgess
// eq. 1-4): the standard model l + h g, and the granularity-aware h g(h) + l with
// g(x) = (N_1/2 / x + 1) g_inf (eq. 3), i.e. l + (h + N_1/2) g_inf for h > 0;
// h_0 = 100 N_1/2 / y (eq. 4).
#pragma once
#include "bsplib/model/machine_params.hpp"

namespace bspmodel {

inline double comm_sync_standard(const BspMachine& m, double h_bytes) {
  return m.l_seconds + h_bytes * m.g_seconds_per_byte;
}
inline double comm_sync_granular(const BspMachine& m, double h_bytes) {
  if (h_bytes <= 0) return m.l_seconds;
  return m.l_seconds + (h_bytes + m.n_half_bytes) * m.g_seconds_per_byte;
}
inline double g_of_x(const BspMachine& m, double x_bytes) {
  return (m.n_half_bytes / x_bytes + 1.0) * m.g_seconds_per_byte;
}
inline double h0_bytes(double n_half_bytes, double accuracy_percent) {
  return 100.0 * n_half_bytes / accuracy_percent;
}

}  // namespace bspmodel
