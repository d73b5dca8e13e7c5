#include "bsplib/model/profile_results.hpp"

#include <cctype>
#include <stdexcept>

#include "bsplib/model/after_gap.hpp"
#include "bsplib/model/first_use.hpp"
#include "bsplib/model/cost_model.hpp"
#include "bsplib/model/profile_comparison.hpp"
#include "bsplib/model/superstep_model.hpp"
#include "instrument/error.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/results_file.hpp"

namespace bspmodel {

namespace {
std::string slug(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (std::isalnum(static_cast<unsigned char>(c))) out += static_cast<char>(std::tolower(c));
    else if (!out.empty() && out.back() != '_') out += '_';
  }
  while (!out.empty() && out.back() == '_') out.pop_back();
  return out.empty() ? "machine" : out;
}
}  // namespace

void write_profile_results(const std::string& path, const Profile& prof,
                           const std::vector<BspMachine>& machines) {
  instrument::ResultsDocument doc;
  doc.run.info.app = "bsplib-profile";
  doc.run.info.nranks = prof.nprocs;
  doc.run.info.input_file = prof.file;
  doc.run.info.inputs["profile"] = prof.file;
  for (std::size_t i = 0; i < machines.size(); ++i)
    doc.run.info.inputs["machine_" + std::to_string(i)] = machines[i].file;
  if (!machines.empty())
    doc.machine = instrument::machine_record(instrument::MachineFile::read(machines[0].file));

  const std::size_t steps = prof.steps.size(), np = static_cast<std::size_t>(prof.nprocs);
  std::vector<double> t_begin(steps * np), t_enter(steps * np), t_exit(steps * np);
  std::vector<std::int64_t> out(steps * np), in(steps * np), mout(steps * np), min(steps * np),
      gets(steps * np), pushes(steps * np), pops(steps * np);
  std::vector<std::int64_t> index, h;
  std::vector<std::string> labels;
  std::vector<double> w, measured;
  for (std::size_t s = 0; s < steps; ++s) {
    const SuperstepSummary& st = prof.steps[s];
    for (std::size_t q = 0; q < st.per_process.size() && q < np; ++q) {
      const ProcessStep& ps = st.per_process[q];
      const std::size_t k = s * np + q;
      t_begin[k] = ps.t_begin;
      t_enter[k] = ps.t_enter;
      t_exit[k] = ps.t_exit;
      out[k] = static_cast<std::int64_t>(ps.bytes_out);
      in[k] = static_cast<std::int64_t>(ps.bytes_in);
      mout[k] = static_cast<std::int64_t>(ps.msgs_out);
      min[k] = static_cast<std::int64_t>(ps.msgs_in);
      gets[k] = static_cast<std::int64_t>(ps.gets_out);
      pushes[k] = static_cast<std::int64_t>(ps.pushes);
      pops[k] = static_cast<std::int64_t>(ps.pops);
    }
    index.push_back(st.index);
    labels.push_back(st.label);
    w.push_back(st.w_max);
    h.push_back(static_cast<std::int64_t>(st.h_bytes));
    measured.push_back(st.comm_sync);
  }
  using instrument::Array;
  using instrument::Column;
  const std::vector<std::size_t> shape{steps, np};
  const std::vector<std::string> dims{"superstep", "process"};
  auto& ex = doc.extras;
  ex.add_array(Array::of("/bsp/process/t_begin", shape, dims, "s", t_begin));
  ex.add_array(Array::of("/bsp/process/t_enter", shape, dims, "s", t_enter));
  ex.add_array(Array::of("/bsp/process/t_exit", shape, dims, "s", t_exit));
  ex.add_array(Array::of("/bsp/process/bytes_out", shape, dims, "bytes", out));
  ex.add_array(Array::of("/bsp/process/bytes_in", shape, dims, "bytes", in));
  ex.add_array(Array::of("/bsp/process/msgs_out", shape, dims, "messages", mout));
  ex.add_array(Array::of("/bsp/process/msgs_in", shape, dims, "messages", min));
  ex.add_array(Array::of("/bsp/process/gets_out", shape, dims, "gets", gets));
  // The registrations each superstep commits; absent when the profile did not record them
  // (format 2), rather than zeros that would read as none.
  if (prof.registrations_known) {
    ex.add_array(Array::of("/bsp/process/pushes", shape, dims, "registrations", pushes));
    ex.add_array(Array::of("/bsp/process/pops", shape, dims, "registrations", pops));
  }
  auto& t = ex.add_table("/bsp/supersteps");
  t.columns = {Column::of("superstep", "", index), Column::of("label", "", labels),
               Column::of("w_max", "s", w), Column::of("h", "bytes", h),
               Column::of("comm_sync_measured", "s", measured)};
  t.attributes["description"] =
      std::string("per superstep: largest local computation, h-relation (largest bytes in or "
                  "out of one process), measured comm+sync (last process into bsp_sync)");

  if (!machines.empty()) add_bsp_comparison(doc.comparison, prof, machines[0]);
  for (std::size_t mi = 0; mi < machines.size(); ++mi) {
    const BspMachine& m = machines[mi];
    std::vector<double> std_cost, gran, by_pattern;
    std::vector<std::string> patterns;
    const std::vector<double> first = first_use_extras(m, prof);
    for (std::size_t i = 0; i < prof.steps.size(); ++i) {
      const SuperstepSummary& st = prof.steps[i];
      std_cost.push_back(comm_sync_standard(m, st.h_bytes));
      gran.push_back(comm_sync_eq3_after_gap(m, st) + first[i]);
      const StepPattern pattern = pattern_of(st);
      patterns.push_back(pattern_name(pattern));
      if (!m.curves.empty()) by_pattern.push_back(comm_sync_by_pattern_after_gap(m, st) + first[i]);
    }
    auto& pt = ex.add_table("/bsp/prediction/" + slug(m.name));
    pt.columns = {Column::of("superstep", "", index), Column::of("pattern", "", patterns),
                  Column::of("l_plus_hg", "s", std_cost), Column::of("l_plus_hg_h", "s", gran)};
    if (!m.curves.empty()) pt.columns.push_back(Column::of("by_pattern", "s", by_pattern));
    pt.attributes["machine_file"] = m.file;
    pt.attributes["after_gap"] = m.after_gap.none() ? std::string("no after-gap figures")
                                                    : std::string("l_plus_hg_h and by_pattern include after_gap(w) - after_gap(0)");
    pt.attributes["first_use"] = m.first_use.none() || m.curves.empty()
                                     ? std::string("no first-use figures")
                                     : std::string("l_plus_hg_h and by_pattern include a fresh process's first-use excess "
                                                   "(superstep 0, the first of each pattern, the first pop; first_use.hpp)");
    pt.attributes["l"] = m.l_seconds;
    pt.attributes["g_inf"] = m.g_seconds_per_byte;
    pt.attributes["n_half"] = m.n_half_bytes;
  }
  try {
    instrument::write_results(path, doc);
  } catch (const instrument::InputError& e) {
    throw std::runtime_error(e.what());
  }
}

}  // namespace bspmodel
