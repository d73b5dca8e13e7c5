// MachineLoad: how much of the run's nodes other processes used while the run ran, so that a
// report can say when its measured-vs-modelled comparison is unreliable (a model predicts the
// run on an idle machine; a second job on a 2-vCPU VM made a replay read -50%).
//
// Sampled twice per rank, at the run's start (run_app, start_machine_load_sample) and at its
// end (gather_results, measure_machine_load): the node's /proc/stat "cpu" line (jiffies of all
// its CPUs) and the rank's own CPU time (CLOCK_PROCESS_CPUTIME_ID, every thread). Per node
// (the ranks of an MPI_COMM_TYPE_SHARED communicator):
//
//   capacity = sum of the node's jiffy deltas (user nice system idle iowait irq softirq steal)
//   others   = (capacity - idle - iowait - steal - CPU time of the run's ranks there) / capacity
//   steal    = steal / capacity          (time the hypervisor gave this guest's vCPUs away)
//
// and for the run the largest of each over its nodes. The run was busy when others > 0.25
// or steal > 0.05 (the thresholds of tools/suite_campaign/report.py and campaign-design.md).
// Where /proc/stat is missing the load is "unknown" and nothing is said; so it is for a run
// too short for jiffies to tell (fewer than kMinJiffiesPerCpu per CPU of the node).
//
// Besides, where the kernel keeps pressure stall information (/proc/pressure/cpu, Linux 4.20 and
// on), the share of the run's wall time during which some runnable task of the node waited for
// a CPU (its "some" total, in microseconds, at start and end):
//
//   cpu_wait = (some total at end - at start) / the run's wall time
//
// That needs no tick: it tells a run of a tenth of a second, which jiffies cannot. A run is also
// busy when cpu_wait > kBusyCpuWait (measured on the 2-vCPU PVM guest, sweep3d 1x2 input50,
// 0.2 s: 0.14 of the time idle, mpiexec's start-up included; 0.67-0.75 beside two spinning
// processes). A run too short for jiffies is busy by cpu_wait alone, else still unknown. Its
// own ranks count too where they outnumber the CPUs: their times are then no model's either.
#pragma once
#include <mpi.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

namespace instrument {

class Comparison;

inline constexpr double kBusyOthers = 0.25;  // share of the node's CPUs used by others
inline constexpr double kBusySteal = 0.05;   // share of the node's CPU time stolen
inline constexpr double kBusyCpuWait = 0.3;  // share of the run's time some task waited for a CPU
// Jiffies are whole ticks (1/100 s): half a second per CPU keeps the rounding of the eight
// counters within a few per cent of the capacity.
inline constexpr double kMinJiffiesPerCpu = 50.0;

// The aggregate "cpu" line of /proc/stat, in jiffies (USER_HZ ticks), and the node's CPUs.
struct CpuJiffies {
  std::uint64_t user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0;
  int cpus = 0;  // "cpuN" lines
};

// The "cpu" line of /proc/stat's text; nullopt when there is none or it is not numbers
// (a kernel before 2.6.11 has no steal column: it reads as 0).
std::optional<CpuJiffies> parse_proc_stat(std::string_view text);
// This node's /proc/stat now; nullopt where it is missing or unreadable.
std::optional<CpuJiffies> read_proc_stat();

// The "some" line's total of /proc/pressure/cpu's text, in microseconds; nullopt when there is
// none or it is not a number.
std::optional<std::uint64_t> parse_cpu_pressure_total_us(std::string_view text);
// This node's; nullopt where the kernel keeps no pressure information.
std::optional<std::uint64_t> read_cpu_pressure_total_us();

// One node over one interval.
struct NodeLoad {
  bool known = false;     // false: the figures below cannot be trusted (why_unknown says why)
  double others = 0.0;    // [0, 1]
  double steal = 0.0;     // [0, 1]
  double capacity = 0.0;  // jiffies of all the node's CPUs over the interval
  std::string why_unknown;
};

// The arithmetic, pure: the node's samples at start and end, the CPU seconds the run's ranks
// on the node used in between, and the jiffies per second (sysconf(_SC_CLK_TCK)). A counter
// that went down wrapped when it was near 2^32 (a 32-bit kernel's counter), else it stepped
// back (iowait does on tickless kernels) and counts as 0. Zero capacity is unknown.
NodeLoad node_load(const CpuJiffies& start, const CpuJiffies& end, double own_cpu_seconds,
                   double jiffies_per_second);

// The run's load, as recorded in the results file's root attributes machine_load*.
struct MachineLoad {
  std::string state;  // "busy", "idle" or "unknown"; "" when nothing was recorded (older files)
  double others = std::numeric_limits<double>::quiet_NaN();  // largest over nodes
  double steal = std::numeric_limits<double>::quiet_NaN();   // largest over nodes
  double cpu_wait = std::numeric_limits<double>::quiet_NaN();  // largest over nodes; NaN: not kept
  std::string detail;  // how it was measured, or why it is unknown

  bool busy() const noexcept { return state == "busy"; }
  // "machine: busy during this run (others used 43% of the CPUs, steal 0.0%, some task waited
  // for a CPU 70% of the time): the measured-vs-modelled comparison is unreliable"; a figure
  // not known is left out.
  std::string busy_line() const;
};

// "busy" when others > kBusyOthers, steal > kBusySteal or cpu_wait > kBusyCpuWait (NaN: not
// known, never busy), else "idle".
std::string load_state(double others, double steal,
                       double cpu_wait = std::numeric_limits<double>::quiet_NaN());

// This rank's start sample (its /proc/stat and own CPU time): run_app takes it before the
// program's body, and again at each call. `companions`: processes the caller runs beside this
// one-node run on purpose, each on a CPU of its own for the whole run (--beside N: a one-rank
// calibration made beside copies of itself, so that it sees the node as a run of more ranks
// loads it); their CPUs' time counts as the run's own, not others'.
void start_machine_load_sample(int companions = 0);

// Collective over comm: the end sample, and the load since start_machine_load_sample() of the
// run's nodes; the same on every rank. "unknown" when no start sample was taken.
MachineLoad measure_machine_load(MPI_Comm comm);

// Marks the comparison unreliable with load.busy_line() when the run was busy.
void mark_if_busy(Comparison& comparison, const MachineLoad& load);

}  // namespace instrument
