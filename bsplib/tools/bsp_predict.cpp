// bsp_predict: the paper's prediction ('fortune telling', Figures 8 and 9) from a bsplib
// profile. For each superstep the measured comm+sync is set beside l + h g and
// l + h g(h) (eq. 3) of each machine file given, and beside the library's model (the
// probe's superstep curves at the superstep's pattern, superstep_model.hpp) where the file
// has them; totals add the measured computation w. Where the file has after-gap figures,
// l + h g(h) and the library's model add the gap term after_gap(w) - after_gap(0) (w the gap of
// the last process to enter the sync; after_gap.hpp), shown in its own column.
// The first machine file is the measured one: its rows go to /compare of the results file.
// Usage: bsp_predict PROFILE.csv MACHINE_FILE [MACHINE_FILE ...] [--csv OUT.csv] [--h5 OUT.h5]
#include <cstdio>
#include <string>
#include <vector>

#include "bsplib/model/after_gap.hpp"
#include "bsplib/model/first_use.hpp"
#include "bsplib/model/core_round_trip.hpp"
#include "bsplib/model/cost_model.hpp"
#include "bsplib/model/machine_params.hpp"
#include "bsplib/model/profile_results.hpp"
#include "bsplib/model/profile_table.hpp"
#include "bsplib/model/superstep_model.hpp"
#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/option_table.hpp"
#include "instrument/output_file.hpp"
#include "instrument/run_app.hpp"

using namespace bspmodel;

namespace {

// A CSV field: quoted (RFC 4180) when it holds a comma, a quote or a line break, as a
// label from bsp_profile_label may.
std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

struct Options {
  std::string profile, csv, h5;
  std::vector<std::string> machines;
};

// The command line, bound to `o`; --csv and --h5 once each at most.
void declare_options(instrument::OptionTable& t, Options& o) {
  t.notes("The paper's prediction ('fortune telling') from a bsplib profile: each superstep's measured\n"
          "comm+sync beside l + h g, l + h g(h) and the library's model of each machine file. The first\n"
          "machine file is the measured one: its rows go to /compare of the results file.")
      .positional_file("PROFILE.csv", o.profile, instrument::Arity::required, "a bsplib profile (BSP_PROFILE)")
      .positional_files("MACHINE_FILE", o.machines, instrument::Arity::one_or_more,
                        "machine files from bspprobe (or inputs/bsp/*.machine)")
      .output_file("--csv", "OUT.csv", o.csv, "the tables as CSV too")
      .output_file("--h5", "OUT.h5", o.h5, "a results file of the profile and the predictions")
      .refuse_repeats();
}

void print_table(const Profile& prof, const BspMachine& m, std::string* csv) {
  const bool curves = !m.curves.empty();
  std::printf("\nmachine: %s (%s)%s\n  p = %d, l = %.3f us, g = %.4f ns/byte (%.4f us per 32-bit "
              "word), N1/2 = %.0f bytes%s\n",
              m.name.c_str(), m.file.c_str(),
              (m.p && m.p != prof.nprocs) ? "  [measured at another p: projection]" : "", m.p,
              m.l_seconds * 1e6, m.g_seconds_per_byte * 1e9, m.g_seconds_per_word() * 1e6,
              m.n_half_bytes,
              curves ? "; superstep curves by pattern (the library's model)"
                     : "; no superstep curves (model: l + h g(h))");
  if (m.core_round_trip_seconds > 0)
    std::printf("  probed at a cache-line round trip of %.0f ns between the processes' CPUs: l and "
                "the curves are true of that placement (core_round_trip.hpp)\n",
                m.core_round_trip_seconds * 1e9);
  if (const double ratio = placement_ratio(m.core_round_trip_seconds, prof.core_round_trip_seconds);
      ratio > 0)
    std::printf("  placement: %s (the run's round trip is up to %.2fx the probe's)\n",
                ratio <= kSamePlacementRatio
                    ? "the run had the probe's"
                    : "the run had ANOTHER than the probe's: its comparison is unreliable",
                ratio);
  const bool gaps = !m.after_gap.none();
  std::printf("  %s\n", gaps ? "after-gap figures: l+hg(h) and pattern include gap+ = after_gap(w) - "
                               "after_gap(0), w the last process's gap before the sync"
                             : "no after-gap figures (gap+ is 0)");
  const bool first_use = curves && !m.first_use.none();
  std::printf("  %s\n", first_use ? "first-use figures: l+hg(h) and pattern include first+ = a fresh process's "
                                    "first-use excess (superstep 0, the first of each pattern, the first pop)"
                                  : "no first-use figures (first+ is 0)");
  std::printf("%5s %-24s %11s %9s %-8s %12s %12s %12s %12s %9s %9s %7s\n", "step", "label", "w_max[us]",
              "h[B]", "pattern", "measured[us]", "l+hg[us]", "l+hg(h)[us]", "pattern[us]",
              "gap+[us]", "first+[us]", "mod/meas");
  const std::vector<double> first = first_use_extras(m, prof);
  double tw = 0, tm = 0, ts = 0, tg = 0, tp = 0, tgap = 0, tfirst = 0;
  for (std::size_t i = 0; i < prof.steps.size(); ++i) {
    const SuperstepSummary& s = prof.steps[i];
    const double std_cost = comm_sync_standard(m, s.h_bytes);
    const double gran = comm_sync_eq3_after_gap(m, s) + first[i];
    const double gap_extra = after_gap_extra(m.after_gap, gap_of_last_to_enter(s));
    const StepPattern pattern = pattern_of(s);
    const double by_pattern = curves ? comm_sync_by_pattern_after_gap(m, s) + first[i] : 0;
    const double model = curves ? by_pattern : gran;
    tw += s.w_max;
    tm += s.comm_sync;
    ts += std_cost;
    tg += gran;
    tp += by_pattern;
    tgap += gap_extra;
    tfirst += first[i];
    char pattern_us[32] = "-";
    if (curves) std::snprintf(pattern_us, sizeof pattern_us, "%.2f", by_pattern * 1e6);
    std::printf("%5d %-24.24s %11.2f %9.0f %-8s %12.2f %12.2f %12.2f %12s %9.2f %9.2f %7.2f\n", s.index,
                s.label.c_str(), s.w_max * 1e6, s.h_bytes, pattern_name(pattern),
                s.comm_sync * 1e6, std_cost * 1e6, gran * 1e6, pattern_us, gap_extra * 1e6,
                first[i] * 1e6, s.comm_sync > 0 ? model / s.comm_sync : 0.0);
    if (csv) {
      char numbers[200];
      std::snprintf(numbers, sizeof numbers, ",%d,", s.index);
      *csv += csv_field(m.name) + numbers + csv_field(s.label);
      std::snprintf(numbers, sizeof numbers, ",%.9g,%.0f,%s,%.9g,%.9g,%.9g,", s.w_max, s.h_bytes,
                    pattern_name(pattern), s.comm_sync, std_cost, gran);
      *csv += numbers;
      if (curves) {
        std::snprintf(numbers, sizeof numbers, "%.9g", by_pattern);
        *csv += numbers;
      }
      std::snprintf(numbers, sizeof numbers, ",%.9g,%.9g", gap_extra, first[i]);
      *csv += numbers;
      *csv += "\n";
    }
  }
  char total_pattern[32] = "-";
  if (curves) std::snprintf(total_pattern, sizeof total_pattern, "%.2f", tp * 1e6);
  const double tmodel = curves ? tp : tg;
  std::printf("%5s %-24s %11.2f %9s %-8s %12.2f %12.2f %12.2f %12s %9.2f %9.2f %7.2f\n", "total",
              "comm+sync only", tw * 1e6, "", "", tm * 1e6, ts * 1e6, tg * 1e6, total_pattern,
              tgap * 1e6, tfirst * 1e6, tm > 0 ? tmodel / tm : 0.0);
  auto percent = [&](double predicted) {
    return (tw + tm) > 0 ? 100.0 * (predicted - (tw + tm)) / (tw + tm) : 0.0;
  };
  std::printf("  whole run: measured w + comm+sync = %.2f us; predicted w + l+hg = %.2f us, "
              "w + l+hg(h) = %.2f us (%+.1f%% vs measured)",
              (tw + tm) * 1e6, (tw + ts) * 1e6, (tw + tg) * 1e6, percent(tw + tg));
  if (curves)
    std::printf(", w + by pattern = %.2f us (%+.1f%% vs measured)", (tw + tp) * 1e6,
                percent(tw + tp));
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  Options opt;
  instrument::OptionTable table("bsp_predict");
  declare_options(table, opt);
  return instrument::run_serial_app(argc, argv, table, [&] {
    // Every input is read and checked before anything is printed or written: a bad one
    // gives one error line and no partial table.
    const Profile prof = read_profile(opt.profile);
    std::vector<BspMachine> ms;
    for (const std::string& path : opt.machines) ms.push_back(read_machine_file(path));
    // Outputs that cannot be replaced (a device, a FIFO, a directory) are refused now too.
    if (!opt.csv.empty()) { const instrument::OutputFile check(opt.csv, "prediction CSV"); }
    if (!opt.h5.empty()) { const instrument::OutputFile check(opt.h5, "results file"); }

    std::printf("BSP profile %s: p = %d, %zu supersteps (comm+sync measured as the last "
                "process's time in bsp_sync)\n",
                prof.file.c_str(), prof.nprocs, prof.steps.size());
    if (!prof.core_round_trip_seconds.empty()) {
      std::printf("cache-line round trip between the run's CPUs (bsp_begin, bsp_end):");
      for (double rt : prof.core_round_trip_seconds) std::printf(" %.0f", rt * 1e9);
      std::printf(" ns\n");
    }
    std::printf("h-relations in bytes:");
    for (const SuperstepSummary& s : prof.steps) std::printf(" %.0f", s.h_bytes);
    std::printf("\n");
    // predicted_by_pattern_s is empty for a machine file without superstep curves;
    // after_gap_extra_s and first_use_extra_s (both included in the two before them) are 0
    // without after-gap figures and without first-use figures.
    std::string csv = "machine,superstep,label,w_max_s,h_bytes,pattern,measured_comm_sync_s,"
                      "predicted_l_hg_s,predicted_l_hgh_s,predicted_by_pattern_s,after_gap_extra_s,"
                      "first_use_extra_s\n";
    for (const BspMachine& m : ms) print_table(prof, m, opt.csv.empty() ? nullptr : &csv);
    std::fflush(stdout);
    if (!opt.csv.empty()) {
      instrument::write_text_output(opt.csv, "prediction CSV", csv);
      std::printf("\nwrote %s\n", opt.csv.c_str());
    }
    if (!opt.h5.empty()) {
      write_profile_results(opt.h5, prof, ms);
      std::printf("\nwrote %s\n", opt.h5.c_str());
    }
    return 0;
  });
}
