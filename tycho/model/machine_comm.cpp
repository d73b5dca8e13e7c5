#include "tycho/model/machine_comm.hpp"

#include <stdexcept>
#include <string>

#include "instrument/loggp.hpp"
#include "instrument/machine_file.hpp"

namespace tycho::model {

CommCost comm_cost_from_loggps(const instrument::loggps::LogGpsParams& params) {
  return [params](std::int64_t bytes) {
    if (bytes < 0) throw std::invalid_argument("T_comm: negative message size " + std::to_string(bytes));
    // The receiver is waiting (t_r - t_s = 0): eq. 7's measurement, half a ping-pong.
    return instrument::loggps::communication_cost(params, bytes, 0.0);
  };
}

instrument::loggps::LogGpsParams read_checked_loggps(const instrument::MachineFile& file) {
  file.require_finite_parameters();
  for (const std::string& key : file.keys())
    if (key.rfind("loggp.", 0) == 0) {
      (void)instrument::loggp::read_params(file);  // validates the set sweep3d would read
      break;
    }
  return instrument::loggps::read_params(file);
}

CommCost comm_cost_from_machine(const instrument::MachineFile& file) {
  return comm_cost_from_loggps(read_checked_loggps(file));
}

}  // namespace tycho::model
