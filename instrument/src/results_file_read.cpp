// Reads a results file back into a ResultsDocument, refusing files that are not ours.

#include <sched.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <set>
#include <sstream>
#include <string_view>

#include "hdf5_io.hpp"
#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/memory_budget.hpp"
#include "instrument/results_file.hpp"
#include "results_layout.hpp"
#include "results_seal.hpp"

namespace instrument {

namespace {

using h5::Handle;

// Ranks a results file may describe: the largest machines run ~10^7 ranks; 2^24 bounds them
// and keeps every rank number an int.
constexpr std::int64_t kMaxRanks = std::int64_t{1} << 24;
// OpenMP threads per rank: 2^16 is far above any node's hardware threads.
constexpr std::int64_t kMaxThreads = std::int64_t{1} << 16;
// Extras are nested groups an app names (/tycho/steps): 32 levels is far beyond any of them,
// and bounds the walk of a crafted file.
constexpr int kMaxExtrasDepth = 32;

// Where the reader is, for the error message: "<file>:<object path>: <what>".
struct Reading {
  std::string file;
  std::string where = "/";
  h5::ReadBudget* budget = nullptr;

  [[noreturn]] void fail(const std::string& what) const { throw InputError(file, where, what); }

  Handle open_group(hid_t parent, const std::string& name, const std::string& shown) {
    where = shown;
    if (h5::link_kind(parent, name, shown) == h5::LinkKind::missing)
      fail("missing group (not a complete suite results file)");
    return h5::open_group(parent, name, shown);
  }
  Handle open_dataset(hid_t parent, const std::string& name, const std::string& shown) {
    where = shown;
    if (h5::link_kind(parent, name, shown) == h5::LinkKind::missing) fail("missing dataset");
    return h5::open_dataset(parent, name, shown);
  }
  Attributes attributes(hid_t obj, const std::vector<std::string>& read_apart = {}) {
    return h5::read_attributes(obj, where, *budget, read_apart);
  }
  std::vector<double> doubles(hid_t d, int rank) { return h5::read_doubles(d, where, *budget, rank); }
  std::vector<std::int64_t> ints(hid_t d, int rank) { return h5::read_ints(d, where, *budget, rank); }
  std::vector<Column> table(hid_t d) { return h5::read_table(d, where, *budget); }
};

std::string as_text(const AttributeValue& v) {
  if (const auto* s = std::get_if<std::string>(&v)) return *s;
  std::ostringstream out;
  out.precision(17);
  std::visit([&](const auto& x) { out << x; }, v);
  return out.str();
}

std::string required_string(Reading& rd, const Attributes& attrs, const std::string& name) {
  const auto it = attrs.find(name);
  if (it == attrs.end() || !std::holds_alternative<std::string>(it->second))
    rd.fail("missing string attribute '" + name + "'");
  return std::get<std::string>(it->second);
}

int required_int(Reading& rd, const Attributes& attrs, const std::string& name, std::int64_t lo,
                 std::int64_t hi, const std::string& why) {
  const auto it = attrs.find(name);
  if (it == attrs.end() || !std::holds_alternative<std::int64_t>(it->second))
    rd.fail("missing integer attribute '" + name + "'");
  const std::int64_t v = std::get<std::int64_t>(it->second);
  if (v < lo || v > hi) {
    rd.where = "/@" + name;
    rd.fail("expected " + why + " in [" + std::to_string(lo) + ", " + std::to_string(hi) +
            "], found " + std::to_string(v));
  }
  return static_cast<int>(v);
}

void read_root(Reading& rd, hid_t file, ResultsDocument& doc, Attributes& root_extras) {
  rd.where = "/";
  Handle root(H5Gopen2(file, "/", H5P_DEFAULT), "opening /");
  const Attributes attrs = rd.attributes(root);
  RunInfo& info = doc.run.info;
  info.app = required_string(rd, attrs, "app");
  info.version = required_string(rd, attrs, "version");
  info.git_describe = required_string(rd, attrs, "git_describe");
  info.date = required_string(rd, attrs, "date");
  info.host = required_string(rd, attrs, "host");
  info.mpi_library = required_string(rd, attrs, "mpi_library");
  info.nranks = required_int(rd, attrs, "nranks", 1, kMaxRanks, "a rank count");
  info.threads = required_int(rd, attrs, "threads", 1, kMaxThreads, "an OpenMP thread count");
  // The clock attributes came later: a file written before them reads back with clock = "".
  ClockInfo& clock = doc.run.clock;
  const auto text = [&](const char* name) {
    const auto it = attrs.find(name);
    return it == attrs.end() ? std::string() : as_text(it->second);
  };
  const auto number = [&](const char* name) {
    const auto it = attrs.find(name);
    return it != attrs.end() && std::holds_alternative<double>(it->second)
               ? std::get<double>(it->second)
               : 0.0;
  };
  clock.source = text("clock");
  clock.frequency_hz = number("clock_frequency_hz");
  clock.read_ns = number("clock_read_ns");
  clock.disagreement_ppm = number("clock_start_end_disagreement_ppm");
  clock.tolerance_ppm = number("clock_tolerance_ppm");
  clock.check = text("clock_check");
  clock.sync = text("clock_sync");
  // Later still: a file without them was not pinned, and its load was not recorded ("").
  if (attrs.count("pinned_cpu")) info.pinned_cpu = required_int(rd, attrs, "pinned_cpu", 0, CPU_SETSIZE - 1, "a CPU number");
  MachineLoad& load = doc.run.machine_load;
  load.state = text("machine_load");
  if (!load.state.empty() && load.state != "busy" && load.state != "idle" && load.state != "unknown") {
    rd.where = "/@machine_load";
    rd.fail("expected busy, idle or unknown, found '" + load.state + "'");
  }
  const auto fraction = [&](const char* name) {  // NaN when unknown; else in [0, 1]
    const auto it = attrs.find(name);
    if (it == attrs.end() || !std::holds_alternative<double>(it->second)) return std::numeric_limits<double>::quiet_NaN();
    const double v = std::get<double>(it->second);
    if (!std::isnan(v) && !(v >= 0.0 && v <= 1.0)) {
      rd.where = std::string("/@") + name;
      rd.fail("expected a fraction in [0, 1] or NaN, found " + as_text(v));
    }
    return v;
  };
  load.others = fraction("machine_load_others");
  load.steal = fraction("machine_load_steal");
  load.cpu_wait = fraction("machine_load_cpu_wait");  // NaN in files written before it was kept
  load.detail = text("machine_load_detail");
  const auto round_trip = [&](const char* name) {  // seconds in (0, 1]; 0 when absent
    const auto it = attrs.find(name);
    if (it == attrs.end()) return 0.0;
    const double v = std::holds_alternative<double>(it->second) ? std::get<double>(it->second) : -1.0;
    if (!(v > 0.0 && v <= 1.0)) {
      rd.where = std::string("/@") + name;
      rd.fail("expected a round trip in (0, 1] s, found " + as_text(it->second));
    }
    return v;
  };
  doc.run.core_round_trip.start = round_trip("core_round_trip_start");
  doc.run.core_round_trip.end = round_trip("core_round_trip_end");
  for (const auto& [name, value] : attrs)
    if (!layout::is_root_attribute(name)) root_extras[name] = value;
}

void read_input(Reading& rd, hid_t file, RunInfo& info) {
  Handle g = rd.open_group(file, "/input", "/input");
  bool deck_attribute = false;
  for (const auto& [name, value] : rd.attributes(g)) {
    if (name == layout::kDeckFile) {
      info.input_file = as_text(value);
    } else if (name == layout::kDeckText) {
      info.input_text = as_text(value);
      deck_attribute = true;
    } else {
      info.inputs[name] = as_text(value);
    }
  }
  // A long deck is a dataset of one string (results_file_write.cpp).
  if (!h5::has_link(g, layout::kDeckText)) return;
  const std::string at = std::string("/input/") + layout::kDeckText;
  if (deck_attribute) {
    rd.where = at;
    rd.fail("expected the deck text once, found it both as an attribute of /input and as a dataset");
  }
  const auto text = h5::read_strings(rd.open_dataset(g, layout::kDeckText, at), at, *rd.budget);
  if (text.size() != 1) rd.fail("expected one string (the deck text), found " + std::to_string(text.size()));
  info.input_text = text[0];
}

void read_machine(Reading& rd, hid_t file, MachineRecord& machine) {
  Handle g = rd.open_group(file, "/machine", "/machine");
  for (const auto& [name, value] : rd.attributes(g)) {
    if (name == layout::kMachineSource)
      machine.source_file = as_text(value);
    else
      machine.parameters[name] = value;
  }
}

// Seconds as stored: a NaN or infinity is no measurement (and would print as one).
std::vector<double> finite(Reading& rd, std::vector<double> v) {
  for (std::size_t i = 0; i < v.size(); ++i)
    if (!std::isfinite(v[i])) rd.fail("expected finite seconds, found " + std::to_string(v[i]) +
                                      " at index " + std::to_string(i));
  return v;
}

template <class T>
std::vector<T> per_rank(Reading& rd, std::vector<T> v, std::size_t nranks) {
  if (v.size() != nranks)
    rd.fail("has " + std::to_string(v.size()) + " values, expected one per rank (" +
            std::to_string(nranks) + ")");
  return v;
}

void read_phases(Reading& rd, hid_t file, RunResults& run) {
  Handle phases = rd.open_group(file, "/phases", "/phases");
  const auto n = static_cast<std::size_t>(run.info.nranks);
  for (const auto& link : h5::list_links(phases, "/phases")) {
    const std::string at = "/phases/" + link;
    Handle g = rd.open_group(phases, link, at);
    GatheredPhase p;
    p.name = h5::unescape_link_name(link);
    p.inclusive =
        per_rank(rd, finite(rd, rd.doubles(rd.open_dataset(g, "inclusive", at + "/inclusive"), 1)), n);
    p.exclusive =
        per_rank(rd, finite(rd, rd.doubles(rd.open_dataset(g, "exclusive", at + "/exclusive"), 1)), n);
    p.calls = per_rank(rd, rd.ints(rd.open_dataset(g, "calls", at + "/calls"), 1), n);
    for (auto c : p.calls)
      if (c < 0) rd.fail("expected call counts >= 0, found " + std::to_string(c));
    run.phases.push_back(std::move(p));
  }
}

void read_counters(Reading& rd, hid_t file, RunResults& run) {
  Handle counters = rd.open_group(file, "/counters", "/counters");
  for (const auto& link : h5::list_links(counters, "/counters")) {
    GatheredCounter c;
    c.name = h5::unescape_link_name(link);
    c.values = per_rank(rd, rd.ints(rd.open_dataset(counters, link, "/counters/" + link), 1),
                        static_cast<std::size_t>(run.info.nranks));
    run.counters.push_back(std::move(c));
  }
}

void read_model(Reading& rd, hid_t file, Comparison& comparison) {
  Handle model = rd.open_group(file, "/model", "/model");
  for (const auto& m : h5::list_links(model, "/model")) {
    Handle g = rd.open_group(model, m, "/model/" + m);
    for (const auto& t : h5::list_links(g, "/model/" + m)) {
      Handle d = rd.open_dataset(g, t, "/model/" + m + "/" + t);
      const auto v = rd.doubles(d, 0);  // scalar: one value (seconds)
      const Attributes attrs = rd.attributes(d);
      const auto eq = attrs.find("equation");
      comparison.add_model_term(ModelTerm{h5::unescape_link_name(m), h5::unescape_link_name(t),
                                          v[0], eq == attrs.end() ? "" : as_text(eq->second)});
    }
  }
}

// Finds a named column of the expected kind in a table read back.
template <class T>
const std::vector<T>& column(Reading& rd, const std::vector<Column>& cols,
                             const std::string& name) {
  for (const auto& c : cols)
    if (c.name == name) {
      if (const auto* v = std::get_if<std::vector<T>>(&c.values)) return *v;
      const char* want = std::is_same_v<T, std::string> ? "strings"
                         : std::is_same_v<T, double>    ? "floats"
                                                        : "integers";
      const char* have = std::holds_alternative<std::vector<std::string>>(c.values) ? "strings"
                         : std::holds_alternative<std::vector<double>>(c.values)    ? "floats"
                                                                                    : "integers";
      rd.fail("expected column '" + name + "' of " + want + ", found " + have);
    }
  rd.fail("expected a column '" + name + "', found none (missing column '" + name + "')");
}

// A column added to the layout later: nullptr for files written before it (the caller's default).
const std::vector<std::int64_t>* optional_int_column(Reading& rd, const std::vector<Column>& cols,
                                                     const std::string& name) {
  for (const auto& c : cols)
    if (c.name == name) return &column<std::int64_t>(rd, cols, name);
  return nullptr;
}

void read_compare(Reading& rd, hid_t file, Comparison& comparison) {
  Handle d = rd.open_dataset(file, "/compare", "/compare");
  const auto cols = rd.table(d);
  // Absent in files written before it: those were not judged, and read as reliable.
  if (h5::has_attribute(d, layout::kCompareReliable)) {
    const Attributes attrs = rd.attributes(d, {"column_units"});
    const auto flag = attrs.find(layout::kCompareReliable);
    if (flag == attrs.end() || !std::holds_alternative<std::int64_t>(flag->second) ||
        (std::get<std::int64_t>(flag->second) != 0 && std::get<std::int64_t>(flag->second) != 1)) {
      rd.where = std::string("/compare@") + layout::kCompareReliable;
      rd.fail("expected the integer 0 or 1, found " + (flag == attrs.end() ? std::string("another type") : as_text(flag->second)));
    }
    if (std::get<std::int64_t>(flag->second) == 0) {
      const auto it = attrs.find(layout::kCompareUnreliableBecause);
      comparison.mark_unreliable(it == attrs.end() ? std::string("unreliable (no reason recorded)") : as_text(it->second));
    }
  }
  const auto& model = column<std::string>(rd, cols, "model");
  const auto& term = column<std::string>(rd, cols, "term");
  const auto& measured = column<double>(rd, cols, "measured");
  const auto& modelled = column<double>(rd, cols, "modelled");
  const auto& source = column<std::string>(rd, cols, "source");
  const auto& kind = column<std::string>(rd, cols, "kind");
  for (std::size_t i = 0; i < term.size(); ++i) {
    RowKind k = RowKind::total;
    try {
      k = row_kind_from(kind[i]);
    } catch (const std::invalid_argument&) {
      rd.fail("/compare: row " + std::to_string(i) + ": kind '" + kind[i] + "', expected 'total' or 'part'");
    }
    comparison.add(ComparisonRow{model[i], term[i], measured[i], modelled[i], source[i], k});
  }
}

// An event's fields index kinds and ranks and are stored as int32: checked, never cut.
void check_event(Reading& rd, std::size_t i, double t0, double t1, std::int64_t kind,
                 std::int64_t peer, std::int64_t tag, std::int64_t request, std::size_t nkinds) {
  const auto bad = [&](const std::string& what) {
    rd.fail("row " + std::to_string(i) + ": expected " + what);
  };
  if (!std::isfinite(t0) || !std::isfinite(t1) || t1 < t0)
    bad("finite times with t_end >= t_begin, found t_begin " + std::to_string(t0) + ", t_end " +
        std::to_string(t1));
  if (kind < 0 || static_cast<std::uint64_t>(kind) >= nkinds)
    bad("kind in [0, " + std::to_string(nkinds) + ") (an index into /trace/kinds), found " +
        std::to_string(kind));
  // Peers and tags are as MPI gave them (MPI_PROC_NULL is negative, -1 or -2 by library,
  // and a peer may be a rank of another communicator): only the int32 range is checked.
  constexpr std::int64_t lo = std::numeric_limits<std::int32_t>::min();
  constexpr std::int64_t hi = std::numeric_limits<std::int32_t>::max();
  if (peer < lo || peer > hi) bad("an int32 peer rank, found " + std::to_string(peer));
  if (tag < lo || tag > hi) bad("an int32 tag, found " + std::to_string(tag));
  if (request < -1 || request > hi)
    bad("request in [-1, " + std::to_string(hi) + "], found " + std::to_string(request));
}

void read_trace(Reading& rd, hid_t file, RunResults& run) {
  if (!h5::has_link(file, "/trace")) return;
  Handle g = rd.open_group(file, "/trace", "/trace");
  GatheredTrace& trace = run.trace;
  trace.kinds = h5::read_strings(rd.open_dataset(g, "kinds", "/trace/kinds"), rd.where, *rd.budget);
  trace.dropped = per_rank(rd, rd.ints(rd.open_dataset(g, "dropped", "/trace/dropped"), 1),
                           static_cast<std::size_t>(run.info.nranks));
  trace.per_rank.resize(static_cast<std::size_t>(run.info.nranks));
  const auto optional_per_rank = [&](const char* name) {  // absent in files written before
    if (!h5::has_link(g, name)) return std::vector<double>();
    return per_rank(rd, finite(rd, rd.doubles(rd.open_dataset(g, name, std::string("/trace/") + name), 1)),
                    static_cast<std::size_t>(run.info.nranks));
  };
  run.clock.offset = optional_per_rank(layout::kTraceClockOffset);
  run.clock.offset_uncertainty = optional_per_rank(layout::kTraceClockOffsetUncertainty);
  for (int r = 0; r < run.info.nranks; ++r) {
    const std::string name = layout::trace_rank_name(r);
    const auto cols = rd.table(rd.open_dataset(g, name, "/trace/" + name));
    const auto& t0 = column<double>(rd, cols, "t_begin");
    const auto& t1 = column<double>(rd, cols, "t_end");
    const auto& kind = column<std::int64_t>(rd, cols, "kind");
    const auto& peer = column<std::int64_t>(rd, cols, "peer");
    const auto& bytes = column<std::int64_t>(rd, cols, "bytes");
    const auto& work = column<std::int64_t>(rd, cols, "work");
    const auto* tag = optional_int_column(rd, cols, "tag");  // absent before tags were stored
    const auto* request = optional_int_column(rd, cols, "request");
    auto& events = trace.per_rank[static_cast<std::size_t>(r)];
    for (std::size_t i = 0; i < t0.size(); ++i) {
      check_event(rd, i, t0[i], t1[i], kind[i], peer[i], tag ? (*tag)[i] : -1,
                  request ? (*request)[i] : -1, trace.kinds.size());
      events.push_back(TraceEvent{t0[i], t1[i], static_cast<std::int32_t>(kind[i]),
                                  static_cast<std::int32_t>(peer[i]), bytes[i], work[i],
                                  tag ? static_cast<std::int32_t>((*tag)[i]) : -1,
                                  request ? static_cast<std::int32_t>((*request)[i]) : -1});
    }
  }
}

// Everything outside the common groups is an app extra: groups give attributes, compound
// datasets tables, other datasets arrays. Each object is read once: a second hard link to
// one already seen (a group linking to itself or an ancestor, or a dataset linked twice) is
// refused, as are soft and external links (never followed, see h5::link_kind), so a crafted
// file can neither make the walk recurse forever nor multiply what it reads.
struct ExtrasWalk {
  Reading& rd;
  ResultsExtras& extras;
  std::set<std::pair<unsigned long, haddr_t>> seen;

  void first_visit(hid_t obj, const std::string& path) {
    if (!seen.insert(h5::object_address(obj, path)).second)
      rd.fail("expected each group and dataset to be linked once, found a second hard link to "
              "an object already read (a cycle or a shared object)");
  }

  void group(hid_t g, const std::string& path, int depth) {
    for (const auto& link : h5::list_links(g, path)) {
      const std::string child = (path == "/" ? "/" : path + "/") + link;
      if (path == "/" && layout::is_common_group(link)) continue;
      rd.where = child;
      const h5::LinkKind kind = h5::link_kind(g, link, child);
      if (kind == h5::LinkKind::group) {
        if (depth >= kMaxExtrasDepth)
          rd.fail("expected groups nested at most " + std::to_string(kMaxExtrasDepth) +
                  " deep, found deeper");
        Handle sub = h5::open_group(g, link, child);
        first_visit(sub, child);
        Attributes attrs = rd.attributes(sub);
        if (!attrs.empty()) extras.group_attributes[child] = std::move(attrs);
        group(sub, child, depth + 1);
      } else if (kind == h5::LinkKind::dataset) {
        Handle d = h5::open_dataset(g, link, child);
        first_visit(d, child);
        dataset(d, child);
      } else {
        rd.fail("expected a group or dataset, found a named datatype");
      }
    }
  }

  void dataset(hid_t d, const std::string& path) {
    if (h5::dataset_class(d, path) == H5T_COMPOUND) {
      Attributes attrs = rd.attributes(d, {"column_units"});
      extras.tables.push_back(Table{path, rd.table(d), std::move(attrs)});
      return;
    }
    Attributes attrs = rd.attributes(d, {"dims"});
    Array a;
    a.path = path;
    a.shape = h5::dataset_shape(d, path, h5::kAnyRank);
    if (h5::dataset_class(d, path) == H5T_INTEGER)
      a.values = rd.ints(d, h5::kAnyRank);
    else
      a.values = rd.doubles(d, h5::kAnyRank);
    if (const auto u = attrs.find("units"); u != attrs.end()) {
      a.unit = as_text(u->second);
      attrs.erase(u);
    }
    if (h5::has_attribute(d, "dims")) {
      a.dims = h5::read_string_list_attribute(d, "dims", path + "@dims", *rd.budget, H5S_MAX_RANK);
      if (a.dims.size() != a.shape.size()) {
        rd.where = path + "@dims";
        rd.fail("expected one name per dimension (" + std::to_string(a.shape.size()) +
                "), found " + std::to_string(a.dims.size()));
      }
    }
    a.attributes = std::move(attrs);
    extras.arrays.push_back(std::move(a));
  }
};

void read_extras(Reading& rd, hid_t file, ResultsExtras& extras) {
  Handle root(H5Gopen2(file, "/", H5P_DEFAULT), "opening /");
  ExtrasWalk walk{rd, extras, {}};
  walk.first_visit(root, "/");
  // The common groups are the writer's: an app group linking to one is a second link too.
  for (auto name : layout::kCommonGroups) {
    std::string path = "/";
    path.append(name);
    if (!h5::has_link(root, path)) continue;
    const h5::LinkKind k = h5::link_kind(root, path, path);
    Handle obj = k == h5::LinkKind::group ? h5::open_group(root, path, path)
                                          : h5::open_dataset(root, path, path);
    walk.first_visit(obj, path);
  }
  walk.group(root, "/", 0);
}

// The HDF5 superblock of a results file, checked before libhdf5 parses a byte. The writer
// uses the file format of HDF5 1.8 (superblock version 2), in which every piece of metadata
// the reader can reach carries a checksum that libhdf5 verifies: a damaged object header,
// B-tree or heap block is refused by the library instead of parsed. Files of the older format
// (superblock 0 or 1: the suite's until 2026-12-01) have no checksums, and their damaged
// parts crashed libhdf5 1.10 even under a valid seal: they are refused.
void check_superblock(Reading& rd, std::string_view bytes) {
  static constexpr std::string_view kSignature("\x89HDF\r\n\x1a\n", 8);
  const std::size_t at = seal::kUserBlockBytes;  // the writer's user block holds the seal
  rd.where = "";
  if (bytes.size() < at + kSignature.size() + 1 || bytes.substr(at, kSignature.size()) != kSignature)
    rd.fail("not a readable HDF5 file (no HDF5 signature at byte " + std::to_string(at) +
            ", after the seal; expected a suite results file)");
  const auto version = static_cast<unsigned char>(bytes[at + kSignature.size()]);
  if (version != 2 && version != 3)
    rd.fail("expected HDF5 superblock version 2 (the file format the suite writes, with "
            "checksummed metadata), found version " + std::to_string(version) +
            (version < 2 ? ": files written before 2026-12-01 must be written again" : ""));
}

void check_format(Reading& rd, hid_t file) {
  rd.where = "/";
  Handle root(H5Gopen2(file, "/", H5P_DEFAULT), "opening /");
  if (!h5::has_attribute(root, "format"))
    rd.fail(std::string("not a suite results file (no 'format' attribute; expected format = \"") +
            kResultsFormat + "\")");
  rd.where = "/@format";
  const std::string format = h5::read_string_attribute(root, "format", rd.where, *rd.budget);
  if (format != kResultsFormat)
    rd.fail("not a suite results file of this version (format = \"" + format + "\", expected \"" +
            kResultsFormat + "\")");
}

}  // namespace

ResultsDocument read_results(const std::string& path) {
  // The error_code overloads: a symlink loop or an unreadable directory is reported by
  // read_input_file below in one line, not thrown here as a raw filesystem_error.
  std::error_code ec;
  if (std::filesystem::is_regular_file(path, ec)) {
    const auto size = std::filesystem::file_size(path, ec);
    if (!ec) require_memory(2 * static_cast<std::uint64_t>(size), path, "", "reading the results file");
  }
  return read_results_bytes(read_input_file(path, "results file", kMaxResultsFileBytes), path);
}

ResultsDocument read_results_bytes(std::string_view bytes, const std::string& path) {
  h5::silence_error_stack();
  Reading rd{path, ""};
  // Before libhdf5 sees a byte: it crashes or loops on some damaged files.
  seal::verify(bytes, path);
  check_superblock(rd, bytes);
  h5::ReadBudget budget(static_cast<std::uint64_t>(bytes.size()));
  rd.budget = &budget;
  ResultsDocument doc;
  try {
    // The image opened by the core driver (a copy, read only): nothing touches the disk.
    Handle fapl(H5Pcreate(H5P_FILE_ACCESS), "creating a file access property list");
    h5::check(H5Pset_fapl_core(fapl, std::size_t{1} << 20, 0), "selecting the in-memory driver");
    h5::check(H5Pset_file_image(fapl, const_cast<char*>(bytes.data()), bytes.size()),
              "handing the file's bytes to HDF5");
    // A name no file has: with an existing file's name the core driver refuses the image.
    const hid_t id = H5Fopen(("memory image of " + path).c_str(), H5F_ACC_RDONLY, fapl);
    if (id < 0) rd.fail("not a readable HDF5 file (expected a suite results file): " + h5::last_error_detail());
    Handle file(id, "opening");
    {
      Handle root(H5Gopen2(file, "/", H5P_DEFAULT), "opening /");
      h5::require_header_storage(root, "/");
    }
    check_format(rd, file);
    Attributes root_extras;
    read_root(rd, file, doc, root_extras);
    read_input(rd, file, doc.run.info);
    read_machine(rd, file, doc.machine);
    read_phases(rd, file, doc.run);
    read_counters(rd, file, doc.run);
    read_model(rd, file, doc.comparison);
    read_compare(rd, file, doc.comparison);
    read_trace(rd, file, doc.run);
    doc.write_trace = !doc.run.trace.per_rank.empty();
    read_extras(rd, file, doc.extras);
    if (!root_extras.empty()) doc.extras.group_attributes["/"] = std::move(root_extras);
  } catch (const h5::Refusal& e) {
    throw InputError(path, e.where(), e.expected());
  } catch (const h5::Failure& e) {
    rd.fail(e.what());
  }
  return doc;
}

}  // namespace instrument
