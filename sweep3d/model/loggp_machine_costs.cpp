#include "loggp_machine_costs.hpp"

#include "instrument/machine_file.hpp"

namespace sweep3d::model {

MachineCosts machine_costs_from_loggp(const instrument::loggp::LogGpParams& params) {
  namespace lg = instrument::loggp;
  MachineCosts m;
  m.latency = params.L;
  m.message = [params](std::int64_t bytes) {
    return MessageCosts{lg::send_cost(params, bytes), lg::receive_cost(params, bytes),
                        lg::total_comm(params, bytes), lg::has_handshake(params, bytes)};
  };
  return m;
}

MachineCosts read_machine_costs(const std::string& machine_file) {
  const auto file = instrument::MachineFile::read(machine_file);
  return machine_costs_from_loggp(instrument::loggp::read_params(file));
}

}  // namespace sweep3d::model
