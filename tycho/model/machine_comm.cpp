#include "tycho/model/machine_comm.hpp"

#include <stdexcept>
#include <string>

#include "instrument/machine_file.hpp"

namespace tycho::model {

CommCost comm_cost_from_loggps(const instrument::loggps::LogGpsParams& params) {
  return [params](std::int64_t bytes) {
    if (bytes < 0) throw std::invalid_argument("T_comm: negative message size " + std::to_string(bytes));
    // The receiver is waiting (t_r - t_s = 0): eq. 7's measurement, half a ping-pong.
    return instrument::loggps::communication_cost(params, bytes, 0.0);
  };
}

CommCost comm_cost_from_machine(const instrument::MachineFile& file) {
  return comm_cost_from_loggps(instrument::loggps::read_params(file));
}

}  // namespace tycho::model
