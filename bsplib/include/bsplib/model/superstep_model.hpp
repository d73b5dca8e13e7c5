// The library's own model of a superstep's comm+sync, beside the paper's l + h g(h): what
// bspprobe measured for supersteps of the same pattern at the same h, interpolated.
//
// Why not l + h g alone: on today's transports a superstep's cost is set by the messages on
// its critical path more than by its bytes. A put one way, the same put both ways and a get
// (a request before its reply) of the same h cost measurably different times, while l + h g
// gives all three one figure; and T(h) bends where the transport changes protocol (between 1
// and 16 KiB), so one line through 0..256 KiB misses the small supersteps most programs have
// (bsplib/BENCHMARKS.md has the figures on the CPUs measured). The probe therefore measures whole
// supersteps of three patterns over a grid of h (bsp_probe_measure.hpp) and this model reads
// a superstep's pattern from its profile:
//   gets      some process asked a get of another (the profile's gets_out);
//   exchange  else, some process both sent and received data;
//   one way   else, data moved (h > 0);
//   none      nothing moved: the empty superstep.
// and its cost at its h off that pattern's curve, linear between the measured points, the
// first point's value below it, and the last segment's slope (never falling) beyond the last.
#pragma once
#include "bsplib/model/machine_params.hpp"
#include "bsplib/model/profile_table.hpp"

namespace bspmodel {

enum class StepPattern { none, one_way, exchange, gets };

StepPattern pattern_of(const SuperstepSummary& step);
const char* pattern_name(StepPattern pattern);

// Piecewise-linear interpolation of (h, t) at x as described above; h rising, t as long.
double interpolate_curve(const std::vector<double>& h, const std::vector<double>& t, double x);

// comm+sync of a superstep of `pattern` and `h_bytes` on the machine of `curves` (not empty).
double comm_sync_by_pattern(const SuperstepCurves& curves, StepPattern pattern, double h_bytes);

}  // namespace bspmodel
