#include "instrument/run_results.hpp"

#include <omp.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <numeric>
#include <stdexcept>

#include "instrument/cpu_pinning.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/rank_gather.hpp"
#include "instrument/statistics.hpp"
#include "suite_version.hpp"
#include "time_base.hpp"


namespace instrument {

RankStats rank_stats(const std::vector<double>& v) { return summarise(v); }

RunInfo make_run_info(const std::string& app, MPI_Comm comm) {
  RunInfo info;
  info.app = app;
  info.version = suite_version();
  info.git_describe = suite_git_describe();
  char buf[64];
  const std::time_t t = std::time(nullptr);
  std::tm tm{};
  gmtime_r(&t, &tm);
  std::strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%SZ", &tm);
  info.date = buf;
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  info.host = host;
  char lib[MPI_MAX_LIBRARY_VERSION_STRING] = {};
  int len = 0;
  MPI_Get_library_version(lib, &len);
  info.mpi_library = std::string(lib, static_cast<std::size_t>(len));
  while (!info.mpi_library.empty() && (info.mpi_library.back() == '\n' || info.mpi_library.back() == ' '))
    info.mpi_library.pop_back();
  if (const auto nl = info.mpi_library.find('\n'); nl != std::string::npos) info.mpi_library.resize(nl);
  MPI_Comm_size(comm, &info.nranks);
  info.threads = omp_get_max_threads();
  info.pinned_cpu = pinned_cpu();
  return info;
}

const GatheredPhase* RunResults::find_phase(const std::string& name) const {
  for (const auto& p : phases)
    if (p.name == name) return &p;
  return nullptr;
}

const std::string& GatheredTrace::phase_name(const TraceEvent& e) const {
  if (e.kind < 0 || static_cast<std::size_t>(e.kind) >= kinds.size())
    throw std::out_of_range("trace: event kind " + std::to_string(e.kind) + " is not one of the " +
                            std::to_string(kinds.size()) + " kinds");
  return kinds[static_cast<std::size_t>(e.kind)];
}

std::int32_t GatheredTrace::kind_of(std::string_view phase) const {
  const auto it = std::find(kinds.begin(), kinds.end(), phase);
  return it == kinds.end() ? -1 : static_cast<std::int32_t>(it - kinds.begin());
}

const GatheredCounter* RunResults::find_counter(const std::string& name) const {
  for (const auto& c : counters)
    if (c.name == name) return &c;
  return nullptr;
}

namespace {

// Names travel as one '\0'-separated buffer per rank.
std::string join(const std::vector<std::string>& names) {
  std::string s;
  for (const auto& n : names) {
    s += n;
    s.push_back('\0');
  }
  return s;
}

std::vector<std::string> split(const char* p, int len) {
  std::vector<std::string> out;
  int start = 0;
  for (int i = 0; i < len; ++i)
    if (p[i] == '\0') {
      out.emplace_back(p + start, static_cast<std::size_t>(i - start));
      start = i + 1;
    }
  return out;
}

// Gathers variable-length byte buffers to root; returns one buffer per rank there
// (rank_gather.hpp: a total past MPI's int counts is refused on every rank, not wrapped).
std::vector<std::string> gather_bytes(const std::string& mine, MPI_Comm comm, int root) {
  return gather_strings_to_root(comm, mine, root, "the run's phase times, counters and trace");
}

template <class T>
std::string as_bytes(const std::vector<T>& v) {
  return std::string(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
}

template <class T>
std::vector<T> from_bytes(const std::string& s) {
  std::vector<T> v(s.size() / sizeof(T));
  if (!v.empty()) std::memcpy(v.data(), s.data(), v.size() * sizeof(T));
  return v;
}

std::size_t index_of(std::vector<std::string>& names, const std::string& n) {
  const auto it = std::find(names.begin(), names.end(), n);
  if (it != names.end()) return static_cast<std::size_t>(it - names.begin());
  names.push_back(n);
  return names.size() - 1;
}

}  // namespace

namespace {
// Every rank learns whether any rank's phases were mis-nested, and throws if so.
void refuse_mis_nested(const Recorder& rec, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string mine = rec.nesting_error();
  if (mine.empty() && rec.open_depth() != 0)
    mine = "phase " + rec.open_phase() + " still open at gather_results";
  if (!mine.empty()) mine = "rank " + std::to_string(rank) + ": " + mine;
  try {
    throw_if_any_rank_failed(comm, mine);
  } catch (const CollectiveError& e) {
    throw std::logic_error(std::string("gather_results: phases mis-nested, no results: ") +
                           e.what());
  }
}
}  // namespace

RunResults gather_results(const Recorder& rec, const RunInfo& info, MPI_Comm comm, int root) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  // First: the end of the interval whose load is measured is the end of the run's work.
  const MachineLoad load = measure_machine_load(comm);
  const CoreRoundTrips round_trips = end_core_round_trip_sample(comm);
  refuse_mis_nested(rec, comm);

  // Ticks -> seconds with this rank's rate over the whole run; trace times relative to this
  // rank's recorder start, which travels as steady_clock seconds.
  detail::RankClock clock;
  double origin = 0.0;
#if INSTRUMENT_ENABLED
  const ClockConversion conv = final_conversion();
  clock = detail::rank_clock(conv);
  origin = conv.steady_seconds(rec.origin());
  const auto seconds = [&](Ticks t) { return conv.seconds(t); };
#else
  const auto seconds = [](Ticks) { return 0.0; };
#endif
  std::vector<double> incl, excl;
  std::vector<std::int64_t> calls;
  for (const auto& p : rec.phase_ticks()) {
    incl.push_back(seconds(p.inclusive) + p.added_seconds);
    excl.push_back(seconds(p.exclusive) + p.added_seconds);
    calls.push_back(p.calls);
  }
  std::vector<TraceEvent> my_events;
  my_events.reserve(rec.trace_events().size());
  for (const auto& e : rec.trace_events())
    my_events.push_back(TraceEvent{seconds(e.t_begin - rec.origin()),
                                   seconds(e.t_end - rec.origin()), e.kind, e.peer, e.bytes,
                                   e.work, e.tag, e.request});

  const auto pnames = gather_bytes(join(rec.phase_names()), comm, root);
  const auto pincl = gather_bytes(as_bytes(incl), comm, root);
  const auto pexcl = gather_bytes(as_bytes(excl), comm, root);
  const auto pcalls = gather_bytes(as_bytes(calls), comm, root);
  const auto cnames = gather_bytes(join(rec.counter_names()), comm, root);
  const auto cvals = gather_bytes(as_bytes(rec.counter_values()), comm, root);
  // Typed, so that MPI's int counts count events, not bytes: a long trace fits.
  const auto events = gather_to_root(comm, std::span<const TraceEvent>(my_events), root, "the run's trace events");
  const std::vector<std::int64_t> dropped_mine{rec.trace_dropped()};
  const auto dropped = gather_bytes(as_bytes(dropped_mine), comm, root);
  const std::vector<double> origin_mine{origin};
  const auto origins = gather_bytes(as_bytes(origin_mine), comm, root);
  const std::vector<detail::RankClock> clock_mine{clock};
  const auto clocks = gather_bytes(as_bytes(clock_mine), comm, root);
#if INSTRUMENT_ENABLED
  const detail::TimeBase base = detail::common_time_base(rec, comm, root);
#endif

  RunResults out;
  if (rank != root) return out;
  out.info = info;
  out.info.nranks = size;
  out.machine_load = load;
  out.core_round_trip = round_trips;
#if INSTRUMENT_ENABLED
  std::vector<detail::RankClock> rank_clocks;
  for (int r = 0; r < size; ++r)
    rank_clocks.push_back(from_bytes<detail::RankClock>(clocks[r]).at(0));
  out.clock = detail::summarise_clocks(rank_clocks);
  out.clock.offset = base.offset;
  out.clock.offset_uncertainty = base.uncertainty;
  out.clock.sync = base.sync;
  if (out.clock.check != "passed")
    std::fprintf(stderr, "instrument: warning: clock check %s; times use the whole-run rate\n",
                 out.clock.check.c_str());
#else
  out.clock.source = "none";
  out.clock.check = "hooks compiled out (SUITE_INSTRUMENT=OFF): no clock read";
  out.clock.sync = "hooks compiled out: no trace";
  out.clock.offset.assign(static_cast<std::size_t>(size), 0.0);
  out.clock.offset_uncertainty = out.clock.offset;
#endif

  std::vector<std::string> phase_union, counter_union;
  for (int r = 0; r < size; ++r)
    for (const auto& n : split(pnames[r].data(), static_cast<int>(pnames[r].size())))
      index_of(phase_union, n);
  for (int r = 0; r < size; ++r)
    for (const auto& n : split(cnames[r].data(), static_cast<int>(cnames[r].size())))
      index_of(counter_union, n);

  out.phases.resize(phase_union.size());
  for (std::size_t i = 0; i < phase_union.size(); ++i) {
    out.phases[i].name = phase_union[i];
    out.phases[i].inclusive.assign(size, 0.0);
    out.phases[i].exclusive.assign(size, 0.0);
    out.phases[i].calls.assign(size, 0);
  }
  out.counters.resize(counter_union.size());
  for (std::size_t i = 0; i < counter_union.size(); ++i) {
    out.counters[i].name = counter_union[i];
    out.counters[i].values.assign(size, 0);
  }
  out.trace.kinds = phase_union;
  out.trace.per_rank.resize(size);
  out.trace.dropped.assign(size, 0);
  // Every rank's start on rank 0's time base (its steady_clock less its offset); trace times
  // are then shifted to the earliest of them.
  std::vector<double> start(static_cast<std::size_t>(size));
  for (int r = 0; r < size; ++r)
    start[r] = from_bytes<double>(origins[r]).at(0) - out.clock.offset[static_cast<std::size_t>(r)];
  const double t_first = *std::min_element(start.begin(), start.end());

  for (int r = 0; r < size; ++r) {
    const auto names = split(pnames[r].data(), static_cast<int>(pnames[r].size()));
    const auto vi = from_bytes<double>(pincl[r]);
    const auto ve = from_bytes<double>(pexcl[r]);
    const auto vc = from_bytes<std::int64_t>(pcalls[r]);
    std::vector<std::int32_t> remap(names.size());
    for (std::size_t i = 0; i < names.size(); ++i) {
      const std::size_t g = index_of(phase_union, names[i]);
      remap[i] = static_cast<std::int32_t>(g);
      out.phases[g].inclusive[r] = vi[i];
      out.phases[g].exclusive[r] = ve[i];
      out.phases[g].calls[r] = vc[i];
    }
    const auto cn = split(cnames[r].data(), static_cast<int>(cnames[r].size()));
    const auto cv = from_bytes<std::int64_t>(cvals[r]);
    for (std::size_t i = 0; i < cn.size(); ++i) out.counters[index_of(counter_union, cn[i])].values[r] = cv[i];
    const auto theirs = events.of_rank(r);
    std::vector<TraceEvent> ev(theirs.begin(), theirs.end());
    const double shift = start[static_cast<std::size_t>(r)] - t_first;
    for (auto& e : ev) {
      if (e.kind >= 0 && static_cast<std::size_t>(e.kind) < remap.size()) e.kind = remap[e.kind];
      e.t_begin += shift;
      e.t_end += shift;
    }
    out.trace.per_rank[r] = std::move(ev);
    out.trace.dropped[r] = from_bytes<std::int64_t>(dropped[r]).at(0);
  }
  return out;
}

}  // namespace instrument
