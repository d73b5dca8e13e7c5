#include "sweep3d/model/loggp_machine_costs.hpp"

#include "instrument/collective_model.hpp"
#include "instrument/loggp_cold.hpp"
#include "instrument/machine_file.hpp"

namespace sweep3d::model {

MachineCosts machine_costs_from_loggp(const instrument::loggp::LogGpParams& params) {
  namespace lg = instrument::loggp;
  MachineCosts m;
  m.latency = params.L;
  m.message = [params](std::int64_t bytes) {
    const bool handshake = lg::has_handshake(params, bytes);
    // The post of an MPI_Isend: the message's own o when eager; above the handshake only
    // its small request-to-send header (the rest happens when the receiver answers).
    const double isend = lg::send_cost(params, handshake ? 1 : bytes);
    return MessageCosts{lg::send_cost(params, bytes), lg::receive_cost(params, bytes),
                        lg::total_comm(params, bytes), handshake, isend};
  };
  m.allreduce = [params](int nranks, std::int64_t bytes) {
    return instrument::allreduce_seconds(nranks, lg::total_comm(params, bytes));
  };
  return m;
}

MachineCosts machine_costs_from_file(const instrument::MachineFile& file) {
  MachineCosts m = machine_costs_from_loggp(instrument::loggp::read_params(file));
  m.cold = instrument::loggp::read_cold(file);
  m.after_stream = instrument::loggp::read_after_stream(file);
  return m;
}

MachineCosts read_machine_costs(const std::string& machine_file) {
  return machine_costs_from_file(instrument::MachineFile::read(machine_file));
}

}  // namespace sweep3d::model
