// The first-use term of a short run's comm+sync: a fresh process's first superstep and its
// first superstep of each pattern cost more than the same supersteps back to back.
//
// Why: bspprobe's curves are medians of supersteps back to back, and a long program's
// supersteps are priced well by them; a short one's are not. The paper's 500-relation example
// (22 supersteps) ran 13-18% over its prediction on an AMD EPYC Zen 5 guest (p = 2), and the
// excess was in the first supersteps: the first superstep after bsp_begin (a registration)
// 0.25-0.36 us over the empty superstep, and the first use of each pattern 0.6-1.4 us over
// the curves in all (bsplib/BENCHMARKS.md). A scratch program of 100 sections in one process
// showed the excess is the process's, not the section's: the first superstep of its first
// section 0.54-0.57 us, of later ones 0.28-0.30. So bspprobe measures, once, right after its
// own bsp_begin, what a fresh process's first supersteps cost (FirstUseCosts,
// machine_params.hpp), and a profile's supersteps are priced
//     superstep 0:                            + max(0, first_superstep - empty superstep)
//     the first later one of each pattern:    + max(0, first of the pattern - its curve at h)
//     the first one that pops a registration: + max(0, first pop - empty superstep)
// with the probe's own figures at the probe's h on both sides of the difference (the excess
// is taken as the same at any h: the probe has one sample of each, at 2 KiB). An empty
// superstep has no first-use term but the program's first and its first pop. Files without
// the figures, and machines without the curves, charge nothing; a profile of format 2 (no
// pops recorded) and a machine file without bsp.first_use.pop_seconds no pop term.
// The pop term: the 500-relation pops its two arrays before bsp_end, whose superstep cost
// 0.63-0.81 us against 0.23-0.28 us for the same program without the pops (AMD EPYC Zen 5,
// p = 2); a scratch program's first pop superstep cost 0.52-0.66 us, its later ones 0.29-0.34,
// an empty one 0.23-0.26: the excess is a first use, as the patterns' are.
#pragma once
#include <vector>

#include "bsplib/model/machine_params.hpp"
#include "bsplib/model/profile_table.hpp"
#include "bsplib/model/superstep_model.hpp"

namespace bspmodel {

// The excess of a fresh process's first superstep of `pattern` (none: its first superstep at
// all) over the back-to-back cost of the same superstep, never below 0; 0 without figures.
double first_use_excess(const BspMachine& m, StepPattern pattern);

// The excess of a fresh process's first superstep that pops a registration over an empty
// superstep, never below 0; 0 without the figure.
double first_pop_excess(const BspMachine& m);

// The first-use figures are single samples: one the host disturbed (a process descheduled
// for 0.3 ms in one of ten probe runs, a gets figure of 328 us against its curve's 1.4) would
// put the whole disturbance on one superstep. A figure over kFirstUseDisturbed times its
// back-to-back cost (the empty superstep for the first superstep and the first pop, the
// pattern's curve at h for the others; first uses measured 1.1-5.5x on the AMD EPYC Zen 5
// guest) is taken as disturbed: returns its name ("gets", "pop", ...), or "" if none is.
// bspprobe then writes no first-use figures (a prediction without the term, not a wrong one)
// and says why.
constexpr double kFirstUseDisturbed = 20;
const char* disturbed_first_use(const FirstUseCosts& u, const SuperstepCurves& curves);

// Per superstep of `prof`, the first-use term above (0 for all but the first superstep, the
// first of each pattern and the first that pops), seconds.
std::vector<double> first_use_extras(const BspMachine& m, const Profile& prof);

}  // namespace bspmodel
