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
// with the probe's own figures at the probe's h on both sides of the difference (the excess
// is taken as the same at any h: the probe has one sample of each, at 2 KiB). An empty
// superstep has no first-use term but the program's first. Files without the figures, and
// machines without the curves, charge nothing.
#pragma once
#include <vector>

#include "bsplib/model/machine_params.hpp"
#include "bsplib/model/profile_table.hpp"
#include "bsplib/model/superstep_model.hpp"

namespace bspmodel {

// The excess of a fresh process's first superstep of `pattern` (none: its first superstep at
// all) over the back-to-back cost of the same superstep, never below 0; 0 without figures.
double first_use_excess(const BspMachine& m, StepPattern pattern);

// Per superstep of `prof`, the first-use term above (0 for all but the first superstep and
// the first of each pattern), seconds.
std::vector<double> first_use_extras(const BspMachine& m, const Profile& prof);

}  // namespace bspmodel
