// The machine's load during a run (machine_load.hpp).
#include "instrument/machine_load.hpp"

#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

#include "instrument/comparison.hpp"

namespace instrument {

namespace {

bool is_digit_text(const std::string& s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// A counter's increase; see node_load() for a counter that went down.
std::uint64_t increase(std::uint64_t start, std::uint64_t end) {
  if (end >= start) return end - start;
  constexpr std::uint64_t k32 = std::uint64_t{1} << 32;
  if (start < k32 && start - end > k32 / 2) return end + k32 - start;  // a 32-bit counter wrapped
  return 0;                                                             // a step back
}

double own_cpu_seconds() {
  timespec ts{};
  if (clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts) != 0) return 0.0;
  return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
}

double wall_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// This rank's sample at the run's start.
struct StartSample {
  bool taken = false;
  std::optional<CpuJiffies> stat;
  std::optional<std::uint64_t> pressure_us;
  double cpu = 0.0;
  double wall = 0.0;
  int companions = 0;
};
StartSample& start_sample() {
  static StartSample s;
  return s;
}

// What the detail says of the companions a run was told of (--beside), "" when none.
std::string companions_note(const StartSample& s) {
  return s.companions > 0
             ? "; " + std::to_string(s.companions) + (s.companions == 1 ? " companion runs" : " companions run") +
                   " beside it on purpose (--beside), counted as its own"
             : std::string();
}

std::string percent(double fraction, int decimals) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f%%", decimals, 100.0 * fraction);
  return b;
}

// Why a run's load is unknown, worst last (the largest over the nodes is reported).
enum Unknown { kKnown = 0, kTooShort = 1, kNoCapacity = 2, kNoProcStat = 3, kNoStartSample = 4 };

}  // namespace

std::optional<CpuJiffies> parse_proc_stat(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string line;
  std::optional<CpuJiffies> out;
  int cpus = 0;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string name;
    words >> name;
    if (name.size() > 3 && name.compare(0, 3, "cpu") == 0 && is_digit_text(name.substr(3))) ++cpus;
    if (name != "cpu" || out) continue;
    std::array<std::uint64_t, 8> v{};
    std::size_t n = 0;
    std::string word;
    while (n < v.size() && words >> word) {
      if (!is_digit_text(word) || word.size() > 19) return std::nullopt;
      v[n++] = std::stoull(word);
    }
    if (n < 4) return std::nullopt;  // user nice system idle: every kernel has them
    out = CpuJiffies{v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], 0};
  }
  if (out) out->cpus = std::max(cpus, 1);
  return out;
}

std::optional<std::uint64_t> parse_cpu_pressure_total_us(std::string_view text) {
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    std::istringstream words(line);
    std::string word;
    if (!(words >> word) || word != "some") continue;
    while (words >> word)
      if (word.compare(0, 6, "total=") == 0) {
        const std::string digits = word.substr(6);
        if (!is_digit_text(digits) || digits.size() > 19) return std::nullopt;
        return std::stoull(digits);
      }
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<std::uint64_t> read_cpu_pressure_total_us() {
  std::ifstream in("/proc/pressure/cpu");
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return parse_cpu_pressure_total_us(text.str());
}

std::optional<CpuJiffies> read_proc_stat() {
  std::ifstream in("/proc/stat");
  if (!in) return std::nullopt;
  std::ostringstream text;
  text << in.rdbuf();
  return parse_proc_stat(text.str());
}

NodeLoad node_load(const CpuJiffies& start, const CpuJiffies& end, double own_cpu_seconds,
                   double jiffies_per_second) {
  NodeLoad load;
  const double user = static_cast<double>(increase(start.user, end.user));
  const double nice = static_cast<double>(increase(start.nice, end.nice));
  const double system = static_cast<double>(increase(start.system, end.system));
  const double idle = static_cast<double>(increase(start.idle, end.idle));
  const double iowait = static_cast<double>(increase(start.iowait, end.iowait));
  const double irq = static_cast<double>(increase(start.irq, end.irq));
  const double softirq = static_cast<double>(increase(start.softirq, end.softirq));
  const double steal = static_cast<double>(increase(start.steal, end.steal));
  load.capacity = user + nice + system + idle + iowait + irq + softirq + steal;
  if (!(load.capacity > 0.0) || !(jiffies_per_second > 0.0)) {
    load.why_unknown = "no CPU time passed between the samples";
    return load;
  }
  const double own = std::max(0.0, own_cpu_seconds) * jiffies_per_second;
  const double others = load.capacity - idle - iowait - steal - own;
  load.others = std::clamp(others / load.capacity, 0.0, 1.0);
  load.steal = steal / load.capacity;
  const int cpus = std::max(end.cpus, 1);
  load.known = load.capacity >= kMinJiffiesPerCpu * cpus;
  if (!load.known)
    load.why_unknown = "the run was too short to tell (" + std::to_string(static_cast<long long>(load.capacity)) +
                       " jiffies of " + std::to_string(cpus) + " CPUs, fewer than " +
                       std::to_string(static_cast<int>(kMinJiffiesPerCpu)) + " per CPU)";
  return load;
}

std::string load_state(double others, double steal, double cpu_wait) {
  return others > kBusyOthers || steal > kBusySteal || cpu_wait > kBusyCpuWait ? "busy" : "idle";
}

std::string MachineLoad::busy_line() const {
  std::string figures;
  const auto add = [&](const std::string& part) { figures += (figures.empty() ? "" : ", ") + part; };
  if (!std::isnan(others)) add("others used " + percent(others, 0) + " of the CPUs");
  if (!std::isnan(steal)) add("steal " + percent(steal, 1));
  if (!std::isnan(cpu_wait)) add("some task waited for a CPU " + percent(cpu_wait, 0) + " of the time");
  return "machine: busy during this run (" + figures + "): the measured-vs-modelled comparison is unreliable";
}

void start_machine_load_sample(int companions) {
  StartSample& s = start_sample();
  s.companions = std::max(companions, 0);
  s.stat = read_proc_stat();
  s.pressure_us = read_cpu_pressure_total_us();
  s.cpu = own_cpu_seconds();
  s.wall = wall_seconds();
  s.taken = true;
}

MachineLoad measure_machine_load(MPI_Comm comm) {
  const std::optional<CpuJiffies> end_stat = read_proc_stat();
  const std::optional<std::uint64_t> end_pressure_us = read_cpu_pressure_total_us();
  const double end_cpu = own_cpu_seconds();
  const double end_wall = wall_seconds();
  const StartSample& s = start_sample();

  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, rank, MPI_INFO_NULL, &node);
  int node_rank = 0;
  MPI_Comm_rank(node, &node_rank);
  // The CPU time of the run's ranks on this node, on the node's first rank, and of the
  // companions run beside it on purpose (a CPU each, the whole run: start_machine_load_sample).
  const double own = s.taken ? end_cpu - s.cpu + s.companions * (end_wall - s.wall) : 0.0;
  double node_own = 0.0;
  MPI_Reduce(&own, &node_own, 1, MPI_DOUBLE, MPI_SUM, 0, node);
  MPI_Comm_free(&node);

  // Each node's first rank contributes its node's figures; the others neutral values.
  const double wall = s.taken ? end_wall - s.wall : 0.0;
  // others, steal, wall, why, cpu_wait (-1: not known)
  std::array<double, 5> largest{-1.0, -1.0, wall, kKnown, -1.0};
  std::array<double, 4> sum{0.0, 0.0, 0.0, 0.0};  // known nodes, nodes, CPUs of the known nodes, nodes with cpu_wait
  if (!s.taken) {
    largest[3] = kNoStartSample;
  } else if (node_rank == 0) {
    sum[1] = 1.0;
    if (s.pressure_us && end_pressure_us && *end_pressure_us >= *s.pressure_us && wall > 0.0) {
      largest[4] = std::clamp(1e-6 * static_cast<double>(*end_pressure_us - *s.pressure_us) / wall, 0.0, 1.0);
      sum[3] = 1.0;
    }
    if (!s.stat || !end_stat) {
      largest[3] = kNoProcStat;
    } else {
      const NodeLoad l = node_load(*s.stat, *end_stat, node_own, static_cast<double>(sysconf(_SC_CLK_TCK)));
      largest[0] = l.others;
      largest[1] = l.steal;
      if (l.known) {
        sum[0] = 1.0;
        sum[2] = end_stat->cpus;
      } else {
        largest[3] = l.capacity > 0.0 ? kTooShort : kNoCapacity;
      }
    }
  }
  MPI_Allreduce(MPI_IN_PLACE, largest.data(), static_cast<int>(largest.size()), MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(MPI_IN_PLACE, sum.data(), static_cast<int>(sum.size()), MPI_DOUBLE, MPI_SUM, comm);

  MachineLoad load;
  const auto nodes = static_cast<long long>(sum[1]), known = static_cast<long long>(sum[0]);
  // cpu_wait only when every node keeps pressure information: else a busy node could hide.
  const bool wait_known = nodes > 0 && static_cast<long long>(sum[3]) == nodes;
  if (wait_known) load.cpu_wait = largest[4];
  const std::string wait_detail =
      wait_known ? "; cpu_wait = the share of the run's time some task waited for a CPU (/proc/pressure/cpu)"
                 : "; cpu_wait not known (no /proc/pressure/cpu reading at start and end on every node)";
  char seconds[32];
  std::snprintf(seconds, sizeof seconds, "%.3g s", largest[2]);
  const std::string over = std::string(seconds) + " on " + std::to_string(nodes) + (nodes == 1 ? " node" : " nodes");
  if (known > 0 && known == nodes) {
    load.others = largest[0];
    load.steal = largest[1];
    load.state = load_state(load.others, load.steal, load.cpu_wait);
    load.detail = "/proc/stat over " + over + " (" + std::to_string(static_cast<long long>(sum[2])) +
                  " CPUs): others = CPU time of processes other than this run's / the CPUs' time, steal = "
                  "steal / the CPUs' time" + wait_detail + "; the largest over the nodes" + companions_note(s);
    return load;
  }
  // Too short for jiffies (or none): the pressure, which needs no tick, can still say busy.
  load.state = wait_known && load.cpu_wait > kBusyCpuWait ? "busy" : "unknown";
  switch (static_cast<int>(largest[3])) {
    case kNoStartSample: load.detail = "not measured: no sample at the run's start" + wait_detail; break;
    case kNoProcStat: load.detail = "not measured: no readable /proc/stat" + wait_detail; break;
    case kNoCapacity: load.detail = "not measured: no CPU time passed between the samples" + wait_detail; break;
    default:
      load.detail = "the run was too short for /proc/stat to tell (" + over + ", fewer than " +
                    std::to_string(static_cast<int>(kMinJiffiesPerCpu)) + " jiffies per CPU)" + wait_detail;
      // The figures, for what they are worth, where nothing is concluded from them; a run busy by
      // cpu_wait alone leaves them out (its line must not quote figures too short to trust).
      if (largest[0] >= 0.0 && !load.busy()) {
        load.others = largest[0];
        load.steal = largest[1];
      }
  }
  load.detail += companions_note(s);
  return load;
}

void mark_if_busy(Comparison& comparison, const MachineLoad& load) {
  if (load.busy()) comparison.mark_unreliable(load.busy_line());
}

}  // namespace instrument
