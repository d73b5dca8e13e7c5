// The names of sweep3d's timed phases and counters, defined once: the driver times them,
// the report and the models read them back from the gathered results, the results file
// stores them under /phases/<name> and /counters/<name>.
//
//   iteration              one source iteration, inclusive of all below
//     w_before             Sundaram-Stukel & Vernon's W_before ...
//       source             ... the scattering source
//     sweep                the 8 octants' sweeps in an iteration without fixups (sweep_fixup
//     sweep_fixup          with them); all but the MPI calls in it is the sweep's local work
//                          (kernel, face copies, boundaries): W_g (SSV's "time to compute one
//                          grid point")
//       sweep_compute      the kernel, per block, iterations without fixups
//       sweep_compute_fixup  the same in iterations with fixups
//       send, recv, ...    the messages (instrument::Comm)
//     w_after              W_after ...
//       flux_err           ... the flux error (local)
//       convergence        ... its two reductions (allreduce)
//       monitor            ... and rank 0's monitor line (the original's report, written at
//                          most once a second; no model term: on the path it is "other")
//   setup, balance         before and after the iterations
#pragma once
#include <string_view>

#include "instrument/comm.hpp"
#include "instrument/critical_path.hpp"

namespace sweep3d::phase {

inline constexpr std::string_view kSetup = "setup";
inline constexpr std::string_view kIteration = "iteration";
inline constexpr std::string_view kWBefore = "w_before";
inline constexpr std::string_view kSource = "source";
inline constexpr std::string_view kSweep = "sweep";
inline constexpr std::string_view kSweepFixup = "sweep_fixup";
inline constexpr std::string_view kKernel = "sweep_compute";
inline constexpr std::string_view kKernelFixup = "sweep_compute_fixup";
inline constexpr std::string_view kWAfter = "w_after";
inline constexpr std::string_view kFluxError = "flux_err";
inline constexpr std::string_view kConvergence = "convergence";
inline constexpr std::string_view kMonitor = "monitor";
inline constexpr std::string_view kBalance = "balance";

}  // namespace sweep3d::phase

namespace sweep3d::counter {

inline constexpr std::string_view kCellAngles = "cell_angles";              // iterations without fixups
inline constexpr std::string_view kCellAnglesFixup = "cell_angles_fixup_its";  // iterations with fixups
inline constexpr std::string_view kFixups = "fixups";                       // cell-angles fixed
inline constexpr std::string_view kBlocks = "blocks";

}  // namespace sweep3d::counter

namespace sweep3d {

// The categories of the models' breakdown of an iteration, and the phase each is measured in
// on the critical path (see model/run_comparison.hpp). The sweep's local work (the kernel and
// what is untimed inside the sweep: face copies, boundaries) is its computation, its MPI calls
// its communication; rank 0's monitor line and time untimed inside an iteration but outside
// its phases are "other".
namespace category {
inline constexpr const char* kWBefore = "W_before";
inline constexpr const char* kComputation = "computation";
inline constexpr const char* kCommunication = "communication";
inline constexpr const char* kWAfter = "W_after";
inline constexpr const char* kReductions = "reductions";
inline constexpr const char* kOther = "other";
}  // namespace category

inline instrument::critical_path::Rules critical_path_rules() {
  using namespace category;
  instrument::critical_path::Rules r;
  r.categories = {kWBefore, kComputation, kCommunication, kWAfter, kReductions, kOther};
  r.category_of = {{std::string(phase::kWBefore), kWBefore},     {std::string(phase::kSource), kWBefore},
                   {std::string(phase::kSweep), kComputation},   {std::string(phase::kSweepFixup), kComputation},
                   {std::string(phase::kKernel), kComputation},
                   {std::string(phase::kKernelFixup), kComputation},
                   {instrument::comm_phase::kSend, kCommunication},
                   {instrument::comm_phase::kRecv, kCommunication},
                   {instrument::comm_phase::kIsend, kCommunication},
                   {instrument::comm_phase::kIrecv, kCommunication},
                   {instrument::comm_phase::kWait, kCommunication},
                   {std::string(phase::kWAfter), kWAfter}, {std::string(phase::kFluxError), kWAfter},
                   {std::string(phase::kMonitor), kOther},
                   {std::string(phase::kConvergence), kReductions},
                   {instrument::comm_phase::kAllreduce, kReductions}};
  r.fallback = kOther;
  r.epoch_phase = std::string(phase::kIteration);
  return r;
}

}  // namespace sweep3d
