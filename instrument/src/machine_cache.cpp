// The per-user machine-file cache. See machine_cache.hpp.
#include "instrument/machine_cache.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <stdexcept>
#include <vector>

#include "instrument/clock.hpp"
#include "instrument/error.hpp"
#include "instrument/loggp.hpp"
#include "instrument/loggp_cold.hpp"
#include "instrument/loggps.hpp"
#include "instrument/loggps_short_probe.hpp"
#include "instrument/machine_file.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/probe_fit.hpp"
#include "instrument/run_results.hpp"
#include "line_pairs.hpp"

namespace instrument::machine_cache {

namespace {

constexpr const char* kSuiteDirectory = "hpc-perfmodel-suite";

std::string absolute_env(const char* name) {
  const char* v = std::getenv(name);
  return v && v[0] == '/' ? std::string(v) : std::string();
}

// The directories of `path` created where missing, each 0700; an existing one must be a
// directory (lstat: a symbolic link to one is refused for the last, the cache itself).
void make_directories(const std::string& path) {
  for (std::size_t slash = path.find('/', 1);; slash = path.find('/', slash + 1)) {
    const std::string part = slash == std::string::npos ? path : path.substr(0, slash);
    if (::mkdir(part.c_str(), 0700) != 0 && errno != EEXIST)
      throw InputError(part, "", std::string("cannot create the machine-file cache directory: ") + std::strerror(errno));
    if (slash == std::string::npos) break;
  }
  struct stat st {};
  if (::lstat(path.c_str(), &st) != 0 || !S_ISDIR(st.st_mode))
    throw InputError(path, "", "expected a directory for the machine-file cache (not a symbolic link or a file)");
}

// A private directory for a machine file that cannot be cached, removed at exit.
std::string g_temporary_file, g_temporary_dir;
void remove_temporary() {
  if (!g_temporary_file.empty()) std::remove(g_temporary_file.c_str());
  if (!g_temporary_dir.empty()) ::rmdir(g_temporary_dir.c_str());
}
std::string temporary_path(const std::string& name) {
  std::string dir = absolute_env("TMPDIR");
  if (dir.empty()) dir = "/tmp";
  std::vector<char> pattern(dir.begin(), dir.end());
  const std::string tail = "/hpc-perfmodel-suite.XXXXXX";
  pattern.insert(pattern.end(), tail.begin(), tail.end());
  pattern.push_back('\0');
  if (!::mkdtemp(pattern.data()))
    throw InputError(dir, "", std::string("cannot create a temporary directory for the machine file: ") + std::strerror(errno));
  g_temporary_dir = pattern.data();
  g_temporary_file = g_temporary_dir + "/" + name;
  static bool registered = false;
  if (!registered) std::atexit(remove_temporary);
  registered = true;
  return g_temporary_file;
}

std::string seconds_text(double s) {
  char b[32];
  std::snprintf(b, sizeof b, "%.1f s", s);
  return b;
}

// Rank 0's text to every rank of comm.
std::string broadcast(std::string text, MPI_Comm comm) {
  unsigned long long n = text.size();
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, comm);
  text.resize(static_cast<std::size_t>(n));
  if (n > 0) MPI_Bcast(text.data(), static_cast<int>(n), MPI_CHAR, 0, comm);
  return text;
}

}  // namespace

double short_probe_time_limit() {
  constexpr double kDefaultSeconds = 40.0;
  const char* text = std::getenv("SUITE_PROBE_TIME_LIMIT");
  if (!text || !*text) return kDefaultSeconds;
  char* end = nullptr;
  const double s = std::strtod(text, &end);
  if (*end != '\0' || !(s > 0.0) || !std::isfinite(s))
    throw InputError("environment", "SUITE_PROBE_TIME_LIMIT",
                     std::string("expected a number of seconds above 0, got '") + text + "'");
  return s;
}

std::string time_limit_text(double limit) {
  char b[96];
  std::snprintf(b, sizeof b, "the time limit, %g s (SUITE_PROBE_TIME_LIMIT; a loaded host?)", limit);
  return b;
}

std::string directory() {
  const std::string xdg = absolute_env("XDG_CACHE_HOME");
  if (!xdg.empty()) return xdg + "/" + kSuiteDirectory;
  const std::string home = absolute_env("HOME");
  if (!home.empty()) return home + "/.cache/" + kSuiteDirectory;
  return "";
}

std::string safe_token(std::string_view text, std::size_t max_length) {
  std::string t;
  for (char c : text) {
    const bool safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
                      c == '_' || c == '+';
    if (safe) t += c;
    else if (!t.empty() && t.back() != '-') t += '-';
  }
  if (t.size() > max_length) t.resize(max_length);
  while (!t.empty() && t.back() == '-') t.pop_back();
  return t.empty() ? "unknown" : t;
}

std::string file_name(const std::string& kind, int p) {
  const RunInfo info = make_run_info("machine cache", MPI_COMM_SELF);
  std::string name = kind;
  if (p > 0) name += "-p" + std::to_string(p);
  return name + "-" + safe_token(info.host, 64) + "-" + safe_token(info.mpi_library, 48) + ".machine";
}

std::string path_for_writing(const std::string& kind, int p) {
  const std::string dir = directory();
  if (dir.empty()) return "";
  make_directories(dir);
  return dir + "/" + file_name(kind, p);
}

std::string machine_for_this_host(const std::string& program, const Probe& probe, MPI_Comm comm, std::ostream& out) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // Below min_ranks the models have no messages to model: none are shown, whether or not the
  // cache holds a file, so that such a run prints the same on every account (and nothing
  // about machines: a one-rank run of the apps never had models).
  if (size < probe.min_ranks) return "";
  // The probe's time limit, read by rank 0 for every rank (an environment that differs
  // between ranks must not have one probe while another refuses). A value that is not one is
  // bad input: every rank stops with rank 0's line, whether or not a probe would run.
  double limit = 0.0;
  std::string limit_error;
  if (rank == 0) {
    try {
      limit = short_probe_time_limit();
    } catch (const std::exception& e) {
      limit_error = e.what();
    }
  }
  throw_if_any_rank_failed(comm, limit_error);
  MPI_Bcast(&limit, 1, MPI_DOUBLE, 0, comm);
  // Rank 0 decides: the cached path, or "" with `damaged` saying why it is not used (a damaged
  // file, a link, or one the models should not use).
  const std::string dir = directory();
  // An outdated file (usable, but without figures today's probe measures) is measured again
  // where a probe can run, and used as it is where none can.
  std::string name, cached, damaged, outdated, outdated_path;
  if (rank == 0) {
    name = file_name(probe.kind, probe.p);
    if (!dir.empty()) {
      const std::string path = dir + "/" + name;
      struct stat st {};
      if (::lstat(path.c_str(), &st) == 0) {
        try {
          if (S_ISLNK(st.st_mode)) throw std::runtime_error("a symbolic link");
          outdated = probe.check(path);
          (outdated.empty() ? cached : outdated_path) = path;
        } catch (const std::exception& e) {
          damaged = e.what();  // "PATH:line N: ..." as every reader says it: the line names PATH already
          if (damaged.rfind(path + ":", 0) == 0) damaged.erase(0, path.size() + 1);
          std::remove(path.c_str());  // the link itself, never its target
        }
      }
    }
  }
  cached = broadcast(cached, comm);
  if (!cached.empty()) return cached;
  outdated_path = broadcast(outdated_path, comm);

  std::string opening;
  if (rank == 0) {
    if (!outdated.empty()) opening = "machine: the cached machine file " + outdated_path + " is " + outdated;
    else if (!damaged.empty())
      opening = "machine: ignoring the unusable cached machine file " + dir + "/" + name + " (" + damaged + ")";
    else
      opening = "machine: no machine file for " + safe_token(make_run_info(program, MPI_COMM_SELF).host, 64) + " in " +
                (dir.empty() ? "a cache (HOME and XDG_CACHE_HOME unset)" : dir);
  }
  // More ranks on a node than the CPUs they may run on: they take turns on them, and a probe
  // would time the scheduler's slices, not the network (a barrier among busy-polling ranks
  // that share a core takes milliseconds, and the probe many seconds). No probe then; a cached
  // file (above) is still used. The CPUs are the union of the node's ranks' affinity masks
  // (usable_cpus_on_node), not the host's online ones: a job confined to 2 of a host's 64
  // would otherwise probe at 4 ranks.
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int on_node = 1;
  MPI_Comm_size(node, &on_node);
  const int usable = usable_cpus_on_node(node);
  MPI_Comm_free(&node);
  int oversubscribed = usable > 0 && on_node > usable ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &oversubscribed, 1, MPI_INT, MPI_MAX, comm);
  if (oversubscribed) {
    if (rank == 0) {
      out << opening << "; " << on_node << " ranks share " << usable
          << " CPUs of this node, so a probe would time the scheduler, not the network: ";
      if (outdated_path.empty())
        out << "models not shown (run at most " << usable << " ranks a node, or give --machine FILE)" << std::endl;
      else
        out << "used as it is" << std::endl;
    }
    return outdated_path;
  }
  // Where the short probe writes (rank 0): the cache, else a temporary for this run.
  std::string path, not_saved;
  if (rank == 0) {
    try {
      path = path_for_writing(probe.kind, probe.p);
      if (path.empty()) not_saved = "no cache directory: HOME and XDG_CACHE_HOME unset";
    } catch (const std::exception& e) {
      not_saved = e.what();
    }
    if (path.empty()) {
      try {
        path = temporary_path(name);
      } catch (const std::exception& e) {
        not_saved = e.what();
      }
    }
  }
  path = broadcast(path, comm);
  if (path.empty()) {
    if (rank == 0) out << opening << "; no place to write a short probe's file (" << not_saved << "): models not shown" << std::endl;
    return "";
  }
  const double t0 = now_seconds();
  std::string failed;
  try {
    probe.measure(path, limit);
  } catch (const std::exception& e) {
    failed = e.what();
  }
  failed = broadcast(failed, comm);
  if (rank == 0) {
    out << opening;
    if (!failed.empty()) {
      // Nothing written: an outdated file (usable, as where no probe can run) is still there.
      out << "; the short probe failed (" << failed << "): ";
      if (outdated_path.empty())
        out << "models not shown (" << probe.full_probe << " measures in full; or give --machine FILE)" << std::endl;
      else
        out << "the cached file used as it is" << std::endl;
    } else {
      out << (damaged.empty() && outdated.empty() ? "; measured " : "; measured again ") << probe.parameters << " in "
          << seconds_text(now_seconds() - t0) << " with a short probe (" << probe.full_probe << " measures in full) and ";
      if (not_saved.empty()) out << "saved it as " << path;
      else out << "used it for this run only (" << not_saved << ")";
      // A file that would be measured again (the probe ran out of time on a loaded host) says so.
      std::string incomplete;
      try {
        incomplete = probe.check(path);
      } catch (const std::exception& e) {
        incomplete = e.what();
      }
      if (!incomplete.empty()) out << "; it is " << incomplete << ", so the next run measures again";
      out << std::endl;
    }
  }
  return failed.empty() ? path : outdated_path;
}

Probe loggps_probe(const std::string& program, MPI_Comm comm) {
  Probe p;
  p.kind = "loggps";
  p.min_ranks = 2;
  p.parameters = "L, o, g, G, S and the messages after a working set";
  p.full_probe = "loggps-probe";
  p.check = [](const std::string& path) {
    const MachineFile f = MachineFile::read(path);
    f.require_finite_parameters();
    (void)loggps::read_params(f);
    (void)loggp::read_params(f);
    if (const std::string misfit = probe::round_trip_fit_problem(f); !misfit.empty()) throw std::runtime_error(misfit);
    (void)loggp::read_cold(f);  // sweep3d reads both sets: a damaged one is measured again
    (void)loggp::read_after_stream(f);
    // A file of an earlier probe, without the messages after a working set, is outdated: the
    // models would price a message after a kernel block at the ping-pong's warm cost
    // (sweep3d's comm + sync -33% on the Zen 4 guest, loggps_short_probe.cpp). A probe that
    // tried and could not (a loaded host) says so in probe.cold_omitted, and is current.
    // One whose probe ran out of time before them (a loaded host) is measured again too.
    if (const auto unfinished = f.get_string("probe.cold_unfinished"))
      return "incomplete: " + *unfinished;
    if (!f.has("loggp.cold.points") && !f.has("probe.cold_omitted"))
      return std::string("from an earlier probe, without the costs of messages after a working set (loggp.cold.*)");
    // So is one whose cold points were measured with the working sets interleaved: each point
    // after the larger ones' streams, ~1.15x above what an application streaming its own block
    // size pays past the L2 (probe_cold.cpp).
    if (f.has("loggp.cold.points") && f.get_string("loggp.cold.order").value_or("") != loggp::kColdOrder)
      return std::string("from an earlier probe, whose messages after a working set were measured with the "
                         "working sets interleaved (loggp.cold.order)");
    // So is one whose after-stream reductions were a pair of double sums, not the sweep's
    // pair (loggp_cold.hpp): ~1.4x below what sweep3d's reductions cost.
    if (f.has("loggp.after_stream.points") &&
        f.get_string("loggp.after_stream.operations").value_or("") != loggp::kAfterStreamOperations)
      return std::string("from an earlier probe, whose reductions after a stream were not the sweep's pair "
                         "(loggp.after_stream.operations)");
    return std::string();
  };
  p.measure = [program, comm](const std::string& path, double time_limit) {
    probe::measure_loggps_short(path, program, comm, time_limit);
  };
  return p;
}

}  // namespace instrument::machine_cache
