// The round trip of one cache line between the CPUs that two processes run on (measured by
// the library, bsp_round_trip.hpp), and what a machine file, a profile and bsp_predict say
// of it.
//
// Why a machine file records it: within one node a small superstep is a few cache lines
// passed between the processes' cores (shared_headers.hpp: a header and its epoch each way),
// so its cost follows the round trip of a line between those cores, and on a virtual machine
// the host decides which cores those are. On the 2-vCPU AMD EPYC (Zen 5) Firecracker guest,
// 2026-12-02, the round trip was 60-80, 130-160 or 500-580 ns depending on where the host had
// put the two vCPUs; one placement held for seconds to minutes, busy or idle, and changed
// between program launches. bspprobe's curves followed it: at 150 ns an empty superstep
// cost 0.17 us, one put of 2 KiB one way 0.22 us, both ways 0.27-0.30 and a get 0.71; at
// 540-580 ns 0.33, 0.51, 0.88-0.90 and 1.75 us (four probes, two at each). The 500-relation
// example measured the same two clusters (rounds 2-5: exchange 0.24-0.31 against 0.69-0.96
// us). So l and the curves are true of the placement they were measured at, and a run at
// another placement differs by 2-3x in comm+sync whatever the model. So bspprobe samples the
// round trip before every repetition, keeps the repetitions of one placement and names it in
// its file (bsp.core_round_trip_seconds); a profiled run records its own at bsp_begin and
// bsp_end; and bsp_predict says whether the two match.
// The summary and the ratio are instrument's (instrument/core_round_trip.hpp), shared with
// sweep3d's and tycho's runs and loggps-probe's key.
#pragma once
#include "instrument/core_round_trip.hpp"

namespace bspmodel {

using instrument::core_round_trip;
using instrument::kSamePlacementRatio;
using instrument::placement_ratio;

}  // namespace bspmodel
