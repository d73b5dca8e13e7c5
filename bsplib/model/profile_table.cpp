// The profile reader. Ranges of the fields (checked per row, named in the error):
//   superstep    integer [0, 2147483647]        the library counts supersteps in an int
//   pid          integer [0, P-1]               P from the format line, else [0, 2147483646]
//   nprocs (P)   integer [1, 2147483647]        of the format line; an MPI job's size is an int
//   t_begin, t_enter, t_exit, compute_s, comm_sync_s
//                real [0, 1e7] s                seconds since bsp_begin: a run of up to 115 days
//   bytes_out, bytes_in, msgs_out, msgs_in, gets_out, pushes, pops
//                integer [0, 2^53]              counts, exact in the double they are kept in
//   label        at most 1024 bytes, no control characters
#include "bsplib/model/profile_table.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>

#include "bsplib/model/strict_number.hpp"
#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/text_split.hpp"

namespace bspmodel {

namespace {

constexpr const char* kHeader =
    "superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,"
    "msgs_out,msgs_in,gets_out,pushes,pops";
constexpr const char* kFormat = "bsplib-profile-3";
// Format 2 had no pushes and pops columns: read, with the registrations unknown.
constexpr const char* kHeaderBeforeRegistrations =
    "superstep,pid,label,t_begin,t_enter,t_exit,compute_s,comm_sync_s,bytes_out,bytes_in,"
    "msgs_out,msgs_in,gets_out";
constexpr const char* kFormatBeforeRegistrations = "bsplib-profile-2";
// Format 1 had no gets_out column; its get supersteps cannot be told from puts.
constexpr const char* kFormatBeforeGets = "bsplib-profile-1";
constexpr double kMaxSeconds = 1e7;
constexpr double kMaxCount = 9007199254740992.0;  // 2^53
constexpr std::int64_t kMaxIndex = 2147483647;
constexpr std::size_t kMaxLabelBytes = 1024;
// compute_s and comm_sync_s are written with 9 decimals from the same doubles as the times:
// they agree to a few ns; a microsecond apart means the row was edited or is corrupt.
constexpr double kAgreementSeconds = 1e-6;

struct Row {
  std::int64_t step = 0, pid = 0;
  int line = 0;
  std::string label;
  ProcessStep data{};
};

std::string line_place(int line) { return "line " + std::to_string(line); }

// "# format = bsplib-profile-3, nprocs = 4, times in seconds since bsp_begin": the format
// must be ours (3, or 2 without the registrations: `with_registrations` says which);
// nprocs, if given, bounds pid and says how many processes every superstep has.
std::int64_t parse_format_line(std::string_view line, const std::string& name, int lineno,
                               bool& with_registrations) {
  std::vector<std::string> parts = instrument::split(line.substr(1), ",");
  auto trim = [](std::string s) {
    s.erase(0, s.find_first_not_of(' '));
    s.erase(s.find_last_not_of(' ') + 1);
    return s;
  };
  std::string format = trim(parts[0]);
  if (format.rfind("format = ", 0) == 0) format.erase(0, 9);
  if (format == kFormatBeforeGets)
    throw instrument::InputError(name, line_place(lineno),
                                 std::string("format ") + kFormatBeforeGets +
                                     " has no gets_out column, which the model needs: profile "
                                     "the run again (this library writes " + kFormat + ")");
  with_registrations = format == kFormat;
  if (format != kFormat && format != kFormatBeforeRegistrations)
    throw instrument::InputError(name, line_place(lineno),
                                 std::string("expected '# format = ") + kFormat + "' (or " +
                                     kFormatBeforeRegistrations + "), got format " +
                                     instrument::quote_token(format));
  for (std::size_t i = 1; i < parts.size(); ++i) {
    const std::string part = trim(parts[i]);
    if (part.rfind("nprocs = ", 0) == 0)
      return integer_in_range(std::string_view(part).substr(9), 1, kMaxIndex,
                              {name, line_place(lineno), "nprocs", "processes"});
  }
  return 0;
}

// "# core_round_trip_seconds = 1.35e-07 1.4e-07": the run's placement (bsp_round_trip.hpp).
constexpr std::string_view kRoundTripLine = "# core_round_trip_seconds =";
constexpr std::size_t kMaxRoundTrips = 8;
std::vector<double> parse_round_trips(std::string_view line, const std::string& name, int lineno) {
  std::vector<double> out;
  const std::string text(line.substr(kRoundTripLine.size()));
  for (std::size_t at = text.find_first_not_of(' '); at != std::string::npos;
       at = text.find_first_not_of(' ', at)) {
    const std::size_t end = std::min(text.find(' ', at), text.size());
    if (out.size() == kMaxRoundTrips)
      throw instrument::InputError(name, line_place(lineno),
                                   "core_round_trip_seconds must hold 1 to 8 numbers");
    out.push_back(real_in_range(std::string_view(text).substr(at, end - at), 0, 1,
                                {name, line_place(lineno), "core_round_trip_seconds", "s"}));
    at = end;
  }
  if (out.empty())
    throw instrument::InputError(name, line_place(lineno),
                                 "core_round_trip_seconds must hold 1 to 8 numbers");
  return out;
}

Row parse_row(std::string_view line, const std::string& name, int lineno, std::int64_t nprocs,
              bool with_registrations) {
  const std::vector<std::string> f = instrument::split(line, ",");
  const std::string place = line_place(lineno);
  const std::size_t after_label = with_registrations ? 12 : 10;
  if (f.size() < after_label + 3)
    throw instrument::InputError(
        name, place,
        "expected " + std::to_string(after_label + 3) + " comma-separated fields (" +
            std::string(with_registrations ? kHeader : kHeaderBeforeRegistrations) + "), got " +
            std::to_string(f.size()));
  Row r;
  r.line = lineno;
  r.step = integer_in_range(f[0], 0, kMaxIndex, {name, place, "superstep", ""});
  r.pid = integer_in_range(f[1], 0, nprocs > 0 ? nprocs - 1 : kMaxIndex - 1,
                           {name, place, "pid", nprocs > 0 ? "(nprocs = " + std::to_string(nprocs) + ")" : ""});
  // The label is what lies between the second field and the last ten (twelve): it may hold
  // commas.
  const std::size_t last = f.size() - after_label;
  for (std::size_t i = 2; i < last; ++i) r.label += (i > 2 ? "," : "") + f[i];
  if (r.label.size() > kMaxLabelBytes ||
      std::any_of(r.label.begin(), r.label.end(),
                  [](char c) { return static_cast<unsigned char>(c) < 0x20 || c == 0x7f; }))
    throw instrument::InputError(name, place,
                                 "label must be at most 1024 bytes without control characters; "
                                 "got " + instrument::quote_token(r.label));
  auto seconds = [&](std::size_t i, const char* field) {
    return real_in_range(f[last + i], 0, kMaxSeconds, {name, place, field, "s"});
  };
  auto count = [&](std::size_t i, const char* field, const char* unit) {
    return static_cast<double>(integer_in_range(f[last + i], 0,
                                                static_cast<std::int64_t>(kMaxCount),
                                                {name, place, field, unit}));
  };
  ProcessStep& d = r.data;
  d.t_begin = seconds(0, "t_begin");
  d.t_enter = seconds(1, "t_enter");
  d.t_exit = seconds(2, "t_exit");
  const double compute = seconds(3, "compute_s"), comm_sync = seconds(4, "comm_sync_s");
  d.bytes_out = count(5, "bytes_out", "bytes");
  d.bytes_in = count(6, "bytes_in", "bytes");
  d.msgs_out = count(7, "msgs_out", "messages");
  d.msgs_in = count(8, "msgs_in", "messages");
  d.gets_out = count(9, "gets_out", "gets");
  if (with_registrations) {
    d.pushes = count(10, "pushes", "registrations");
    d.pops = count(11, "pops", "registrations");
  }
  if (!(d.t_begin <= d.t_enter && d.t_enter <= d.t_exit))
    throw instrument::InputError(
        name, place,
        "expected t_begin <= t_enter <= t_exit; got " + f[last] + ", " + f[last + 1] + ", " +
            f[last + 2]);
  if (std::fabs(compute - (d.t_enter - d.t_begin)) > kAgreementSeconds ||
      std::fabs(comm_sync - (d.t_exit - d.t_enter)) > kAgreementSeconds)
    throw instrument::InputError(name, place,
                                 "compute_s and comm_sync_s must be t_enter - t_begin and "
                                 "t_exit - t_enter (within 1 us); got " + f[last + 3] + " and " +
                                     f[last + 4]);
  return r;
}

// Every superstep 0..S-1 has exactly one row of every process 0..P-1. Checked on the sorted
// rows, so a bogus superstep or pid (2147483647) never sizes an allocation.
void require_complete(std::vector<Row>& rows, std::int64_t nprocs, const std::string& name) {
  std::stable_sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
    return a.step != b.step ? a.step < b.step : a.pid < b.pid;
  });
  const std::int64_t nsteps = rows.back().step + 1;
  auto missing = [&](std::int64_t k) {
    return instrument::InputError(
        name, "superstep " + std::to_string(k / nprocs),
        "no row for process " + std::to_string(k % nprocs) +
            " (every superstep 0.." + std::to_string(nsteps - 1) +
            " needs one row for each process 0.." + std::to_string(nprocs - 1) + ")");
  };
  std::int64_t k = 0;  // the (superstep, pid) expected next, as step * nprocs + pid
  for (std::size_t i = 0; i < rows.size(); ++i, ++k) {
    const Row& r = rows[i];
    const std::int64_t have = r.step * nprocs + r.pid;
    if (have < k)
      throw instrument::InputError(
          name, line_place(r.line),
          "a second row for superstep " + std::to_string(r.step) + ", process " +
              std::to_string(r.pid) + " (the first is on line " +
              std::to_string(rows[i - 1].line) + ")");
    if (have > k) throw missing(k);
  }
  if (k < nsteps * nprocs) throw missing(k);
}

}  // namespace

namespace {
// Per superstep: w the largest local computation, h the largest bytes in or out of one
// process the most gets asked, comm+sync the shortest time in bsp_sync (the last process to enter it).
void summarise(Profile& prof) {
  for (SuperstepSummary& s : prof.steps) {
    s.comm_sync = s.per_process[0].t_exit - s.per_process[0].t_enter;
    for (const ProcessStep& ps : s.per_process) {
      s.w_max = std::max(s.w_max, ps.t_enter - ps.t_begin);
      s.h_bytes = std::max({s.h_bytes, ps.bytes_out, ps.bytes_in});
      s.gets_max = std::max(s.gets_max, ps.gets_out);
      s.pushes = std::max(s.pushes, ps.pushes);
      s.pops = std::max(s.pops, ps.pops);
      s.total_bytes += ps.bytes_out;
      s.comm_sync = std::min(s.comm_sync, ps.t_exit - ps.t_enter);
    }
  }
}
}  // namespace

Profile parse_profile(std::string_view text, const std::string& name) {
  std::vector<Row> rows;
  std::vector<double> round_trips;
  std::int64_t nprocs = 0;  // from the format line; 0: not given
  // Format 2 unless the format line or the header says 3: a profile with neither is read as
  // format 2, as it was before format 3 existed (the profiler writes both lines; a format-3
  // row without them is misread, and the checks of its times refuse it).
  bool with_registrations = false;
  int format_line = 0;
  int lineno = 0;
  for (std::string_view rest = text; !rest.empty();) {
    const std::size_t nl = rest.find('\n');
    std::string_view line = rest.substr(0, nl);
    rest = nl == std::string_view::npos ? std::string_view() : rest.substr(nl + 1);
    ++lineno;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty()) continue;
    if (line.rfind("# format", 0) == 0) {
      if (format_line)
        throw instrument::InputError(name, line_place(lineno),
                                     "a second format line (the first is line " +
                                         std::to_string(format_line) + ")");
      if (!rows.empty())
        throw instrument::InputError(name, line_place(lineno),
                                     "the format line must come before the rows");
      format_line = lineno;
      nprocs = parse_format_line(line, name, lineno, with_registrations);
      continue;
    }
    if (line.rfind(kRoundTripLine, 0) == 0) {
      round_trips = parse_round_trips(line, name, lineno);
      continue;
    }
    if (line[0] == '#') continue;
    if (line.rfind("superstep,", 0) == 0) {
      if (!format_line) with_registrations = line == kHeader;
      const char* header = with_registrations ? kHeader : kHeaderBeforeRegistrations;
      if (line != header)
        throw instrument::InputError(name, line_place(lineno),
                                     std::string("expected the header '") + header + "'");
      continue;
    }
    rows.push_back(parse_row(line, name, lineno, nprocs, with_registrations));
  }
  if (rows.empty())
    throw instrument::InputError(name, "",
                                 "no supersteps: expected one row per superstep and process "
                                 "(a profile written by bsplib with BSP_PROFILE=<file>)");
  if (nprocs == 0)
    for (const Row& r : rows) nprocs = std::max(nprocs, r.pid + 1);
  require_complete(rows, nprocs, name);

  Profile prof;
  prof.file = name;
  prof.nprocs = static_cast<int>(nprocs);
  prof.core_round_trip_seconds = round_trips;
  prof.registrations_known = with_registrations;
  prof.steps.resize(rows.size() / static_cast<std::size_t>(nprocs));
  for (const Row& r : rows) {
    SuperstepSummary& s = prof.steps[static_cast<std::size_t>(r.step)];
    s.index = static_cast<int>(r.step);
    if (r.pid == 0) s.label = r.label;  // the profiler writes process 0's label on every row
    s.per_process.push_back(r.data);    // rows are sorted by pid
  }
  summarise(prof);
  return prof;
}

Profile profile_from_section(const bsplib::SectionProfile& section, const std::string& name) {
  if (section.nprocs < 1 || section.supersteps() == 0 ||
      section.steps.size() != section.supersteps() * static_cast<std::size_t>(section.nprocs))
    throw instrument::InputError(name, "",
                                 "no superstep profile in memory: call "
                                 "bsplib::profile_in_memory() before bsp_begin, and read the "
                                 "profile on process 0 after bsp_end");
  Profile prof;
  prof.file = name;
  prof.nprocs = section.nprocs;
  prof.core_round_trip_seconds = section.core_round_trip_seconds;
  prof.registrations_known = true;
  prof.steps.resize(section.supersteps());
  for (std::size_t k = 0; k < section.supersteps(); ++k) {
    SuperstepSummary& s = prof.steps[k];
    s.index = static_cast<int>(k);
    s.label = section.labels[k];
    for (int q = 0; q < section.nprocs; ++q) s.per_process.push_back(section.at(k, q));
  }
  summarise(prof);
  return prof;
}

Profile read_profile(const std::string& path) {
  return parse_profile(instrument::read_input_file(path, "BSP profile"), path);
}

}  // namespace bspmodel
