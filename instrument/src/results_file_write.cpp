// Writes a ResultsDocument as the results file, atomically (see results_file.hpp).
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "hdf5_io.hpp"
#include "instrument/error.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/output_file.hpp"
#include "instrument/results_file.hpp"
#include "instrument/write_on_root.hpp"
#include "results_layout.hpp"
#include "results_seal.hpp"

namespace instrument {

namespace {

// A source cell of at most layout::kMaxCompareSourceBytes: a longer one is cut at a UTF-8
// character boundary and ends with the cut mark, so that every reader takes the file.
std::string cut_source(const std::string& text) {
  if (text.size() <= layout::kMaxCompareSourceBytes) return text;
  std::size_t keep = layout::kMaxCompareSourceBytes - layout::kCutMark.size();
  while (keep > 0 && (static_cast<unsigned char>(text[keep]) & 0xC0) == 0x80) --keep;  // not inside a character
  return text.substr(0, keep) + std::string(layout::kCutMark);
}

using h5::Handle;

// ---- validation: a malformed document is a programming error, caught before any I/O ----

void require_name(const std::string& name, const std::string& what) {
  if (name.empty()) throw std::invalid_argument("results file: empty " + what + " name");
}

void require_extras_path(const std::string& path, const std::string& what) {
  if (path.size() < 2 || path[0] != '/' || path.back() == '/' ||
      path.find("//") != std::string::npos)
    throw std::invalid_argument("results file: " + what + " path '" + path +
                                "' must be absolute, like /solution/residual_history");
  if (layout::is_common_group(layout::first_component(path)))
    throw std::invalid_argument("results file: " + what + " path '" + path +
                                "' is inside a group the writer owns; use an app group");
}

void validate(const ResultsDocument& doc) {
  for (const auto& p : doc.run.phases) require_name(p.name, "phase");
  for (const auto& c : doc.run.counters) require_name(c.name, "counter");
  for (const auto& [name, value] : doc.run.info.inputs) {
    require_name(name, "input");
    if (name == layout::kDeckFile || name == layout::kDeckText)
      throw std::invalid_argument("results file: input name '" + name + "' is reserved");
  }
  for (const auto& [name, value] : doc.machine.parameters)
    if (name.empty() || name == layout::kMachineSource)
      throw std::invalid_argument("results file: machine parameter name '" + name +
                                  "' is not allowed");
  for (const auto& t : doc.comparison.model_terms()) {
    require_name(t.model, "model");
    require_name(t.term, "model term");
  }
  for (const auto& [group, attrs] : doc.extras.group_attributes) {
    if (group != "/") require_extras_path(group, "attribute group");
    for (const auto& [name, v] : attrs) {
      require_name(name, "attribute");
      if (group == "/" && layout::is_root_attribute(name))
        throw std::invalid_argument("results file: root attribute '" + name + "' is the writer's");
    }
  }
  for (const auto& t : doc.extras.tables) {
    require_extras_path(t.path, "table");
    if (t.columns.empty())
      throw std::invalid_argument("results file: table " + t.path + " has no columns");
    for (const auto& c : t.columns) {
      require_name(c.name, "column");
      if (c.size() != t.rows())
        throw std::invalid_argument("results file: table " + t.path + ": column " + c.name +
                                    " has " + std::to_string(c.size()) + " rows, expected " +
                                    std::to_string(t.rows()));
    }
  }
  for (const auto& a : doc.extras.arrays) {
    require_extras_path(a.path, "array");
    std::size_t n = 1;
    for (auto d : a.shape) n *= d;
    const std::size_t have = std::visit([](const auto& v) { return v.size(); }, a.values);
    if (n != have)
      throw std::invalid_argument("results file: array " + a.path + ": shape holds " +
                                  std::to_string(n) + " values, data has " + std::to_string(have));
    if (!a.dims.empty() && a.dims.size() != a.shape.size())
      throw std::invalid_argument("results file: array " + a.path +
                                  ": one dimension name per dimension");
  }
}

// ---- the parts of the layout ------------------------------------------------------------

void write_root(hid_t file, const RunInfo& info, const ClockInfo& clock, const MachineLoad& load,
                const CoreRoundTrips& round_trip) {
  Handle root(H5Gopen2(file, "/", H5P_DEFAULT), "opening /");
  h5::write_attribute(root, "format", std::string(kResultsFormat));
  h5::write_attribute(root, "app", info.app);
  h5::write_attribute(root, "version", info.version);
  h5::write_attribute(root, "git_describe", info.git_describe);
  h5::write_attribute(root, "date", info.date);
  h5::write_attribute(root, "host", info.host);
  h5::write_attribute(root, "mpi_library", info.mpi_library);
  h5::write_attribute(root, "nranks", std::int64_t{info.nranks});
  h5::write_attribute(root, "threads", std::int64_t{info.threads});
  h5::write_attribute(root, "clock", clock.source);
  h5::write_attribute(root, "clock_frequency_hz", clock.frequency_hz);
  h5::write_attribute(root, "clock_read_ns", clock.read_ns);
  h5::write_attribute(root, "clock_start_end_disagreement_ppm", clock.disagreement_ppm);
  h5::write_attribute(root, "clock_tolerance_ppm", clock.tolerance_ppm);
  h5::write_attribute(root, "clock_check", clock.check);
  h5::write_attribute(root, "clock_sync", clock.sync);
  if (info.pinned_cpu >= 0) h5::write_attribute(root, "pinned_cpu", std::int64_t{info.pinned_cpu});
  // A document not made by a run (bsp_predict's, one assembled by hand) measured no load.
  h5::write_attribute(root, "machine_load", load.state.empty() ? std::string("unknown") : load.state);
  h5::write_attribute(root, "machine_load_others", load.others);
  h5::write_attribute(root, "machine_load_steal", load.steal);
  h5::write_attribute(root, "machine_load_cpu_wait", load.cpu_wait);
  h5::write_attribute(root, "machine_load_detail",
                      load.state.empty() ? std::string("not measured: not written by a run") : load.detail);
  // Where the host put the CPUs (core_round_trip.hpp): only what was measured (none at one
  // process, across nodes, or oversubscribed).
  // (The reader's range, (0, 1] s: a round trip beyond is not one, and would make the file unreadable.)
  for (const auto& [name, s] : {std::pair{"core_round_trip_start", round_trip.start}, std::pair{"core_round_trip_end", round_trip.end}})
    if (s > 0 && s <= 1) h5::write_attribute(root, name, s);
}

void write_input(hid_t file, const RunInfo& info) {
  Handle g = h5::create_group(file, "input");
  for (const auto& [name, value] : info.inputs) h5::write_attribute(g, name, value);
  h5::write_attribute(g, layout::kDeckFile, info.input_file);
  // A deck longer than an attribute in the object header holds (up to 1 MiB) is a 1-D
  // dataset of one string of the same name instead.
  if (info.input_text.size() > h5::kMaxAttributeText)
    h5::write_strings(g, layout::kDeckText, {info.input_text});
  else
    h5::write_attribute(g, layout::kDeckText, info.input_text);
}

void write_machine(hid_t file, const MachineRecord& machine) {
  Handle g = h5::create_group(file, "machine");
  h5::write_attributes(g, machine.parameters);
  h5::write_attribute(g, layout::kMachineSource, machine.source_file);
}

void write_phases(hid_t file, const RunResults& run) {
  Handle phases = h5::create_group(file, "phases");
  const std::size_t n = static_cast<std::size_t>(run.info.nranks);
  for (const auto& p : run.phases) {
    if (p.inclusive.size() != n)
      throw std::invalid_argument("results file: phase " + p.name + " has " +
                                  std::to_string(p.inclusive.size()) + " ranks, run has " +
                                  std::to_string(n));
    Handle g = h5::create_group(phases, h5::escape_link_name(p.name));
    h5::write_doubles(g, "inclusive", p.inclusive, {p.inclusive.size()});
    h5::write_doubles(g, "exclusive", p.exclusive, {p.exclusive.size()});
    h5::write_ints(g, "calls", p.calls, {p.calls.size()});
    for (const char* ds : {"inclusive", "exclusive"}) {
      Handle d(H5Dopen2(g, ds, H5P_DEFAULT), "opening " + p.name + "/" + ds);
      h5::write_attribute(d, "units", std::string("s"));
    }
    const RankStats s = rank_stats(p.inclusive);
    h5::write_attribute(g, "min", s.min);
    h5::write_attribute(g, "mean", s.mean);
    h5::write_attribute(g, "median", s.median);
    h5::write_attribute(g, "max", s.max);
  }
}

void write_counters(hid_t file, const RunResults& run) {
  Handle g = h5::create_group(file, "counters");
  for (const auto& c : run.counters)
    h5::write_ints(g, h5::escape_link_name(c.name), c.values, {c.values.size()});
}

void write_model(hid_t file, const Comparison& comparison) {
  Handle model = h5::create_group(file, "model");
  for (const auto& t : comparison.model_terms()) {
    const std::string group = h5::escape_link_name(t.model);
    Handle g = h5::has_link(model, group)
                   ? Handle(H5Gopen2(model, group.c_str(), H5P_DEFAULT), "opening " + group)
                   : h5::create_group(model, group);
    const std::string term = h5::escape_link_name(t.term);
    h5::write_scalar(g, term, t.seconds);
    Handle d(H5Dopen2(g, term.c_str(), H5P_DEFAULT), "opening model term " + t.term);
    h5::write_attribute(d, "equation", t.equation);
    h5::write_attribute(d, "units", std::string("s"));
  }
}

void write_compare(hid_t file, const Comparison& comparison, const MachineLoad& load) {
  std::vector<std::string> model, term, source, kind;
  std::vector<double> measured, modelled, error;
  for (const auto& r : comparison.rows()) {
    model.push_back(r.model);
    term.push_back(r.term);
    kind.push_back(row_kind_name(r.kind));
    measured.push_back(r.measured);
    modelled.push_back(r.modelled);
    error.push_back(r.relative_error());
    source.push_back(cut_source(r.source));
  }
  h5::write_table(file, "compare",
                  {Column{"model", "", model}, Column{"term", "", term},
                   Column{"measured", "s", measured}, Column{"modelled", "s", modelled},
                   Column{"relative_error", "(modelled-measured)/measured", error},
                   Column{"source", "", source}, Column{"kind", "total or part", kind}});
  // Unreliable when the app marked it or the run's machine was busy: the file says so even
  // where an app printed its table without the mark.
  const std::string because = !comparison.reliable() ? comparison.unreliable_because()
                              : load.busy()          ? load.busy_line()
                                                     : std::string();
  Handle d(H5Dopen2(file, "compare", H5P_DEFAULT), "opening /compare");
  h5::write_attribute(d, layout::kCompareReliable, std::int64_t{because.empty() ? 1 : 0});
  if (!because.empty()) h5::write_attribute(d, layout::kCompareUnreliableBecause, because);
}

bool has_trace(const GatheredTrace& t) {
  for (const auto& r : t.per_rank)
    if (!r.empty()) return true;
  for (auto d : t.dropped)
    if (d != 0) return true;
  return false;
}

void write_trace(hid_t file, const GatheredTrace& trace, const ClockInfo& clock) {
  Handle g = h5::create_group(file, "trace");
  h5::write_attribute(g, "time_origin",
                      std::string("earliest rank's recorder start, on rank 0's steady_clock "
                                  "(see the root attributes clock_*)"));
  h5::write_strings(g, "kinds", trace.kinds);
  h5::write_ints(g, "dropped", trace.dropped, {trace.dropped.size()});
  for (const auto& [name, values] :
       {std::pair{layout::kTraceClockOffset, clock.offset},
        std::pair{layout::kTraceClockOffsetUncertainty, clock.offset_uncertainty}}) {
    std::vector<double> v = values;
    v.resize(trace.per_rank.size(), 0.0);  // a document assembled by hand may have none
    h5::write_doubles(g, name, v, {v.size()});
    Handle d(H5Dopen2(g, name, H5P_DEFAULT), std::string("opening ") + name);
    h5::write_attribute(d, "units", std::string("s"));
  }
  for (std::size_t r = 0; r < trace.per_rank.size(); ++r) {
    std::vector<double> t0, t1;
    std::vector<std::int64_t> kind, peer, bytes, work, tag, request;
    for (const auto& e : trace.per_rank[r]) {
      t0.push_back(e.t_begin);
      t1.push_back(e.t_end);
      kind.push_back(e.kind);
      peer.push_back(e.peer);
      bytes.push_back(e.bytes);
      work.push_back(e.work);
      tag.push_back(e.tag);
      request.push_back(e.request);
    }
    h5::write_table(g, layout::trace_rank_name(static_cast<int>(r)),
                    {Column{"t_begin", "s", t0}, Column{"t_end", "s", t1},
                     Column{"kind", "index into kinds", kind}, Column{"peer", "rank", peer},
                     Column{"bytes", "bytes", bytes}, Column{"work", "work units", work},
                     Column{"tag", "MPI tag", tag},
                     Column{"request", "request number (post to wait)", request}});
  }
}

void write_extras(hid_t file, const ResultsExtras& extras) {
  for (const auto& t : extras.tables) {
    const std::size_t slash = t.path.rfind('/');
    Handle parent = h5::require_group(file, t.path.substr(0, slash));
    h5::write_table(parent, t.path.substr(slash + 1), t.columns);
    Handle d(H5Dopen2(parent, t.path.substr(slash + 1).c_str(), H5P_DEFAULT), "opening " + t.path);
    h5::write_attributes(d, t.attributes);
  }
  for (const auto& a : extras.arrays) {
    const std::size_t slash = a.path.rfind('/');
    Handle parent = h5::require_group(file, a.path.substr(0, slash));
    const std::string name = a.path.substr(slash + 1);
    if (const auto* iv = std::get_if<std::vector<std::int64_t>>(&a.values))
      h5::write_ints(parent, name, *iv, a.shape);
    else
      h5::write_doubles(parent, name, std::get<std::vector<double>>(a.values), a.shape);
    Handle d(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), "opening " + a.path);
    if (!a.unit.empty()) h5::write_attribute(d, "units", a.unit);
    if (!a.dims.empty()) h5::write_string_list_attribute(d, "dims", a.dims);
    h5::write_attributes(d, a.attributes);
  }
  // Attributes last: their groups may be the parents of tables created above.
  for (const auto& [path, attrs] : extras.group_attributes) {
    Handle g = h5::require_group(file, path);
    h5::write_attributes(g, attrs);
  }
}

void write_document(hid_t file, const ResultsDocument& doc) {
  write_root(file, doc.run.info, doc.run.clock, doc.run.machine_load, doc.run.core_round_trip);
  write_input(file, doc.run.info);
  write_machine(file, doc.machine);
  write_phases(file, doc.run);
  write_counters(file, doc.run);
  write_model(file, doc.comparison);
  write_compare(file, doc.comparison, doc.run.machine_load);
  if (doc.write_trace && has_trace(doc.run.trace)) write_trace(file, doc.run.trace, doc.run.clock);
  write_extras(file, doc.extras);
}

}  // namespace

void write_results(const std::string& path, const ResultsDocument& doc) {
  validate(doc);
  h5::silence_error_stack();
  // Resolves symlinks, refuses a device, FIFO or directory (as root, --results /dev/null
  // must not become an HDF5 file), removes stale temporaries of killed writers.
  OutputFile out(path, "results file");
  const std::string& tmp = out.temp_path();
  try {
    Handle fcpl = h5::object_create_list(H5P_FILE_CREATE);  // the root group's attributes too
    h5::check(H5Pset_link_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
              "tracking link creation order");
    // Room for the seal, written once the file is complete (results_seal.hpp).
    h5::check(H5Pset_userblock(fcpl, seal::kUserBlockBytes), "reserving the user block for the seal");
    // HDF5 1.8's file format, exactly: every piece of metadata checksummed (the reader
    // refuses older formats, results_file_read.cpp), nothing a 1.8 library cannot read.
    Handle fapl(H5Pcreate(H5P_FILE_ACCESS), "creating a file access property list");
    h5::check(H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18),
              "selecting the HDF5 1.8 file format");
    // EXCL: O_CREAT|O_EXCL, which also refuses a symlink planted at the temporary's name.
    errno = 0;
    const hid_t id = H5Fcreate(tmp.c_str(), H5F_ACC_EXCL, fcpl, fapl);
    if (id < 0) {
      const int err = errno;
      const std::string detail = h5::last_error_detail();
      throw h5::Failure("cannot create temporary file " + tmp + ": " +
                        (err != 0 ? std::string(std::strerror(err)) : detail));
    }
    Handle file(id, "creating " + tmp);
    write_document(file, doc);
    h5::check(H5Fclose(file.release()), "closing " + tmp);
  } catch (const h5::Failure& e) {
    throw InputError(path, "", std::string("cannot write results file: ") + e.what());
  }
  try {
    seal::seal_file(tmp);
  } catch (const std::runtime_error& e) {
    throw InputError(path, "", std::string("cannot write results file: ") + e.what());
  }
  out.commit();  // fsync + rename; the destructor removes the temporary on any failure
}

void write_results_on_root(const std::string& path, const ResultsDocument& doc, MPI_Comm comm,
                           int root) {
  // The other ranks wait deferring termination signals: dying first, they would have the
  // launcher SIGKILL the writer before it removed its temporary (write_on_root.hpp).
  std::string error;
  write_on_root(comm, root, [&] {
    try {
      write_results(path, doc);
    } catch (const std::exception& e) {
      error = e.what();
    }
  });
  throw_if_any_rank_failed(comm, error);
}

}  // namespace instrument
