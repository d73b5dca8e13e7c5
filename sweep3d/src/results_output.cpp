#include "sweep3d/results_output.hpp"

#include <cstdio>

#include "instrument/results_file.hpp"
#include "instrument/run_results.hpp"

namespace sweep3d {

namespace {

instrument::ResultsExtras sweep3d_extras(const RunResult& r, const WorkFigures& w, int nranks) {
  instrument::ResultsExtras x;
  const KbaDecomposition& d = r.rank0;
  auto set = [&](const char* group, const char* name, instrument::AttributeValue v) {
    x.set_attribute(group, name, std::move(v));
  };
  for (auto [name, v] : {std::pair{"npe_i", d.npe_i}, {"npe_j", d.npe_j}, {"it", d.it}, {"jt", d.jt},
                         {"kt", d.kt}, {"mk", d.mk}, {"mmi", d.mmi}, {"mmo", d.mmo}, {"kb", d.kb},
                         {"it_g", d.it_g}, {"jt_g", d.jt_g}, {"mm", d.mm}, {"threads", r.threads}})
    set("/sweep3d", name, static_cast<std::int64_t>(v));
  set("/sweep3d", "kernel", r.kernel);
  set("/sweep3d", "sends", std::string(r.nonblocking ? "non-blocking" : "blocking"));
  set("/sweep3d", "cpu_grind_us", r.cpu_grind_us);
  set("/sweep3d", "wall_grind_us", r.wall_grind_us);
  set("/sweep3d", "cpu_seconds", r.cpu_seconds);
  set("/sweep3d", "elapsed_seconds", r.elapsed_seconds);
  set("/sweep3d", "sweep_grind_ns", w.sweep_grind_ns);
  set("/sweep3d", "wg_nofixup_ns_mean", w.wg_nofix_ns.mean);
  set("/sweep3d", "wg_nofixup_ns_min", w.wg_nofix_ns.min);
  set("/sweep3d", "wg_nofixup_ns_max", w.wg_nofix_ns.max);
  set("/sweep3d", "wg_fixup_ns_mean", w.wg_fix_ns.mean);
  set("/sweep3d", "wg_fixup_ns_min", w.wg_fix_ns.min);
  set("/sweep3d", "wg_fixup_ns_max", w.wg_fix_ns.max);
  set("/sweep3d", "kernel_nofixup_ns_mean", w.kernel_nofix_ns.mean);
  set("/sweep3d", "kernel_fixup_ns_mean", w.kernel_fix_ns.mean);
  set("/sweep3d", "bytes_per_cell", r.bytes_per_cell);
  set("/sweep3d", "messages_per_iteration", static_cast<std::int64_t>(r.header.messages));
  if (r.speed_check.run_ns() > 0) set("/sweep3d", "speed_check_ns", r.speed_check.run_ns());
  set("/sweep3d", "grind_definition",
      std::string("grind: seconds / (its*it_g*jt_g*kt*mm*8); W_g: the sweep's local work (all but its MPI calls) "
                  "/ cell-angles of the rank; kernel: the kernel alone / cell-angles; speed_check_ns: a fixed block solve's ns "
                  "per cell (its 48 cell-angles), the median over ranks of each rank's mean before and after the "
                  "iterations (sweep3d/speed_check.hpp)"));

  std::vector<int> rk, pi, pj, it, jt, is, js;
  for (int q = 0; q < nranks; ++q) {
    const KbaDecomposition dq = make_decomposition(r.deck, q, nranks, d.mk, d.mmi);
    rk.push_back(q);
    pi.push_back(dq.pi);
    pj.push_back(dq.pj);
    it.push_back(dq.it);
    jt.push_back(dq.jt);
    is.push_back(dq.istart);
    js.push_back(dq.jstart);
  }
  auto& ranks = x.add_table("/sweep3d/ranks");
  ranks.columns = {instrument::Column::of("rank", "", rk),     instrument::Column::of("pi", "", pi),
                   instrument::Column::of("pj", "", pj),       instrument::Column::of("it", "cells", it),
                   instrument::Column::of("jt", "cells", jt),  instrument::Column::of("istart", "", is),
                   instrument::Column::of("jstart", "", js)};

  const Balance& b = r.balance;
  set("/solution", "external_source", b.source);
  set("/solution", "absorption", b.absorption);
  const char* leak[6] = {"leakage_i_low", "leakage_i_high", "leakage_j_low", "leakage_j_high", "leakage_k_low",
                         "leakage_k_high"};
  for (int n = 0; n < 6; ++n) set("/solution", leak[n], b.leakage[static_cast<std::size_t>(n)]);
  set("/solution", "balance_relative_residual", b.relative_residual());
  set("/solution", "converged", static_cast<std::int64_t>(r.converged));
  set("/solution", "flux_checksum", static_cast<std::int64_t>(r.flux_checksum));
  set("/solution", "flux_max", r.flux_max);
  set("/solution", "iterations", static_cast<std::int64_t>(r.iterations.size()));

  std::vector<int> its, on;
  std::vector<std::int64_t> fixs;
  std::vector<double> err;
  for (const auto& i : r.iterations) {
    its.push_back(i.its);
    err.push_back(i.err);
    fixs.push_back(i.fixs);
    on.push_back(i.fixups_on);
  }
  auto& hist = x.add_table("/solution/iterations");
  hist.columns = {instrument::Column::of("its", "", its), instrument::Column::of("err", "", err),
                  instrument::Column::of("fixs", "", fixs), instrument::Column::of("fixups_on", "", on)};
  return x;
}

void add_calibration(const model::WorkCalibration& c, instrument::ResultsExtras& x) {
  const std::string g = "/sweep3d/calibration";
  x.set_attribute(g, "wg_s", c.wg_s);
  x.set_attribute(g, "wg_fixup_s", c.wg_fixup_s);
  x.set_attribute(g, "w_before_s_per_cell", c.w_before_s_per_cell);
  x.set_attribute(g, "w_after_s_per_cell", c.w_after_s_per_cell);
  x.set_attribute(g, "mmi", static_cast<std::int64_t>(c.mmi));
  x.set_attribute(g, "mk", static_cast<std::int64_t>(c.mk));
  x.set_attribute(g, "threads", static_cast<std::int64_t>(c.threads));
  x.set_attribute(g, "kernel", c.kernel);
  if (c.faces.priced) {
    const char* axis[2] = {"i", "j"};
    for (int k = 0; k < 2; ++k) {
      const std::string a = axis[k];
      x.set_attribute(g, "face_fill_" + a + "_s", c.faces.fill_s[k]);
      x.set_attribute(g, "face_leak_" + a + "_s", c.faces.leak_s[k]);
      x.set_attribute(g, "face_unpack_" + a + "_s", c.faces.unpack_s[k]);
      x.set_attribute(g, "face_pack_" + a + "_s", c.faces.pack_s[k]);
    }
    x.set_attribute(g, "face_edge_share_s", c.faces.edge_share_s);
  } else if (!c.faces_why.empty()) {
    x.set_attribute(g, "face_why_not", c.faces_why);
  }
  x.set_attribute(g, "description",
                  std::string("W_g = the sweep's local work (all but its MPI calls) per cell-angle (mean over ranks), "
                              "without and with fixups, at this "
                              "mmi, threads and kernel; W_before/W_after = source / flux-error seconds per iteration "
                              "per local cell (max over ranks); face_{fill,leak,unpack,pack}_{i,j}_s = seconds per face "
                              "value of a block's I/J face zeroed at the edge, summed into the leakage, unpacked from a "
                              "message, packed into one (face_copy_probe.hpp, rank 0's extents); face_edge_share_s = the "
                              "part of W_g (s per cell-angle) the run's own faces took"));
}

void add_critical_path(const ModelReport& m, instrument::ResultsExtras& x) {
  const auto& path = m.path_by_iteration;
  if (path.epochs() == 0) return;
  auto& table = x.add_table("/sweep3d/critical_path");
  std::vector<int> its;
  for (int k = 1; k <= path.epochs(); ++k) its.push_back(k);
  table.columns.push_back(instrument::Column::of("iteration", "", its));
  for (std::size_t c = 0; c < path.categories.size(); ++c) {
    std::vector<double> v;
    for (const auto& row : path.seconds) v.push_back(row[c]);
    table.columns.push_back(instrument::Column::of(path.categories[c], "s", v));
  }
  table.attributes["description"] =
      std::string("the measured critical path of each traced iteration, charged by category "
                  "(instrument/critical_path.hpp); the categories of an iteration add up to its length on the path");
}

}  // namespace

instrument::RunInfo run_info(const RunResult& r, instrument::Comm& comm) {
  instrument::RunInfo info = instrument::make_run_info("sweep3d", comm.mpi());
  info.threads = r.threads;
  info.input_file = r.deck.file;
  info.input_text = r.deck.text;
  const Deck& d = r.deck;
  const double reals[4] = {d.dx, d.dy, d.dz, d.epsi};
  const int ints[16] = {d.npe_i, d.npe_j, d.mk, d.mmi, d.ncpu, d.it_g, d.jt_g, d.kt,
                        d.mm,    d.isct,  d.ibc, d.jbc, d.kbc, d.iprint, d.idsa, d.ifixups};
  for (int f = 0, n = 0; f < 20; ++f) {
    const std::string key(Deck::kFieldNames[static_cast<std::size_t>(f)]);
    if (f >= 10 && f <= 13) {
      char buf[40];
      std::snprintf(buf, sizeof buf, "%.17g", reals[f - 10]);
      info.inputs[key] = buf;
    } else {
      info.inputs[key] = std::to_string(ints[n++]);
    }
  }
  return info;
}

void write_results_file(const std::string& path, const RunResult& r, const WorkFigures& figures,
                        instrument::RunResults gathered, const ModelReport& models, instrument::Comm& comm) {
  instrument::ResultsDocument doc;
  doc.run = std::move(gathered);
  if (comm.rank() == 0) {
    doc.extras = sweep3d_extras(r, figures, comm.size());
    if (figures.measured) add_calibration(calibration_of(r, figures), doc.extras);
    add_critical_path(models, doc.extras);
    doc.comparison = models.comparison;
    doc.machine = models.machine;
  }
  instrument::write_results_on_root(path, doc, comm.mpi());
}

}  // namespace sweep3d
