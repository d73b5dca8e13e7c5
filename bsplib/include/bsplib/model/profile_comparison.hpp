// A profile's supersteps beside the BSP cost model of one machine, as rows of the suite's
// side-by-side table (instrument::Comparison): per superstep the measured comm+sync against
// l + h g(h) (Hill, Crumpton & Burgess eq. 3), then the comm+sync total and the whole run
// (w measured in the run, plus comm+sync). bsp_predict's results file and the programs built
// on the library (their profile kept in memory) print the same rows.
#pragma once
#include "bsplib/model/machine_params.hpp"
#include "bsplib/model/profile_table.hpp"
#include "instrument/comparison.hpp"

namespace bspmodel {

void add_bsp_comparison(instrument::Comparison& comparison, const Profile& prof,
                        const BspMachine& machine);

}  // namespace bspmodel
