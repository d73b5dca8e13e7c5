// The cost of a superstep that follows a compute gap, beside its cost back to back.
//
// Why: bspprobe measures T(h) and the curves by pattern with supersteps back to back, but a
// program computes between its syncs. After a gap of computation the sync's code and data are
// cold and the last process to enter pays for it (on an AMD EPYC Zen 5 guest, p = 2, headers
// through shared memory, machine shared with builds: +0.3-1.5 us after 1 ms of spinning on
// the clock and +4-8 us after 10 ms; nothing measurable up to 100 us). bspprobe therefore also measures an empty superstep and
// one put of 64 B and of 2 KiB one way after gaps of 0, 10 us, 100 us, 1 ms and 10 ms
// (AfterGapCosts, machine_params.hpp), and a superstep is priced
//     curve(h) + max(0, after_gap(w) - after_gap(0))
// where w is the gap the last process to enter had since its previous sync (the process
// whose time in bsp_sync is the profile's comm+sync), and after_gap(x) the mean of the three
// measured supersteps at x (the increase did not depend on h within the noise): linear in x
// from 0 to the first gap above 0, linear in log x between measured gaps, held beyond the
// last. A machine file without after-gap figures charges nothing extra.
#pragma once
#include "bsplib/model/machine_params.hpp"
#include "bsplib/model/profile_table.hpp"

namespace bspmodel {

// after_gap(x) as above, seconds; `a` must not be none().
double after_gap_cost(const AfterGapCosts& a, double gap_seconds);
// after_gap(gap) - after_gap(0), never below 0; 0 when `a` is none(). Why never below: up to
// 100 us the measured costs are flat within the probe's noise (+-0.07 us at p = 2), and a
// multigrid cycle has ~2000 supersteps there: a negative difference of noise would take
// 0.1 ms off its comm+sync (seen: -98 us of 2.2 ms in one run).
double after_gap_extra(const AfterGapCosts& a, double gap_seconds);
// The gap since its previous sync of the process that entered bsp_sync last (the smallest
// time in bsp_sync, as comm+sync is read), seconds.
double gap_of_last_to_enter(const SuperstepSummary& step);

// The two priced models with the gap term: l + h g(h) (eq. 3) and the curve of the
// superstep's pattern (superstep_model.hpp; the machine must have curves).
double comm_sync_eq3_after_gap(const BspMachine& m, const SuperstepSummary& step);
double comm_sync_by_pattern_after_gap(const BspMachine& m, const SuperstepSummary& step);

}  // namespace bspmodel
