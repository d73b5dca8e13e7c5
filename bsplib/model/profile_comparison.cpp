#include "bsplib/model/profile_comparison.hpp"

#include <string>

#include "bsplib/model/after_gap.hpp"
#include "bsplib/model/cost_model.hpp"
#include "bsplib/model/first_use.hpp"
#include "bsplib/model/superstep_model.hpp"

namespace bspmodel {

// Per superstep the library's model when the machine file has the probe's superstep curves
// (superstep_model.hpp), else eq. 3; the comm+sync total of both where both exist. Both with
// the gap term where the file has after-gap figures (after_gap.hpp), and the first-use term
// where it has a fresh process's first supersteps (first_use.hpp).
void add_bsp_comparison(instrument::Comparison& comparison, const Profile& prof,
                        const BspMachine& m) {
  const bool curves = !m.curves.empty();
  const std::vector<double> first = first_use_extras(m, prof);
  double w = 0, measured = 0, by_pattern = 0, granular = 0;
  for (std::size_t i = 0; i < prof.steps.size(); ++i) {
    const SuperstepSummary& st = prof.steps[i];
    const StepPattern pattern = pattern_of(st);
    const double eq3 = comm_sync_eq3_after_gap(m, st) + first[i];
    const double predicted = curves ? comm_sync_by_pattern_after_gap(m, st) + first[i] : eq3;
    w += st.w_max;
    measured += st.comm_sync;
    granular += eq3;
    by_pattern += predicted;
    comparison.add({"bsp",
                    "superstep " + std::to_string(st.index) + " " + st.label +
                        (curves ? std::string(" (") + pattern_name(pattern) + ")" : ""),
                    st.comm_sync, predicted, "profile " + prof.file + "; machine " + m.file});
  }
  const std::string source = "machine " + m.file;
  const std::string gap_note = m.after_gap.none() ? "; no after-gap figures"
                                                  : "; + after_gap(w) - after_gap(0) per superstep";
  const std::string first_note =
      m.first_use.none() || !curves ? "" : "; + a fresh process's first-use excess (superstep 0, the first of each pattern, the first pop)";
  if (curves) {
    comparison.add({"bsp", "comm+sync total, by pattern", measured, by_pattern, source});
    comparison.add_model_term({"bsp", "comm+sync total, by pattern", by_pattern,
                               std::string("bspprobe's superstep curves at each superstep's pattern and h") + gap_note + first_note});
  }
  comparison.add({"bsp", "comm+sync total, l + h g(h)", measured, granular, source});
  comparison.add_model_term({"bsp", "comm+sync total, l + h g(h)", granular,
                             std::string("Hill, Crumpton & Burgess eq. 1-3: sum of l + h g(h)") + gap_note + first_note});
  const double model = curves ? by_pattern : granular;
  comparison.add({"bsp", std::string("run (w + comm+sync") + (curves ? ", by pattern)" : ")"),
                  w + measured, w + model, "w measured in this run; " + source});
}

}  // namespace bspmodel
