// The results file: record on every rank, gather, write on rank 0, read back and compare
// every value (incl. the per-phase statistics attributes and strings); atomic writes that
// leave nothing behind on failure; files that are not ours are refused with InputError.
#include <catch2/catch.hpp>
#include <hdf5.h>
#include <mpi.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>

#include "instrument/error.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/results_file.hpp"
#include "../../instrument/src/results_seal.hpp"

using namespace instrument;
namespace fs = std::filesystem;

namespace {

int world_rank() {
  int r = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  return r;
}

// A private directory per rank and process, removed at the end of the test case.
struct ScratchDir {
  fs::path path;
  ScratchDir() {
    path = fs::temp_directory_path() /
           ("results_test_" + std::to_string(::getpid()) + "_" + std::to_string(world_rank()));
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~ScratchDir() { fs::remove_all(path); }
  // Files in the directory (to see that nothing, not even a temporary, was left behind).
  std::size_t entries() const {
    return static_cast<std::size_t>(
        std::distance(fs::directory_iterator(path), fs::directory_iterator()));
  }
};

// Deterministic per-rank values so rank 0 can check every one after the round trip.
// Not linear in the rank, so that mean and median differ at 4 ranks.
double incl_of(int rank) { return 0.25 + 0.125 * rank * rank; }

Recorder record_rank(int me) {
  Recorder rec(16);
  const auto solve = rec.define_phase("solve");
  const auto inner = rec.define_phase("solve/inner%1");  // needs escaping as a link name
  rec.add_time(solve, incl_of(me), me + 1);
  rec.add_time(inner, 0.5 * incl_of(me), 2);
  if (me % 2 == 1) rec.add_time(rec.define_phase("odd_only"), 1.0 + me, 1);
  rec.count(rec.define_counter("cells"), 1000 + me);
  rec.count(rec.define_counter("bytes_sent"), std::int64_t{1} << (30 + me));  // past 32 bits
  const Ticks t = rec.origin();
  rec.record_interval(solve, t + 1000, t + 1500, (me + 1) % 4, 4096 * me, 7 * me, 100 + me, 2 * me);
  rec.record_interval(inner, t + 1100, t + 1200, -1, 0, 3);
  return rec;
}

ResultsDocument make_document(RunResults run) {
  ResultsDocument doc;
  doc.run = std::move(run);
  doc.run.info.inputs = {{"nx", "64"}, {"message_bytes", "4096"}, {"label", "ünïcode \"quoted\""}};
  doc.run.info.input_file = "decks/toy.deck";
  doc.run.info.input_text = "nx = 64\n# a comment\nmessage_bytes = 4096\n";
  doc.machine.source_file = "loggps.machine";
  doc.machine.parameters = {
      {"L", 2.5e-6}, {"S", std::int64_t{4096}}, {"network", std::string("shm")}};
  doc.comparison.add({.model = "toy",
                      .term = "T_compute",
                      .measured = 2.0,
                      .modelled = 2.2,
                      .source = "rate from warm-up step"});
  doc.comparison.add({.model = "toy",
                      .term = "T_comm",
                      .measured = 0.0,
                      .modelled = 1e-3,
                      .source = "machine: loggps.machine",
                      .kind = RowKind::part});
  doc.comparison.add_model_term({"toy", "T_compute", 2.2, "T = cells / rate"});
  doc.comparison.add_model_term({"loggp", "T/56", 0.5, "Sundaram-Stukel & Vernon eq. 6"});
  auto& history = doc.extras.add_table("/solution/residual_history");
  history.columns = {Column::of("iteration", "", std::vector<int>{1, 2, 3}),
                     Column::of("residual", "", std::vector<double>{1e-1, 1e-3, 1e-7}),
                     Column::of("note", "", std::vector<std::string>{"start", "", "converged"})};
  history.attributes["description"] = std::string("L2 norm of the residual");
  doc.extras.add_array(Array::of("/bsp/bytes_out", {2, 3}, {"superstep", "process"}, "bytes",
                                 std::vector<long>{1, 2, 3, 4, 5, 6}));
  doc.extras.add_array(
      Array::of("/bsp/work", {3}, {"process"}, "s", std::vector<double>{0.1, 0.2, 0.3}));
  doc.extras.set_attribute("/solution", "balance", 1e-12);
  doc.extras.set_attribute("/solution", "converged", std::int64_t{1});
  doc.extras.set_attribute("/", "campaign", std::string("unit test"));
  return doc;
}

// Reads a double attribute straight through the HDF5 C API, as any other tool would.
double h5_double_attribute(const std::string& file, const std::string& object, const char* name) {
  const hid_t f = H5Fopen(file.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  const hid_t a = H5Aopen_by_name(f, object.c_str(), name, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(a >= 0);
  double v = -1;
  REQUIRE(H5Aread(a, H5T_NATIVE_DOUBLE, &v) >= 0);
  H5Aclose(a);
  H5Fclose(f);
  return v;
}

void check_same_clock(const ClockInfo& a, const ClockInfo& b, int nranks) {
  CHECK(a.source == b.source);
  CHECK(a.frequency_hz == b.frequency_hz);
  CHECK(a.read_ns == b.read_ns);
  CHECK(a.disagreement_ppm == b.disagreement_ppm);
  CHECK(a.tolerance_ppm == b.tolerance_ppm);
  CHECK(a.check == b.check);
  CHECK(a.sync == b.sync);
  CHECK(a.offset == b.offset);
  CHECK(a.offset_uncertainty == b.offset_uncertainty);
  // What a run on one host records (the recorders traced).
  CHECK(b.source == clock_source_name(clock_source()));
  CHECK(b.frequency_hz > 1e8);
  CHECK(b.check == "passed");
  CHECK(b.tolerance_ppm == 100.0);
  CHECK_THAT(b.sync, Catch::StartsWith("one host"));
  CHECK(b.offset == std::vector<double>(static_cast<std::size_t>(nranks), 0.0));
}

void check_same_run(const ResultsDocument& back, const ResultsDocument& doc) {
  check_same_clock(back.run.clock, doc.run.clock, doc.run.info.nranks);
  const RunInfo& a = back.run.info;
  const RunInfo& b = doc.run.info;
  CHECK(a.app == b.app);
  CHECK(a.version == b.version);
  CHECK(a.git_describe == b.git_describe);
  CHECK(a.date == b.date);
  CHECK(a.host == b.host);
  CHECK(a.mpi_library == b.mpi_library);
  CHECK(a.nranks == b.nranks);
  CHECK(a.threads == b.threads);
  CHECK(a.inputs == b.inputs);
  CHECK(a.input_file == b.input_file);
  CHECK(a.input_text == b.input_text);

  REQUIRE(back.run.phases.size() == doc.run.phases.size());
  for (std::size_t i = 0; i < doc.run.phases.size(); ++i) {
    CHECK(back.run.phases[i].name == doc.run.phases[i].name);  // order kept, names unescaped
    CHECK(back.run.phases[i].inclusive == doc.run.phases[i].inclusive);
    CHECK(back.run.phases[i].exclusive == doc.run.phases[i].exclusive);
    CHECK(back.run.phases[i].calls == doc.run.phases[i].calls);
  }
  REQUIRE(back.run.counters.size() == doc.run.counters.size());
  for (std::size_t i = 0; i < doc.run.counters.size(); ++i) {
    CHECK(back.run.counters[i].name == doc.run.counters[i].name);
    CHECK(back.run.counters[i].values == doc.run.counters[i].values);
  }
  CHECK(back.run.trace.kinds == doc.run.trace.kinds);
  CHECK(back.run.trace.dropped == doc.run.trace.dropped);
  REQUIRE(back.run.trace.per_rank.size() == doc.run.trace.per_rank.size());
  for (std::size_t r = 0; r < doc.run.trace.per_rank.size(); ++r) {
    const auto& x = back.run.trace.per_rank[r];
    const auto& y = doc.run.trace.per_rank[r];
    REQUIRE(x.size() == y.size());
    for (std::size_t i = 0; i < y.size(); ++i) {
      CHECK(x[i].t_begin == y[i].t_begin);
      CHECK(x[i].t_end == y[i].t_end);
      CHECK(x[i].kind == y[i].kind);
      CHECK(x[i].peer == y[i].peer);
      CHECK(x[i].bytes == y[i].bytes);
      CHECK(x[i].work == y[i].work);
      CHECK(x[i].tag == y[i].tag);
      CHECK(x[i].request == y[i].request);
    }
  }
}

void check_same_model(const ResultsDocument& back, const ResultsDocument& doc) {
  CHECK(back.machine.source_file == doc.machine.source_file);
  CHECK(back.machine.parameters == doc.machine.parameters);
  const auto& rows = back.comparison.rows();
  REQUIRE(rows.size() == doc.comparison.rows().size());
  for (std::size_t i = 0; i < rows.size(); ++i) {
    const auto& y = doc.comparison.rows()[i];
    CHECK(rows[i].model == y.model);
    CHECK(rows[i].term == y.term);
    CHECK(rows[i].measured == y.measured);
    CHECK(rows[i].modelled == y.modelled);
    CHECK(rows[i].source == y.source);
    CHECK(rows[i].kind == y.kind);
  }
  const auto& terms = back.comparison.model_terms();
  REQUIRE(terms.size() == 2);
  // /model groups come back in creation order: toy first, then loggp.
  CHECK(terms[0].model == "toy");
  CHECK(terms[0].term == "T_compute");
  CHECK(terms[0].seconds == 2.2);
  CHECK(terms[0].equation == "T = cells / rate");
  CHECK(terms[1].model == "loggp");
  CHECK(terms[1].term == "T/56");
  CHECK(terms[1].equation == "Sundaram-Stukel & Vernon eq. 6");
}

void check_same_extras(const ResultsDocument& back, const ResultsDocument& doc) {
  const Table* t = back.extras.find_table("/solution/residual_history");
  REQUIRE(t != nullptr);
  const Table* want = doc.extras.find_table("/solution/residual_history");
  REQUIRE(t->columns.size() == want->columns.size());
  for (std::size_t j = 0; j < t->columns.size(); ++j) {
    CHECK(t->columns[j].name == want->columns[j].name);
    CHECK(t->columns[j].values == want->columns[j].values);
  }
  CHECK(t->attributes == want->attributes);
  const Array* bytes = back.extras.find_array("/bsp/bytes_out");
  REQUIRE(bytes != nullptr);
  CHECK(bytes->shape == std::vector<std::size_t>{2, 3});
  CHECK(bytes->dims == std::vector<std::string>{"superstep", "process"});
  CHECK(bytes->unit == "bytes");
  CHECK(bytes->values == doc.extras.find_array("/bsp/bytes_out")->values);
  const Array* work = back.extras.find_array("/bsp/work");
  REQUIRE(work != nullptr);
  CHECK(std::get<std::vector<double>>(work->values) == std::vector<double>{0.1, 0.2, 0.3});
  CHECK(back.extras.group_attributes.at("/solution") ==
        doc.extras.group_attributes.at("/solution"));
  CHECK(back.extras.group_attributes.at("/") == doc.extras.group_attributes.at("/"));
}

}  // namespace

namespace {
// Rank 0 names the file (its scratch directory); every rank takes part in the collective write.
std::string rank0_path(const ScratchDir& dir, const char* name) {
  std::string path = (dir.path / name).string();
  int len = static_cast<int>(path.size());
  MPI_Bcast(&len, 1, MPI_INT, 0, MPI_COMM_WORLD);
  path.resize(static_cast<std::size_t>(len));
  MPI_Bcast(path.data(), len, MPI_CHAR, 0, MPI_COMM_WORLD);
  return path;
}
}  // namespace

TEST_CASE("results file round trip after gathering all ranks") {
  const int me = world_rank();
  int p = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  ScratchDir dir;
  const std::string path = rank0_path(dir, "run.h5");

  const Recorder rec = record_rank(me);
  RunResults run =
      gather_results(rec, make_run_info("results-test", MPI_COMM_WORLD), MPI_COMM_WORLD);
  const ResultsDocument doc = make_document(std::move(run));
  write_results_on_root(path, doc, MPI_COMM_WORLD);  // collective; no collectives after this
  if (me != 0) return;

  REQUIRE(fs::exists(path));
  CHECK(dir.entries() == 1);  // the temporary is gone
  const ResultsDocument back = read_results(path);
  REQUIRE(back.run.info.nranks == p);
  check_same_run(back, doc);
  check_same_model(back, doc);
  check_same_extras(back, doc);

  // The statistics attributes of /phases/<name> are those of the inclusive seconds.
  std::vector<double> incl;
  for (int r = 0; r < p; ++r) incl.push_back(incl_of(r));
  const RankStats s = rank_stats(incl);
  CHECK(h5_double_attribute(path, "/", "clock_frequency_hz") == doc.run.clock.frequency_hz);
  CHECK(h5_double_attribute(path, "/phases/solve", "min") == s.min);
  CHECK(h5_double_attribute(path, "/phases/solve", "mean") == Approx(s.mean));
  CHECK(h5_double_attribute(path, "/phases/solve", "median") == s.median);
  CHECK(h5_double_attribute(path, "/phases/solve", "max") == s.max);
  CHECK(h5_double_attribute(path, "/phases/solve%2Finner%251", "max") == 0.5 * s.max);
  CHECK(back.run.find_phase("solve")->inclusive == incl);
  CHECK(back.run.find_counter("bytes_sent")->values.back() == std::int64_t{1} << (30 + p - 1));
  for (int r = 0; r < p; ++r) {  // the matching fields of a message event, as recorded
    const TraceEvent& e = back.run.trace.per_rank[static_cast<std::size_t>(r)].at(0);
    CHECK(back.run.trace.phase_name(e) == "solve");
    CHECK(e.peer == (r + 1) % 4);
    CHECK(e.tag == 100 + r);
    CHECK(e.request == 2 * r);
    CHECK(back.run.trace.per_rank[static_cast<std::size_t>(r)].at(1).tag == -1);
  }
  // relative_error is stored as computed: 10% for the first row, NaN where nothing was measured.
  CHECK(back.comparison.rows()[0].relative_error() == Approx(0.1));
  CHECK(std::isnan(back.comparison.rows()[1].relative_error()));
}

TEST_CASE("a /compare source longer than 4096 bytes is cut, whole characters, and marked") {
  const int me = world_rank();
  ScratchDir dir;
  const std::string path = rank0_path(dir, "long.h5");
  RunResults run = gather_results(record_rank(me), make_run_info("results-test", MPI_COMM_WORLD), MPI_COMM_WORLD);
  ResultsDocument doc = make_document(std::move(run));
  std::string long_source = "T_elem from ";
  while (long_source.size() < 6000) long_source += "runs/00\u00e9/results.h5, ";  // two-byte characters too
  doc.comparison.add({.model = "toy", .term = "T_long", .measured = 1.0, .modelled = 1.0, .source = long_source});
  write_results_on_root(path, doc, MPI_COMM_WORLD);
  if (me != 0) return;
  const ResultsDocument back = read_results(path);
  REQUIRE(back.comparison.rows().size() == 3);
  const std::string& cut = back.comparison.rows()[2].source;
  const std::string mark = " [... cut: longer than 4096 bytes]";
  CHECK(cut.size() <= 4096);
  CHECK(cut.size() > 4000);
  REQUIRE(cut.size() > mark.size());
  CHECK(cut.substr(cut.size() - mark.size()) == mark);
  const std::string kept = cut.substr(0, cut.size() - mark.size());
  CHECK(long_source.compare(0, kept.size(), kept) == 0);  // a prefix of the text
  CHECK((static_cast<unsigned char>(long_source[kept.size()]) & 0xC0) != 0x80);  // cut between characters
  CHECK(back.comparison.rows()[0].source == "rate from warm-up step");  // short cells as they were
}

TEST_CASE("a failed write throws, names the file and leaves nothing behind") {
  const int me = world_rank();
  ScratchDir dir;
  Recorder rec(0);
  rec.add_time(rec.define_phase("solve"), 1.0);
  ResultsDocument doc;
  doc.run = gather_results(rec, make_run_info("results-test", MPI_COMM_SELF), MPI_COMM_SELF);

  SECTION("directory that does not exist") {
    const std::string path = (dir.path / "no_such_dir" / "run.h5").string();
    try {
      write_results(path, doc);
      FAIL("write_results should have thrown");
    } catch (const InputError& e) {
      CHECK(e.file() == path);
      CHECK_THAT(e.what(), Catch::Contains("cannot create temporary file"));
    }
    CHECK(dir.entries() == 0);
  }
  SECTION("a directory nobody may create files in, not even root") {
    const std::string path = "/proc/results_test_" + std::to_string(::getpid()) + ".h5";
    try {
      write_results(path, doc);
      FAIL("write_results should have thrown");
    } catch (const InputError& e) {
      CHECK(e.file() == path);
      CHECK_THAT(e.what(), Catch::Contains("cannot create temporary file"));
    }
    CHECK_FALSE(fs::exists(path));
  }
  SECTION("unwritable directory (skipped as root, which may write anywhere)") {
    if (::geteuid() == 0) return;
    const fs::path ro = dir.path / "read_only";
    fs::create_directory(ro);
    fs::permissions(ro, fs::perms::owner_read | fs::perms::owner_exec);
    CHECK_THROWS_AS(write_results((ro / "run.h5").string(), doc), InputError);
    CHECK(fs::is_empty(ro));
    fs::permissions(ro, fs::perms::owner_all);
  }
  SECTION("failure in the middle of writing removes the temporary") {
    // Two extras at the same path: HDF5 refuses the second after the file exists.
    doc.extras.add_array(Array::of("/app/x", {1}, {}, "", std::vector<double>{1.0}));
    doc.extras.add_array(Array::of("/app/x", {1}, {}, "", std::vector<double>{2.0}));
    const std::string path = (dir.path / "run.h5").string();
    CHECK_THROWS_AS(write_results(path, doc), InputError);
    CHECK(dir.entries() == 0);
  }
  SECTION("the target is a directory: rename fails, the temporary is removed") {
    const fs::path target = dir.path / "is_a_dir.h5";
    fs::create_directory(target);
    fs::create_directory(target / "keep");  // rename over a non-empty directory fails
    CHECK_THROWS_AS(write_results(target.string(), doc), InputError);
    CHECK(dir.entries() == 1);
  }
  SECTION("an existing file is replaced whole") {
    const std::string path = (dir.path / "run.h5").string();
    write_results(path, doc);
    doc.run.info.app = "second";
    write_results(path, doc);
    CHECK(read_results(path).run.info.app == "second");
    CHECK(dir.entries() == 1);
  }
  SECTION("a malformed document is refused before any file is made") {
    auto& t = doc.extras.add_table("/app/table");
    t.columns = {Column::of("a", "", std::vector<int>{1, 2}),
                 Column::of("b", "", std::vector<int>{1})};
    CHECK_THROWS_AS(write_results((dir.path / "run.h5").string(), doc), std::invalid_argument);
    doc.extras.tables.clear();
    doc.extras.add_table("/phases/mine").columns = {Column::of("a", "", std::vector<int>{1})};
    CHECK_THROWS_AS(write_results((dir.path / "run.h5").string(), doc), std::invalid_argument);
    CHECK(dir.entries() == 0);
  }
  (void)me;
}

TEST_CASE("files that are not ours are refused with one InputError naming the file") {
  ScratchDir dir;
  auto expect_refused = [](const std::string& path, const std::string& says) {
    try {
      read_results(path);
      FAIL("read_results should have refused " + path);
    } catch (const InputError& e) {
      CHECK(e.file() == path);
      CHECK_THAT(e.what(), Catch::Contains(says));
      CHECK(std::string(e.what()).find('\n') == std::string::npos);
    }
  };
  SECTION("missing file") { expect_refused((dir.path / "absent.h5").string(), "No such file"); }
  // HDF5 files made here get the user block and seal our writer gives its files.
  // (and the file format of HDF5 1.8, the only one the reader accepts).
  auto create_sealable = [](const std::string& path) {
    const hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
    H5Pset_userblock(fcpl, seal::kUserBlockBytes);
    const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
    H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18);
    const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl, fapl);
    H5Pclose(fapl);
    H5Pclose(fcpl);
    return f;
  };
  SECTION("not HDF5 at all") {
    const std::string path = (dir.path / "text.h5").string();
    std::ofstream(path) << "this is not HDF5\n";
    expect_refused(path, "not a sealed suite results file");
  }
  SECTION("sealed, but not HDF5") {
    const std::string path = (dir.path / "sealed-text.h5").string();
    const std::string body = "this is not HDF5\n";
    std::ofstream(path) << seal::user_block_for(body) << body;
    expect_refused(path, "not a readable HDF5 file");
  }
  SECTION("HDF5 from another tool (no seal)") {
    const std::string path = (dir.path / "foreign.h5").string();
    const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
    REQUIRE(f >= 0);
    H5Fclose(f);
    expect_refused(path, "not a sealed suite results file");
  }
  SECTION("one of our files, damaged after it was written") {
    const std::string path = (dir.path / "damaged.h5").string();
    const hid_t f = create_sealable(path);
    REQUIRE(f >= 0);
    H5Fclose(f);
    seal::seal_file(path);
    std::fstream io(path, std::ios::in | std::ios::out | std::ios::binary);
    io.seekp(600);
    io.put('\x7f');
    io.close();
    expect_refused(path, "does not match its seal");
  }
  SECTION("HDF5 without a format attribute") {
    const std::string path = (dir.path / "bare.h5").string();
    const hid_t f = create_sealable(path);
    REQUIRE(f >= 0);
    H5Fclose(f);
    seal::seal_file(path);
    expect_refused(path, "no 'format' attribute");
  }
  SECTION("HDF5 with another format") {
    const std::string path = (dir.path / "other.h5").string();
    const hid_t f = create_sealable(path);
    REQUIRE(f >= 0);
    const hid_t type = H5Tcopy(H5T_C_S1);
    H5Tset_size(type, 8);  // fixed-length, as other tools write it
    const hid_t space = H5Screate(H5S_SCALAR);
    const hid_t a = H5Acreate2(f, "format", type, space, H5P_DEFAULT, H5P_DEFAULT);
    H5Awrite(a, type, "other-1\0");
    H5Aclose(a);
    H5Sclose(space);
    H5Tclose(type);
    H5Fclose(f);
    seal::seal_file(path);
    expect_refused(path, "format = \"other-1\"");
  }
}
