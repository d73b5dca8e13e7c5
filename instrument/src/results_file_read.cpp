// Reads a results file back into a ResultsDocument, refusing files that are not ours.
#include <filesystem>
#include <sstream>

#include "hdf5_io.hpp"
#include "instrument/error.hpp"
#include "instrument/results_file.hpp"
#include "results_layout.hpp"

namespace instrument {

namespace {

using h5::Handle;

// Where the reader is, for the error message: "<file>:<object path>: <what>".
struct Reading {
  std::string file;
  std::string where = "/";

  [[noreturn]] void fail(const std::string& what) const { throw InputError(file, where, what); }

  Handle open_group(hid_t parent, const std::string& name) {
    where = name;
    if (!h5::has_link(parent, name)) fail("missing group (not a complete suite results file)");
    return Handle(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), "opening group");
  }
  Handle open_dataset(hid_t parent, const std::string& name, const std::string& shown) {
    where = shown;
    if (!h5::has_link(parent, name)) fail("missing dataset");
    return Handle(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), "opening dataset");
  }
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

int required_int(Reading& rd, const Attributes& attrs, const std::string& name) {
  const auto it = attrs.find(name);
  if (it == attrs.end() || !std::holds_alternative<std::int64_t>(it->second))
    rd.fail("missing integer attribute '" + name + "'");
  return static_cast<int>(std::get<std::int64_t>(it->second));
}

void read_root(Reading& rd, hid_t file, ResultsDocument& doc, Attributes& root_extras) {
  rd.where = "/";
  Handle root(H5Gopen2(file, "/", H5P_DEFAULT), "opening /");
  const Attributes attrs = h5::read_attributes(root);
  RunInfo& info = doc.run.info;
  info.app = required_string(rd, attrs, "app");
  info.version = required_string(rd, attrs, "version");
  info.git_describe = required_string(rd, attrs, "git_describe");
  info.date = required_string(rd, attrs, "date");
  info.host = required_string(rd, attrs, "host");
  info.mpi_library = required_string(rd, attrs, "mpi_library");
  info.nranks = required_int(rd, attrs, "nranks");
  info.threads = required_int(rd, attrs, "threads");
  if (info.nranks < 1) rd.fail("nranks must be at least 1");
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
  for (const auto& [name, value] : attrs)
    if (!layout::is_root_attribute(name)) root_extras[name] = value;
}

void read_input(Reading& rd, hid_t file, RunInfo& info) {
  Handle g = rd.open_group(file, "/input");
  for (const auto& [name, value] : h5::read_attributes(g)) {
    if (name == layout::kDeckFile)
      info.input_file = as_text(value);
    else if (name == layout::kDeckText)
      info.input_text = as_text(value);
    else
      info.inputs[name] = as_text(value);
  }
}

void read_machine(Reading& rd, hid_t file, MachineRecord& machine) {
  Handle g = rd.open_group(file, "/machine");
  for (const auto& [name, value] : h5::read_attributes(g)) {
    if (name == layout::kMachineSource)
      machine.source_file = as_text(value);
    else
      machine.parameters[name] = value;
  }
}

template <class T>
std::vector<T> per_rank(Reading& rd, std::vector<T> v, std::size_t nranks) {
  if (v.size() != nranks)
    rd.fail("has " + std::to_string(v.size()) + " values, expected one per rank (" +
            std::to_string(nranks) + ")");
  return v;
}

void read_phases(Reading& rd, hid_t file, RunResults& run) {
  Handle phases = rd.open_group(file, "/phases");
  const auto n = static_cast<std::size_t>(run.info.nranks);
  for (const auto& link : h5::list_links(phases)) {
    const std::string at = "/phases/" + link;
    Handle g = rd.open_group(phases, link);
    GatheredPhase p;
    p.name = h5::unescape_link_name(link);
    p.inclusive =
        per_rank(rd, h5::read_doubles(rd.open_dataset(g, "inclusive", at + "/inclusive")), n);
    p.exclusive =
        per_rank(rd, h5::read_doubles(rd.open_dataset(g, "exclusive", at + "/exclusive")), n);
    p.calls = per_rank(rd, h5::read_ints(rd.open_dataset(g, "calls", at + "/calls")), n);
    run.phases.push_back(std::move(p));
  }
}

void read_counters(Reading& rd, hid_t file, RunResults& run) {
  Handle counters = rd.open_group(file, "/counters");
  for (const auto& link : h5::list_links(counters)) {
    GatheredCounter c;
    c.name = h5::unescape_link_name(link);
    c.values = per_rank(rd, h5::read_ints(rd.open_dataset(counters, link, "/counters/" + link)),
                        static_cast<std::size_t>(run.info.nranks));
    run.counters.push_back(std::move(c));
  }
}

void read_model(Reading& rd, hid_t file, Comparison& comparison) {
  Handle model = rd.open_group(file, "/model");
  for (const auto& m : h5::list_links(model)) {
    Handle g = rd.open_group(model, m);
    for (const auto& t : h5::list_links(g)) {
      Handle d = rd.open_dataset(g, t, "/model/" + m + "/" + t);
      const auto v = h5::read_doubles(d);
      if (v.size() != 1) rd.fail("expected one value (seconds)");
      const Attributes attrs = h5::read_attributes(d);
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
      rd.fail("column '" + name + "' has the wrong type");
    }
  rd.fail("missing column '" + name + "'");
}

// A column added to the layout later: nullptr for files written before it (the caller's default).
const std::vector<std::int64_t>* optional_int_column(Reading& rd, const std::vector<Column>& cols,
                                                     const std::string& name) {
  for (const auto& c : cols)
    if (c.name == name) return &column<std::int64_t>(rd, cols, name);
  return nullptr;
}

void read_compare(Reading& rd, hid_t file, Comparison& comparison) {
  const auto cols = h5::read_table(rd.open_dataset(file, "/compare", "/compare"));
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

void read_trace(Reading& rd, hid_t file, RunResults& run) {
  if (!h5::has_link(file, "/trace")) return;
  Handle g = rd.open_group(file, "/trace");
  GatheredTrace& trace = run.trace;
  trace.kinds = h5::read_strings(rd.open_dataset(g, "kinds", "/trace/kinds"));
  trace.dropped = per_rank(rd, h5::read_ints(rd.open_dataset(g, "dropped", "/trace/dropped")),
                           static_cast<std::size_t>(run.info.nranks));
  trace.per_rank.resize(static_cast<std::size_t>(run.info.nranks));
  const auto optional_per_rank = [&](const char* name) {  // absent in files written before
    if (!h5::has_link(g, name)) return std::vector<double>();
    return per_rank(rd, h5::read_doubles(rd.open_dataset(g, name, std::string("/trace/") + name)),
                    static_cast<std::size_t>(run.info.nranks));
  };
  run.clock.offset = optional_per_rank(layout::kTraceClockOffset);
  run.clock.offset_uncertainty = optional_per_rank(layout::kTraceClockOffsetUncertainty);
  for (int r = 0; r < run.info.nranks; ++r) {
    const std::string name = layout::trace_rank_name(r);
    const auto cols = h5::read_table(rd.open_dataset(g, name, "/trace/" + name));
    const auto& t0 = column<double>(rd, cols, "t_begin");
    const auto& t1 = column<double>(rd, cols, "t_end");
    const auto& kind = column<std::int64_t>(rd, cols, "kind");
    const auto& peer = column<std::int64_t>(rd, cols, "peer");
    const auto& bytes = column<std::int64_t>(rd, cols, "bytes");
    const auto& work = column<std::int64_t>(rd, cols, "work");
    const auto* tag = optional_int_column(rd, cols, "tag");  // absent before tags were stored
    const auto* request = optional_int_column(rd, cols, "request");
    auto& events = trace.per_rank[static_cast<std::size_t>(r)];
    for (std::size_t i = 0; i < t0.size(); ++i)
      events.push_back(TraceEvent{t0[i], t1[i], static_cast<std::int32_t>(kind[i]),
                                  static_cast<std::int32_t>(peer[i]), bytes[i], work[i],
                                  tag ? static_cast<std::int32_t>((*tag)[i]) : -1,
                                  request ? static_cast<std::int32_t>((*request)[i]) : -1});
  }
}

// Everything outside the common groups is an app extra: groups give attributes, compound
// datasets tables, other datasets arrays.
void read_extras_under(Reading& rd, hid_t group, const std::string& path, ResultsExtras& extras) {
  for (const auto& link : h5::list_links(group)) {
    const std::string child = (path == "/" ? "/" : path + "/") + link;
    if (path == "/" && layout::is_common_group(link)) continue;
    rd.where = child;
    if (h5::is_group(group, link)) {
      Handle g(H5Gopen2(group, link.c_str(), H5P_DEFAULT), "opening group");
      Attributes attrs = h5::read_attributes(g);
      if (!attrs.empty()) extras.group_attributes[child] = std::move(attrs);
      read_extras_under(rd, g, child, extras);
      continue;
    }
    Handle d(H5Dopen2(group, link.c_str(), H5P_DEFAULT), "opening dataset");
    Attributes attrs = h5::read_attributes(d);
    if (h5::dataset_is_compound(d)) {
      extras.tables.push_back(Table{child, h5::read_table(d), std::move(attrs)});
      continue;
    }
    Array a;
    a.path = child;
    a.shape = h5::dataset_shape(d);
    if (h5::dataset_is_integer(d))
      a.values = h5::read_ints(d);
    else
      a.values = h5::read_doubles(d);
    if (const auto u = attrs.find("units"); u != attrs.end()) {
      a.unit = as_text(u->second);
      attrs.erase(u);
    }
    if (h5::has_attribute(d, "dims")) a.dims = h5::read_string_list_attribute(d, "dims");
    a.attributes = std::move(attrs);
    extras.arrays.push_back(std::move(a));
  }
}

void check_format(Reading& rd, hid_t file) {
  rd.where = "/";
  Handle root(H5Gopen2(file, "/", H5P_DEFAULT), "opening /");
  if (!h5::has_attribute(root, "format"))
    rd.fail(std::string("not a suite results file (no 'format' attribute; expected format = \"") +
            kResultsFormat + "\")");
  std::string format;
  try {
    format = h5::read_string_attribute(root, "format");
  } catch (const h5::Failure&) {
    rd.fail(std::string("not a suite results file ('format' is not a string; expected \"") +
            kResultsFormat + "\")");
  }
  if (format != kResultsFormat)
    rd.fail("not a suite results file of this version (format = \"" + format + "\", expected \"" +
            kResultsFormat + "\")");
}

}  // namespace

ResultsDocument read_results(const std::string& path) {
  h5::silence_error_stack();
  Reading rd{path, ""};
  std::error_code ec;
  if (!std::filesystem::exists(path, ec)) rd.fail("no such file");
  if (!std::filesystem::is_regular_file(path, ec)) rd.fail("not a regular file");
  if (H5Fis_hdf5(path.c_str()) <= 0) {
    h5::last_error_detail();  // clear the stack
    rd.fail("not an HDF5 file (expected a suite results file)");
  }
  ResultsDocument doc;
  try {
    const hid_t id = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    if (id < 0) rd.fail("cannot open: " + h5::last_error_detail());
    Handle file(id, "opening");
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
    Handle root(H5Gopen2(file, "/", H5P_DEFAULT), "opening /");
    read_extras_under(rd, root, "/", doc.extras);
    if (!root_extras.empty()) doc.extras.group_attributes["/"] = std::move(root_extras);
  } catch (const h5::Failure& e) {
    rd.fail(e.what());
  }
  return doc;
}

}  // namespace instrument
