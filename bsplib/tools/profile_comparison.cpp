#include "profile_comparison.hpp"

#include <string>

#include "cost_model.hpp"

namespace bspmodel {

void add_bsp_comparison(instrument::Comparison& comparison, const Profile& prof,
                        const BspMachine& m) {
  double w = 0, measured = 0, modelled = 0;
  for (const SuperstepSummary& st : prof.steps) {
    const double predicted = comm_sync_granular(m, st.h_bytes);
    w += st.w_max;
    measured += st.comm_sync;
    modelled += predicted;
    comparison.add({"bsp", "superstep " + std::to_string(st.index) + " " + st.label,
                    st.comm_sync, predicted, "profile " + prof.file + "; machine " + m.file});
  }
  comparison.add({"bsp", "comm+sync total", measured, modelled, "machine " + m.file});
  comparison.add({"bsp", "run (w + comm+sync)", w + measured, w + modelled,
                  "w measured in this run; machine " + m.file});
  comparison.add_model_term(
      {"bsp", "comm+sync total", modelled, "Hill, Crumpton & Burgess eq. 1-3: sum of l + h g(h)"});
}

}  // namespace bspmodel
