// tycho's speed check (instrument/speed_check.hpp): a fixed cell solve, the sweep's own
// two-group LD solve of every cell of a 3^3 Kuhn cube (162 cells) in every S8 direction, with
// fixed inflow and source (the solve alone, as tycho_cell_solve_bench times it), made right
// before the first sweep and right after the last on every rank. About 0.6 ms a pass on the
// Zen 5 guest (24 ns a cell-angle-group), five passes a check: ~6 ms a run, outside every timed
// phase.
#pragma once

namespace tycho {

// What the check's figure is of, for the lines that print it.
inline constexpr const char* kSpeedCheckWhat =
    "a fixed cell solve's cell-angle-group (162 cells x 80 directions x 2 groups)";

// The median over five passes of one pass's time per cell-angle-group solve, ns.
double speed_check_ns();

}  // namespace tycho
