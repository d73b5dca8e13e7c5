// Eq. 5 worked by hand, the surface fit, and the replay of a hand-made profile.
#include <catch2/catch.hpp>

#include <cmath>
#include <stdexcept>

#include "instrument/error.hpp"
#include "multigrid/cycle.hpp"
#include "multigrid/model/c1_curve.hpp"
#include "multigrid/model/eq5_model.hpp"
#include "multigrid/model/replay.hpp"
#include "multigrid/model_report.hpp"
#include "multigrid/superstep_tag.hpp"

namespace {
bool near(double a, double b, double rel = 1e-5) { return std::fabs(a - b) <= rel * std::fabs(b); }

// A profiled superstep with its label, w, h and measured comm+sync, no per-process rows.
bspmodel::SuperstepSummary cycle_step(const char* label, double w, double h, double comm) {
  bspmodel::SuperstepSummary s;
  s.label = label;
  s.w_max = w;
  s.h_bytes = h;
  s.comm_sync = comm;
  return s;
}
}  // namespace

TEST_CASE("eq. 5 on three grids, worked by hand") {
  mg::Eq5Inputs in;
  in.p = 2;
  in.c2_bytes = 10;
  in.gamma = 0.5;
  in.l_seconds = 2e-6;
  in.g_seconds_per_byte = 1e-9;
  in.grids = {{8000, 5, 1.4, 1e-7}, {1000, 10, 1.4, 1e-7}, {125, 120, 1, 1e-7}};
  const std::vector<mg::Eq5Terms> t = mg::eq5_w_cycle(in);
  REQUIRE(t.size() == 4);
  // grid 1: N/p = 4000: 5 x 1e-7 x 4000; 5 x 10 x sqrt(4000) x 1e-9; 5 x 1.4 x 2e-6
  CHECK(near(t[0].compute, 2e-3));
  CHECK(near(t[0].communicate, 3.16228e-6));
  CHECK(near(t[0].synchronise, 1.4e-5));
  // grid 2: N/p = 500
  CHECK(near(t[1].compute, 5e-4));
  CHECK(near(t[1].communicate, 2.23607e-6));
  CHECK(near(t[1].synchronise, 2.8e-5));
  // grid 3: N/p = 62.5
  CHECK(near(t[2].compute, 7.5e-4));
  CHECK(near(t[2].communicate, 9.48683e-6));
  CHECK(near(t[2].synchronise, 2.4e-4));
  CHECK(near(t[3].compute, 3.25e-3));
  CHECK(near(t[3].communicate, 1.488518e-5));
  CHECK(near(t[3].synchronise, 2.82e-4));
  CHECK(near(t[3].total(), 3.25e-3 + 1.488518e-5 + 2.82e-4));
}

TEST_CASE("eq. 5 with no exchange (one process) charges no communication") {
  mg::Eq5Inputs in;
  in.l_seconds = 1e-6;
  in.g_seconds_per_byte = 1e-9;
  in.grids = {{100, 2, 1, 1e-7}};
  const auto t = mg::eq5_w_cycle(in);
  CHECK(t[1].communicate == 0);
  CHECK(near(t[1].compute, 2e-5));
  CHECK(near(t[1].synchronise, 2e-6));
}

TEST_CASE("the surface fit recovers h = C2 x^gamma, and falls back with fewer points") {
  const std::vector<double> x{4000, 500, 62.5};
  std::vector<double> h;
  for (double v : x) h.push_back(7 * std::pow(v, 0.6));
  mg::SurfaceFit f = mg::fit_surface(x, h);
  CHECK(f.points == 3);
  CHECK(near(f.gamma, 0.6, 1e-12));
  CHECK(near(f.c2_bytes, 7, 1e-12));
  f = mg::fit_surface({1000, 10}, {50, 0});  // one point with h > 0
  CHECK(f.points == 1);
  CHECK(near(f.gamma, 2.0 / 3));
  CHECK(near(f.c2_bytes, 50 / std::pow(1000, 2.0 / 3)));
  f = mg::fit_surface({1000}, {0});
  CHECK(f.points == 0);
  CHECK(f.c2_bytes == 0);
}

TEST_CASE("eq. 5's inputs from counts: C3 per grid, C2 and gamma fitted over N_i / p") {
  // Two processes, grids of 8000 and 1000 cells, h = 3 (N/p)^0.7; 5 applications in 7
  // supersteps on grid 1, 10 in 10 on grid 2.
  const std::vector<mg::Eq5GridCount> counts{{8000, 5, 7, 3 * std::pow(4000.0, 0.7)},
                                            {1000, 10, 10, 3 * std::pow(500.0, 0.7)}};
  // C1 at N_i / p: 2e-8 s for the 4000 cells a process holds of grid 1, 1e-8 s below.
  const auto c1 = [](double n) { return n >= 4000 ? 2e-8 : 1e-8; };
  const mg::Eq5Inputs in = mg::eq5_inputs_from_counts(2, c1, 0.0, 1e-5, 1e-9, counts);
  CHECK(in.p == 2);
  CHECK(in.grids[0].c1_seconds == 2e-8);
  CHECK(in.grids[1].c1_seconds == 1e-8);
  CHECK(in.l_seconds == 1e-5);
  CHECK(in.g_seconds_per_byte == 1e-9);
  REQUIRE(in.grids.size() == 2);
  CHECK(in.grids[0].cells == 8000);
  CHECK(in.grids[0].applications == 5);
  CHECK(near(in.grids[0].c3, 1.4, 1e-12));
  CHECK(near(in.grids[1].c3, 1.0, 1e-12));
  CHECK(near(in.gamma, 0.7, 1e-12));
  CHECK(near(in.c2_bytes, 3, 1e-12));
}

TEST_CASE("eq. 5's C1 per grid mixes the families' C1 and the loose cells' by the grid's fraction of loose cells") {
  // Grid 1: 8000 cells, 800 (10%) in no family; grid 2 (the coarsest): 1000 cells, all loose.
  // C1 2e-8 s in families, 5e-8 s loose: grid 1 0.9 x 2e-8 + 0.1 x 5e-8 = 2.3e-8 s, grid 2 5e-8 s.
  const std::vector<mg::Eq5GridCount> counts{{8000, 5, 5, 0, 800}, {1000, 10, 10, 0, 1000}};
  const auto c1 = [](double) { return 2e-8; };
  const mg::Eq5Inputs in = mg::eq5_inputs_from_counts(1, c1, 5e-8, 0.0, 0.0, counts);
  REQUIRE(in.grids.size() == 2);
  CHECK(near(in.grids[0].c1_seconds, 2.3e-8, 1e-12));
  CHECK(near(in.grids[0].loose_fraction, 0.1, 1e-12));
  CHECK(in.grids[1].c1_seconds == 5e-8);
  // Eq. 5's compute: 5 x 2.3e-8 x 8000 + 10 x 5e-8 x 1000 = 9.2e-4 + 5e-4 s.
  CHECK(near(mg::eq5_w_cycle(in).back().compute, 1.42e-3, 1e-12));
  // Without a loose C1 (older calibrations) every cell is priced at the curve's.
  const mg::Eq5Inputs old = mg::eq5_inputs_from_counts(1, c1, 0.0, 0.0, 0.0, counts);
  CHECK(old.grids[1].c1_seconds == 2e-8);
  CHECK(old.grids[1].loose_fraction == 0);
  // The curve's loose C1 is the mean over the points that recorded one.
  const mg::C1Curve curve({{1e5, 2e-9, "a.h5", 1, "avx2", 6e-9}, {1e6, 2.5e-9, "b.h5", 1, "avx2", 8e-9},
                           {1e4, 2e-9, "c.h5", 1, "avx2", 0}});
  CHECK(near(curve.loose_seconds(), 7e-9, 1e-12));
  CHECK(curve.describe(1, "avx2").find("a.h5 (p = 1, N/p 1e+05, avx2: 2e-09 s, in no family 6e-09 s)") != std::string::npos);
}

TEST_CASE("C1(N/p): a ln(N/p) + b over the calibration points, held beyond them, flags in describe()") {
  // ln N/p = 12 and 14: slope (8e-9 - 6e-9) / 2 = 1e-9 per ln(cell), intercept 6e-9 - 12e-9.
  const mg::C1Curve c({{std::exp(12.0), 6e-9, "small.h5", 1, "avx2"}, {std::exp(14.0), 8e-9, "large.h5", 2, "portable"}});
  CHECK(near(c.line().slope, 1e-9, 1e-9));
  CHECK(near(c(std::exp(13.0)), 7e-9, 1e-9));
  CHECK(near(c(10.0), 6e-9, 1e-9));   // in cache: the smallest point's
  CHECK(near(c(1e12), 8e-9, 1e-9));   // beyond: the largest point's, never extrapolated
  const std::string d = c.describe(1, "avx2");
  CHECK(d.find("least squares over 2 points") != std::string::npos);
  CHECK(d.find("small.h5 (p = 1") != std::string::npos);
  CHECK(d.find("NOT this run's p = 1") != std::string::npos);  // large.h5 ran at p = 2
  CHECK(d.find("NOT this run's cell kernel (avx2)") != std::string::npos);
  CHECK(d.find("small.h5 (p = 1, N/p 1.63e+05, avx2: 6e-09 s)") != std::string::npos);  // no flag on it
  // One point: a constant.
  const mg::C1Curve one({{1000, 5e-9, "one.h5", 1, "avx2"}});
  CHECK(one(1e7) == 5e-9);
  CHECK(one.describe(1, "avx2").find("(constant) from one.h5") != std::string::npos);
  // Refused: no point, a value that is not positive (naming its file), a fit that dips below 0.
  CHECK_THROWS_AS(mg::C1Curve({}), instrument::InputError);
  CHECK_THROWS_WITH(mg::C1Curve({{1000, -1e-9, "neg.h5", 1, ""}}), Catch::Contains("neg.h5"));
  CHECK_THROWS_WITH(mg::C1Curve({{1000, 1e-9, "a.h5", 1, ""}, {0, 1e-9, "zero.h5", 1, ""}}), Catch::Contains("zero.h5"));
  CHECK_THROWS_WITH(mg::C1Curve({{std::exp(1.0), 1e-8, "a.h5", 1, ""}, {std::exp(2.0), 1e-10, "b.h5", 1, ""},
                                 {std::exp(3.0), -1e-8 + 2e-10, "c.h5", 1, ""}}),
                    Catch::Contains("c.h5"));
  // Three points at ln N/p = 1, 2, 3: the line's value at 3 is (5 y3 + 2 y2 - y1) / 6 < 0.
  CHECK_THROWS_WITH(mg::C1Curve({{std::exp(1.0), 1e-8, "a.h5", 1, ""}, {std::exp(2.0), 1e-12, "b.h5", 1, ""},
                                 {std::exp(3.0), 1e-12, "c.h5", 1, ""}}),
                    Catch::Contains("positive over the measured N/p"));
}

TEST_CASE("the cycle's labels carry their grid and phase as numbers") {
  const mg::SuperstepLabels labels = mg::cycle_labels(12);
  CHECK(labels.size() == 12 * mg::kPhases);
  CHECK(labels.at("grid 1 pre-smooth").grid == 1);
  CHECK(labels.at("grid 1 pre-smooth").phase == mg::kPreSmooth);
  CHECK(labels.at("grid 12 coarse").grid == 12);
  CHECK(labels.at("grid 12 coarse").phase == mg::kCoarse);
  CHECK(labels.at("grid 7 restrict").phase == mg::kRestrict);
  CHECK(labels.count("grid 13 coarse") == 0);
}

TEST_CASE("a run's supersteps are tagged by their labels, a label of no grid with grid 0") {
  bspmodel::Profile prof;
  prof.nprocs = 1;
  for (const char* label : {"grid 1 pre-smooth", "monitor norm", "grid 2 coarse", "grid x", "grid 0 smooth",
                            "grid 3 coarse", "grid 1 post-smooth"}) {
    bspmodel::SuperstepSummary s;
    s.label = label;
    prof.steps.push_back(s);
  }
  const std::vector<mg::SuperstepTag> t = mg::tag_supersteps(prof, mg::cycle_labels(2));
  REQUIRE(t.size() == prof.steps.size());
  CHECK((t[0].grid == 1 && t[0].phase == mg::kPreSmooth));
  CHECK((t[2].grid == 2 && t[2].phase == mg::kCoarse));
  CHECK((t[6].grid == 1 && t[6].phase == mg::kPostSmooth));
  for (std::size_t k : {1, 3, 4, 5}) {  // not a label of a cycle on two grids
    INFO(prof.steps[k].label);
    CHECK(t[k].grid == 0);
    CHECK(t[k].phase == -1);
  }
}

TEST_CASE("the replay: measured w plus l + (h + N_1/2) g per superstep, by grid, monitor steps left out") {
  bspmodel::Profile prof;
  prof.nprocs = 2;
  const auto step = cycle_step;
  prof.steps = {step("grid 1 pre-smooth", 1e-3, 800, 5e-6), step("grid 2 coarse", 2e-4, 0, 2e-6),
                step("monitor norm", 1.0, 16, 1.0), step("grid 1 post-smooth", 1e-3, 800, 4e-6)};
  bspmodel::BspMachine m;
  m.l_seconds = 1e-6;
  m.g_seconds_per_byte = 1e-9;
  m.n_half_bytes = 100;
  const std::vector<mg::SuperstepTag> tags = mg::tag_supersteps(prof, mg::cycle_labels(2));
  const std::vector<mg::ReplaySum> r = mg::replay_cycles(prof, tags, m, 2, false);
  REQUIRE(r.size() == 3);
  CHECK(near(r[0].predicted, 2 * (1e-3 + 1e-6 + 900e-9), 1e-12));
  CHECK(near(r[0].measured, 2e-3 + 9e-6, 1e-12));
  CHECK(r[0].supersteps == 2);
  CHECK(near(r[1].predicted, 2e-4 + 1e-6, 1e-12));
  CHECK(near(r[1].measured, 2e-4 + 2e-6, 1e-12));
  CHECK(near(r[2].predicted, r[0].predicted + r[1].predicted, 1e-12));
  CHECK(r[2].supersteps == 3);
  CHECK(near(r[2].w, 2.2e-3, 1e-12));
  // The tags are the supersteps' own: one short is a caller's mistake, not a shorter replay.
  CHECK_THROWS_AS(mg::replay_cycles(prof, {tags.begin(), tags.end() - 1}, m, 2, false), std::invalid_argument);
}

TEST_CASE("the replay adds the gap term after_gap(w) - after_gap(0) where the machine file has it") {
  bspmodel::Profile prof;
  prof.nprocs = 2;
  // No per-process rows: the gap of the last process to enter is taken as w.
  const auto step = [](const char* label, double w, double h) { return cycle_step(label, w, h, 3e-6); };
  prof.steps = {step("grid 1 pre-smooth", 1e-3, 800), step("grid 2 coarse", 2e-4, 0)};
  bspmodel::BspMachine m;
  m.l_seconds = 1e-6;
  m.g_seconds_per_byte = 1e-9;
  // after a gap of 0, 100 us, 10 ms: 1, 1, 3 us (every pattern alike)
  m.after_gap.gap_seconds = {0, 1e-4, 1e-2};
  m.after_gap.empty = m.after_gap.one_way_64 = m.after_gap.one_way_2048 = {1e-6, 1e-6, 3e-6};
  const std::vector<mg::SuperstepTag> tags = mg::tag_supersteps(prof, mg::cycle_labels(2));
  const std::vector<mg::ReplaySum> r = mg::replay_cycles(prof, tags, m, 2, false);
  REQUIRE(r.size() == 3);
  // grid 1: w = 1 ms, halfway in log from 100 us to 10 ms: 2 us, 1 us over the gap of 0
  CHECK(near(r[0].predicted, 1e-3 + 1e-6 + 800e-9 + 1e-6, 1e-12));
  // grid 2: w = 200 us: log(2) / log(100) of the way, 2 us x 0.150515 = 0.30103 us
  CHECK(near(r[1].predicted, 2e-4 + 1e-6 + 0.30103e-6, 1e-6));
  // without the figures: as before
  m.after_gap = {};
  CHECK(near(mg::replay_cycles(prof, tags, m, 2, false)[0].predicted, 1e-3 + 1e-6 + 800e-9, 1e-12));
}

TEST_CASE("the replay prices a grid's working set: the larger of the gap and the after-stream term") {
  bspmodel::Profile prof;
  prof.nprocs = 2;
  const auto step = [](const char* label, double w, double h) { return cycle_step(label, w, h, 3e-6); };
  prof.steps = {step("grid 1 pre-smooth", 1e-3, 800), step("grid 2 coarse", 2e-4, 0)};
  bspmodel::BspMachine m;
  m.l_seconds = 1e-6;
  m.g_seconds_per_byte = 1e-9;
  m.after_gap.gap_seconds = {0, 1e-4, 1e-2};  // as the case above: +1 us at 1 ms, +0.30103 us at 200 us
  m.after_gap.empty = m.after_gap.one_way_64 = m.after_gap.one_way_2048 = {1e-6, 1e-6, 3e-6};
  // after a pass over 0, 1 MiB, 64 MiB: 1, 1, 4 us (every pattern alike)
  m.after_stream.working_set_bytes = {0, 1048576, 67108864};
  m.after_stream.empty = m.after_stream.one_way_64 = m.after_stream.one_way_2048 = {1e-6, 1e-6, 4e-6};
  const std::vector<mg::SuperstepTag> tags = mg::tag_supersteps(prof, mg::cycle_labels(2));
  // grid 1 goes over 8 MiB (halfway in log from 1 to 64 MiB: +1.5 us, above the gap's 1 us);
  // grid 2 over 0.5 MiB (+0 us: the gap's 0.30103 us stays)
  const std::vector<mg::ReplaySum> r = mg::replay_cycles(prof, tags, m, 2, false, {8 * 1048576.0, 0.5 * 1048576.0});
  REQUIRE(r.size() == 3);
  CHECK(near(r[0].predicted, 1e-3 + 1e-6 + 800e-9 + 1.5e-6, 1e-12));
  CHECK(near(r[1].predicted, 2e-4 + 1e-6 + 0.30103e-6, 1e-6));
  // no working sets: the gap term alone, as before
  CHECK(near(mg::replay_cycles(prof, tags, m, 2, false)[0].predicted, 1e-3 + 1e-6 + 800e-9 + 1e-6, 1e-12));
  // one working set a grid, or none
  CHECK_THROWS_AS(mg::replay_cycles(prof, tags, m, 2, false, {1.0}), std::invalid_argument);
}

namespace {
// A two-grid run of `f.size()` cycles at p = 2: per cycle 2 pre- and 2 post-smoothing
// supersteps on grid 1 (5, 4, 4, 4 us: the first of a cycle dearer, as measured runs have it)
// and 3 coarse ones on grid 2 (1, 2, 6 us), each times the cycle's factor f, and a monitor
// superstep of no grid; comm+sync 1 us a superstep on grid 1, none on grid 2.
mg::RunResult run_of_cycles(const std::vector<double>& f) {
  mg::RunResult r;
  r.p = 2;
  r.grids.resize(2);
  r.grids[0].cells = 2000;  // 1000 cells a process on grid 1
  r.grids[1].cells = 400;   // 200 on the coarsest
  for (double x : f) {
    r.cycle_seconds.push_back(x * 1e-3);
    r.profile.steps.push_back(cycle_step("grid 1 pre-smooth", x * 5e-6, 0, 1e-6));
    r.profile.steps.push_back(cycle_step("grid 1 pre-smooth", x * 4e-6, 0, 1e-6));
    for (double c : {1e-6, 2e-6, 6e-6}) r.profile.steps.push_back(cycle_step("grid 2 coarse", x * c, 0, 0));
    r.profile.steps.push_back(cycle_step("grid 1 post-smooth", x * 4e-6, 0, 1e-6));
    r.profile.steps.push_back(cycle_step("grid 1 post-smooth", x * 4e-6, 0, 1e-6));
    r.profile.steps.push_back(cycle_step("monitor norm", 1.0, 0, 0));  // grid 0: not C1
  }
  r.superstep_tags = mg::tag_supersteps(r.profile, mg::cycle_labels(2));
  return r;
}
}  // namespace

TEST_CASE("a run's C1 is its median cycle's: a cycle slowed once does not move it") {
  // Five cycles, the fourth 3x slower: grid 1's cycle sums 17, 17, 17, 51, 17 us; the median
  // 17 us over 4 supersteps and 1000 cells (the mean would be 23.8 us).
  const mg::RunResult five = run_of_cycles({1, 1, 1, 3, 1});
  CHECK(near(mg::measured_c1(five), 17e-6 / 4 / 1000, 1e-12));
  // Coarse: 9 us a cycle (27 in the fourth), over 3 supersteps and 200 cells. A median per
  // superstep instead (of 1, 2, 6, 3, 6, 18 us ...) would give 2 us, not 3.
  CHECK(near(mg::measured_c1_loose(five), 9e-6 / 3 / 200, 1e-12));
  // Four cycles of different sums: the median is the mean of the middle two (17 x 1.1 and
  // 17 x 1.2 us), not either of them.
  const mg::RunResult four = run_of_cycles({1.0, 1.2, 1.1, 2.0});
  CHECK(near(mg::measured_c1(four), 17e-6 * 1.15 / 4 / 1000, 1e-12));
  // One or two cycles: the median is the mean.
  CHECK(near(mg::measured_c1(run_of_cycles({1.0})), 17e-6 / 4 / 1000, 1e-12));
  CHECK(near(mg::measured_c1(run_of_cycles({1.0, 3.0})), 34e-6 / 4 / 1000, 1e-12));
  // Supersteps that do not split evenly into the cycles: the mean over all of them.
  mg::RunResult uneven = run_of_cycles({1, 1, 1, 3});
  uneven.cycle_seconds.push_back(1e-3);  // 5 cycles said, 12 coarse supersteps
  CHECK(near(mg::measured_c1_loose(uneven), (3 * 9e-6 + 27e-6) / 12 / 200, 1e-12));
}

TEST_CASE("eq. 5's rows are scored against the median cycle, the replays' against the mean") {
  const mg::RunResult r = run_of_cycles({1, 1, 1, 3, 1});
  const mg::C1Curve c1({{1000, 17e-6 / 4 / 1000, "by hand", 2, ""}});
  bspmodel::BspMachine m;
  m.l_seconds = 1e-6;
  m.g_seconds_per_byte = 1e-9;
  m.file = "by hand";
  const instrument::Comparison cmp = mg::model_comparison(r, c1, "by hand", m, {});
  const auto row = [&](const std::string& model, const std::string& term) {
    for (const auto& x : cmp.rows())
      if (x.model == model && x.term == term) return x;
    FAIL("no row " + model + " " + term);
    return cmp.rows().front();
  };
  // T_cycle: the median of 1, 1, 1, 3, 1 ms; the replay's: their mean.
  CHECK(near(row("eq5", "T_cycle").measured, 1e-3, 1e-12));
  CHECK(near(row("replay-eq3", "T_cycle").measured, 1.4e-3, 1e-12));
  // Grid 1: w + comm+sync, 17 + 4 us in the median cycle; the replay's the mean, (4 x 21 +
  // 55) / 5 us (the slow cycle's w 51 us, its comm+sync the same 4). Grid 2: 9 us; the mean
  // (4 x 9 + 27) / 5.
  CHECK(near(row("eq5", "grid 1").measured, 21e-6, 1e-12));
  CHECK(near(row("replay-eq3", "grid 1").measured, (4 * 21e-6 + 55e-6) / 5, 1e-12));
  CHECK(near(row("eq5", "grid 2").measured, 9e-6, 1e-12));
  CHECK(near(row("replay-eq3", "grid 2").measured, (4 * 9e-6 + 27e-6) / 5, 1e-12));
}
