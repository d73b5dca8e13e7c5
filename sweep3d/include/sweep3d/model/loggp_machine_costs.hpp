// Adapts the LogGP parameters measured by loggps-probe (instrument/loggp.hpp) to the
// per-message costs the sweep models consume.
#pragma once
#include <string>

#include "instrument/loggp.hpp"
#include "instrument/machine_file.hpp"
#include "sweep3d/model/message_costs.hpp"

namespace sweep3d::model {

MachineCosts machine_costs_from_loggp(const instrument::loggp::LogGpParams& params);

// The LogGP costs and, when the file has them, the cold ones (loggp.cold.*).
MachineCosts machine_costs_from_file(const instrument::MachineFile& file);

// Reads a machine file written by loggps-probe (InputError if it lacks the LogGP keys).
MachineCosts read_machine_costs(const std::string& machine_file);

}  // namespace sweep3d::model
