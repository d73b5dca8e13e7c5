#include "instrument/memory_budget.hpp"

#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <optional>
#include <sstream>
#include <utility>

#include "instrument/error.hpp"

namespace instrument {

namespace {

constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint64_t>::max();

// The number after `key` on its line of a "key value [kB]" file (/proc/meminfo, status,
// memory.stat), in bytes when the line says kB.
std::optional<std::uint64_t> field_of(const std::string& file, const std::string& key) {
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind(key, 0) != 0) continue;
    std::istringstream ss(line.substr(key.size()));
    std::uint64_t v = 0;
    std::string unit;
    if (!(ss >> v)) return std::nullopt;
    ss >> unit;
    return unit == "kB" ? v * 1024 : v;
  }
  return std::nullopt;
}

// The first word of a one-value file; nullopt if absent or "max" (cgroup v2's no limit).
std::optional<std::uint64_t> value_of(const std::string& file) {
  std::ifstream in(file);
  std::uint64_t v = 0;
  if (in >> v) return v;
  return std::nullopt;
}

std::uint64_t less(std::uint64_t limit, std::uint64_t used) { return limit > used ? limit - used : 0; }

std::uint64_t rlimit_room(int resource, const char* status_key) {
  struct rlimit rl {};
  if (::getrlimit(resource, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY) return kUnlimited;
  return less(rl.rlim_cur, field_of("/proc/self/status", status_key).value_or(0));
}

// The memory cgroup's path from /proc/self/cgroup ("0::/a/b" for v2, "N:memory:/a/b" v1).
std::string cgroup_path(bool v2) {
  std::ifstream in("/proc/self/cgroup");
  std::string line;
  const std::string marker = v2 ? "0::" : ":memory:";
  while (std::getline(in, line)) {
    const auto at = line.find(marker);
    if (at != std::string::npos && (!v2 || at == 0)) return line.substr(at + marker.size());
  }
  return "/";
}

// Room under the cgroup's limit. Page cache is charged to the cgroup but reclaimed under
// pressure, so it does not count as used (as MemAvailable does not count it either).
std::uint64_t cgroup_room() {
  const struct {
    bool v2;
    const char* root;
    const char *limit, *usage, *cache;
  } kinds[] = {{true, "/sys/fs/cgroup", "memory.max", "memory.current", "file "},
               {false, "/sys/fs/cgroup/memory", "memory.limit_in_bytes", "memory.usage_in_bytes",
                "total_cache "}};
  for (const auto& k : kinds) {
    for (const std::string& dir : {std::string(k.root) + cgroup_path(k.v2), std::string(k.root)}) {
      const auto limit = value_of(dir + "/" + k.limit);
      if (!limit) continue;
      const std::uint64_t usage = value_of(dir + "/" + k.usage).value_or(0);
      const std::uint64_t cache = field_of(dir + "/memory.stat", k.cache).value_or(0);
      return less(*limit, less(usage, cache));
    }
  }
  return kUnlimited;
}

constexpr const char* kAvailableOverride = "SUITE_MEMORY_AVAILABLE";

// SUITE_MEMORY_AVAILABLE's bytes ("4GiB", "512MiB", "1000000"), nullopt when unset.
std::optional<std::uint64_t> available_override() {
  const char* text = std::getenv(kAvailableOverride);
  if (!text) return std::nullopt;
  const std::string v = text;
  std::size_t digits = 0;
  while (digits < v.size() && v[digits] >= '0' && v[digits] <= '9') ++digits;
  const struct {
    const char* suffix;
    int shift;
  } units[] = {{"", 0}, {"KiB", 10}, {"MiB", 20}, {"GiB", 30}, {"TiB", 40}};
  const std::string suffix = v.substr(digits);
  for (const auto& u : units)
    if (digits > 0 && digits <= 12 && suffix == u.suffix) {
      const std::uint64_t count = std::stoull(v.substr(0, digits));
      return saturating_product({count, std::uint64_t{1} << u.shift});
    }
  std::string shown;  // printable, short: the value may be anything
  for (const char c : v.substr(0, 24)) shown += c >= ' ' && c <= '~' ? c : '?';
  throw InputError(kAvailableOverride, "",
                   "expected the memory available as a whole number of bytes, at most 12 digits, optionally "
                   "followed by KiB, MiB, GiB or TiB (e.g. 4GiB), got \"" + shown + "\"");
}

}  // namespace

std::uint64_t memory_limit_bytes() {
  const std::optional<std::uint64_t> given = available_override();
  std::uint64_t room = given ? *given : field_of("/proc/meminfo", "MemAvailable:").value_or(kUnlimited);
  room = std::min(room, rlimit_room(RLIMIT_AS, "VmSize:"));
  room = std::min(room, rlimit_room(RLIMIT_DATA, "VmData:"));
  return std::min(room, cgroup_room());
}

namespace {

// The two figures of a refusal; in bytes where both round to the same figure.
std::pair<std::string, std::string> need_and_have(std::uint64_t bytes, std::uint64_t limit) {
  std::string need = format_bytes(bytes), have = format_bytes(limit);
  if (need == have) return {std::to_string(bytes) + " bytes", std::to_string(limit) + " bytes"};
  return {need, have};
}

}  // namespace

void require_memory(std::uint64_t bytes, const std::string& source, const std::string& field,
                    const std::string& what) {
  const std::uint64_t limit = memory_limit_bytes();
  if (bytes <= limit) return;
  const auto [need, have] = need_and_have(bytes, limit);
  throw InputError(source, field,
                   what + " needs " + need + ", more than the " + have + " this process can allocate");
}

int processes_on_node(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int on_node = 1;
  MPI_Comm_size(node, &on_node);
  MPI_Comm_free(&node);
  return on_node;
}

void require_node_memory(std::uint64_t per_process, int processes_on_node, const std::string& source,
                         const std::string& field, const std::string& what) {
  const std::uint64_t ranks = static_cast<std::uint64_t>(std::max(processes_on_node, 1));
  const std::uint64_t bytes = saturating_product({per_process, ranks});
  const std::uint64_t limit = memory_limit_bytes();
  if (bytes <= limit) return;
  auto [need, have] = need_and_have(bytes, limit);
  if (ranks > 1)
    need += " (" + format_bytes(per_process) + " a rank at " + std::to_string(ranks) + " ranks on this node)";
  throw InputError(source, field, what + " needs about " + need + ", more than the " + have + " available");
}

std::string format_bytes(std::uint64_t bytes) {
  static constexpr const char* kUnits[] = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  if (bytes < 1024) return std::to_string(bytes) + " B";
  int unit = 0;
  double v = static_cast<double>(bytes);
  while (v >= 1024.0 && unit < 6) {
    v /= 1024.0;
    ++unit;
  }
  const double tenths = std::round(v * 10.0);
  char buf[48];
  if (std::fmod(tenths, 10.0) == 0.0) std::snprintf(buf, sizeof buf, "%.0f %s", tenths / 10.0, kUnits[unit]);
  else std::snprintf(buf, sizeof buf, "%.1f %s", tenths / 10.0, kUnits[unit]);
  return buf;
}

std::uint64_t saturating_product(std::initializer_list<std::uint64_t> factors) {
  if (std::find(factors.begin(), factors.end(), 0) != factors.end()) return 0;
  std::uint64_t p = 1;
  for (const std::uint64_t f : factors) {
    if (p > kUnlimited / f) return kUnlimited;
    p *= f;
  }
  return p;
}

}  // namespace instrument
