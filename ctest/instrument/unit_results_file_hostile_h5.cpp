// Crafted HDF5 files, built here with the HDF5 C API on top of a genuine results file: every
// one is refused by read_results with one InputError naming the object ("<path>[@attr]")
// and what was expected and found: never a crash, an endless walk or a huge allocation.
#include <catch2/catch.hpp>
#include <hdf5.h>
#include <unistd.h>

#include <filesystem>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "../scratch_dir.hpp"
#include "instrument/error.hpp"
#include "instrument/results_file.hpp"
#include "../../instrument/src/results_seal.hpp"

using namespace instrument;
namespace fs = std::filesystem;

namespace {

// A genuine file of ours: a phase, a counter, a traced event, a comparison, extras.
std::string write_genuine(const fs::path& dir) {
  Recorder rec(4);
  const PhaseId solve = rec.define_phase("solve");
  rec.add_time(solve, 1.5, 1);
  rec.count(rec.define_counter("cells"), 64);
  rec.record_interval(solve, rec.origin() + 10, rec.origin() + 20, -1, 0, 5);
  ResultsDocument doc;
  doc.run = gather_results(rec, make_run_info("hostile-test", MPI_COMM_SELF), MPI_COMM_SELF);
  doc.write_trace = true;
  doc.comparison.add({.model = "toy", .term = "T", .measured = 2.0, .modelled = 2.2, .source = "s"});
  doc.comparison.add_model_term({"toy", "T", 2.2, "T = 2.2"});
  doc.extras.add_table("/app/history").columns = {
      Column::of("step", "", std::vector<int>{1, 2}), Column::of("w", "s", std::vector<double>{1, 2}),
      Column::of("label", "", std::vector<std::string>{"first", "the second"})};
  doc.extras.add_array(Array::of("/app/sizes", {2}, {"part"}, "cells", std::vector<long>{3, 4}));
  const std::string path = (dir / "run.h5").string();
  write_results(path, doc);
  return path;
}

// Opens the file read-write, lets `change` damage it, closes it and seals it again: the
// crafted structure, not the seal, is what the reader must refuse.
void patch(const std::string& path, const std::function<void(hid_t)>& change) {
  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDWR, H5P_DEFAULT);
  REQUIRE(f >= 0);
  change(f);
  REQUIRE(H5Fclose(f) >= 0);
  seal::seal_file(path);
}

hid_t vlen_string() {
  const hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, H5T_VARIABLE);
  H5Tset_cset(t, H5T_CSET_UTF8);
  return t;
}

// A fixed-length, NUL-padded string type of `size` bytes, as the writer makes them.
hid_t fixed_string(std::size_t size) {
  const hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, size);
  H5Tset_strpad(t, H5T_STR_NULLPAD);
  H5Tset_cset(t, H5T_CSET_UTF8);
  return t;
}

void replace_attribute(hid_t obj, const char* name, hid_t type, hid_t space, const void* data) {
  if (H5Aexists(obj, name) > 0) REQUIRE(H5Adelete(obj, name) >= 0);
  const hid_t a = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  REQUIRE(a >= 0);
  REQUIRE(H5Awrite(a, type, data) >= 0);
  H5Aclose(a);
}

// A dataset in place of `path` (deleted first if present), written from `data` if given.
void replace_dataset(hid_t f, const char* path, hid_t type, hid_t space, const void* data,
                     hid_t dcpl = H5P_DEFAULT) {
  if (H5Lexists(f, path, H5P_DEFAULT) > 0) REQUIRE(H5Ldelete(f, path, H5P_DEFAULT) >= 0);
  const hid_t d = H5Dcreate2(f, path, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  REQUIRE(d >= 0);
  if (data) REQUIRE(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data) >= 0);
  H5Dclose(d);
}

// The one refusal expected: exactly this object, "expected", and the words given.
void expect_refused(const std::string& path, const std::string& where,
                    const std::vector<std::string>& says) {
  try {
    read_results(path);
    FAIL("read_results accepted a crafted file; expected a refusal at " + where);
  } catch (const InputError& e) {
    INFO(e.what());
    CHECK(e.file() == path);
    CHECK(e.where() == where);
    CHECK_THAT(e.expected(), Catch::Contains("expected"));
    for (const auto& s : says) CHECK_THAT(e.expected(), Catch::Contains(s));
    CHECK(std::string(e.what()).find('\n') == std::string::npos);
  }
}

}  // namespace

TEST_CASE("the genuine file reads back (the base every crafted file starts from)") {
  ScratchDir dir("hostile_h5_test");
  const std::string path = write_genuine(dir.path);
  const ResultsDocument doc = read_results(path);
  CHECK(doc.run.info.app == "hostile-test");
  CHECK(doc.run.trace.per_rank.at(0).at(0).work == 5);
  REQUIRE(doc.extras.find_array("/app/sizes") != nullptr);
  CHECK(doc.extras.find_array("/app/sizes")->dims == std::vector<std::string>{"part"});
}

TEST_CASE("root attribute format as an array of strings (the stack overflow)") {
  ScratchDir dir("hostile_h5_test");
  const std::string path = write_genuine(dir.path);
  for (hsize_t n : {hsize_t{1000}, hsize_t{2}}) {
    patch(path, [&](hid_t f) {
      const hid_t t = vlen_string();
      const hid_t s = H5Screate_simple(1, &n, nullptr);
      std::vector<const char*> v(n, "suite-results-1");
      replace_attribute(f, "format", t, s, v.data());
      H5Sclose(s);
      H5Tclose(t);
    });
    expect_refused(path, "/@format",
                   {"expected a scalar string", "1-D [" + std::to_string(n) + "] array"});
  }
}

TEST_CASE("fixed-length strings are read by their padding; an embedded NUL is refused") {
  ScratchDir dir("hostile_h5_test");
  const std::string path = write_genuine(dir.path);
  const auto set_format = [&](const char* bytes, std::size_t size, H5T_str_t pad) {
    patch(path, [&](hid_t f) {
      const hid_t t = H5Tcopy(H5T_C_S1);
      H5Tset_size(t, size);
      H5Tset_strpad(t, pad);
      const hid_t s = H5Screate(H5S_SCALAR);
      replace_attribute(f, "format", t, s, bytes);
      H5Sclose(s);
      H5Tclose(t);
    });
  };
  set_format("suite-results-1\0\0\0", 18, H5T_STR_NULLPAD);  // as numpy writes bytes
  CHECK(read_results(path).run.info.app == "hostile-test");
  set_format("suite-results-1   ", 18, H5T_STR_SPACEPAD);  // as Fortran writes them
  CHECK(read_results(path).run.info.app == "hostile-test");
  set_format("suite\0results-1", 15, H5T_STR_NULLPAD);
  expect_refused(path, "/@format", {"without NUL bytes", "byte 5"});
}

TEST_CASE("integer attributes: odd sizes read exactly, oversize and out-of-range refused") {
  ScratchDir dir("hostile_h5_test");
  const std::string path = write_genuine(dir.path);
  const hid_t s = H5Screate(H5S_SCALAR);
  SECTION("a 1-byte nranks reads as 1") {
    const std::int8_t one = 1;
    patch(path, [&](hid_t f) { replace_attribute(f, "nranks", H5T_STD_I8LE, s, &one); });
    CHECK(read_results(path).run.info.nranks == 1);
  }
  SECTION("a 16-byte integer") {
    const hid_t t = H5Tcopy(H5T_STD_I64LE);
    H5Tset_size(t, 16);
    const unsigned char one[16] = {1};
    patch(path, [&](hid_t f) { replace_attribute(f, "nranks", t, s, one); });
    expect_refused(path, "/@nranks", {"int64", "scalar 16-byte integer"});
    H5Tclose(t);
  }
  SECTION("an unsigned 8-byte integer (could exceed int64)") {
    const std::uint64_t big = ~std::uint64_t{0};
    patch(path, [&](hid_t f) { replace_attribute(f, "threads", H5T_STD_U64LE, s, &big); });
    expect_refused(path, "/@threads", {"8-byte unsigned integer"});
  }
  SECTION("nranks past any machine (was cut to int)") {
    const std::int64_t huge = std::int64_t{1} << 40;
    patch(path, [&](hid_t f) { replace_attribute(f, "nranks", H5T_STD_I64LE, s, &huge); });
    expect_refused(path, "/@nranks", {"rank count in [1, 16777216]", "1099511627776"});
  }
  SECTION("an enum attribute in an app group") {
    const hid_t t = H5Tenum_create(H5T_NATIVE_INT);
    int v = 0;
    H5Tenum_insert(t, "no", &v);
    patch(path, [&](hid_t f) {
      const hid_t g = H5Gopen2(f, "/app", H5P_DEFAULT);
      replace_attribute(g, "flag", t, s, &v);
      H5Gclose(g);
    });
    expect_refused(path, "/app@flag", {"int64, float64 or string", "enum"});
    H5Tclose(t);
  }
  SECTION("an array attribute where a scalar belongs") {
    const hsize_t n = 3;
    const hid_t s3 = H5Screate_simple(1, &n, nullptr);
    const double v[3] = {1, 2, 3};
    patch(path, [&](hid_t f) {
      const hid_t i = H5Gopen2(f, "/input", H5P_DEFAULT);
      replace_attribute(i, "cells", H5T_IEEE_F64LE, s3, v);
      H5Gclose(i);
    });
    expect_refused(path, "/input@cells", {"scalar", "1-D [3] array of 8-byte float"});
    H5Sclose(s3);
  }
  H5Sclose(s);
}

TEST_CASE("/compare of the wrong shape, kind or member types") {
  ScratchDir dir("hostile_h5_test");
  const std::string path = write_genuine(dir.path);
  SECTION("2-D") {
    const hsize_t dims[2] = {2, 3};
    const hid_t s = H5Screate_simple(2, dims, nullptr);
    const double v[6] = {};
    patch(path, [&](hid_t f) { replace_dataset(f, "/compare", H5T_IEEE_F64LE, s, v); });
    expect_refused(path, "/compare", {"1-D compound", "2-D [2 x 3] array of 8-byte float"});
    H5Sclose(s);
  }
  SECTION("a group") {
    patch(path, [&](hid_t f) {
      H5Ldelete(f, "/compare", H5P_DEFAULT);
      H5Gclose(H5Gcreate2(f, "/compare", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
    });
    expect_refused(path, "/compare", {"expected a dataset, found a group"});
  }
  // A compound like the writer's (8-byte fixed-length strings), with `measured` a string or
  // without `kind`.
  const auto compound = [&](bool measured_text, bool with_kind) {
    const hid_t str = fixed_string(8);
    const hid_t t = H5Tcreate(H5T_COMPOUND, 6 * 8);
    H5Tinsert(t, "model", 0, str);
    H5Tinsert(t, "term", 8, str);
    H5Tinsert(t, "measured", 16, measured_text ? str : H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "modelled", 24, H5T_NATIVE_DOUBLE);
    H5Tinsert(t, "source", 32, str);
    if (with_kind) H5Tinsert(t, "kind", 40, str);
    const hsize_t n = 1;
    const hid_t s = H5Screate_simple(1, &n, nullptr);
    unsigned char row[48] = {};
    const double measured = 2.0, modelled = 2.2;
    std::memcpy(row + 0, "toy", 3);
    std::memcpy(row + 8, "T", 1);
    if (measured_text)
      std::memcpy(row + 16, "2.0", 3);
    else
      std::memcpy(row + 16, &measured, 8);
    std::memcpy(row + 24, &modelled, 8);
    std::memcpy(row + 32, "s", 1);
    std::memcpy(row + 40, "total", 5);
    patch(path, [&](hid_t f) { replace_dataset(f, "/compare", t, s, row); });
    H5Sclose(s);
    H5Tclose(t);
    H5Tclose(str);
  };
  SECTION("measured as text") {
    compound(true, true);
    expect_refused(path, "/compare", {"column 'measured' of floats, found strings"});
  }
  SECTION("kind missing") {
    compound(false, false);
    expect_refused(path, "/compare", {"missing column 'kind'"});
  }
  SECTION("the same layout with the right types reads") {
    compound(false, true);
    CHECK(read_results(path).comparison.rows().at(0).measured == 2.0);
  }
}

TEST_CASE("0-d and 2-d where 1-d is expected, and the other way round") {
  ScratchDir dir("hostile_h5_test");
  const std::string path = write_genuine(dir.path);
  SECTION("scalar calls") {
    const hid_t s = H5Screate(H5S_SCALAR);
    const std::int64_t one = 1;
    patch(path, [&](hid_t f) { replace_dataset(f, "/phases/solve/calls", H5T_STD_I64LE, s, &one); });
    expect_refused(path, "/phases/solve/calls",
                   {"a 1-D array of integers", "found a scalar 8-byte integer"});
    H5Sclose(s);
  }
  SECTION("calls as floats") {
    const hsize_t n = 1;
    const hid_t s = H5Screate_simple(1, &n, nullptr);
    const double one = 1;
    patch(path, [&](hid_t f) { replace_dataset(f, "/phases/solve/calls", H5T_IEEE_F64LE, s, &one); });
    expect_refused(path, "/phases/solve/calls", {"integers", "8-byte float"});
    H5Sclose(s);
  }
  SECTION("a model term as a 1-D array") {
    const hsize_t n = 1;
    const hid_t s = H5Screate_simple(1, &n, nullptr);
    const double v = 2.2;
    patch(path, [&](hid_t f) { replace_dataset(f, "/model/toy/T", H5T_IEEE_F64LE, s, &v); });
    expect_refused(path, "/model/toy/T", {"expected a scalar", "1-D [1] array"});
    H5Sclose(s);
  }
  SECTION("a NaN inclusive time") {
    const hsize_t n = 1;
    const hid_t s = H5Screate_simple(1, &n, nullptr);
    const double v = std::numeric_limits<double>::quiet_NaN();
    patch(path, [&](hid_t f) { replace_dataset(f, "/phases/solve/inclusive", H5T_IEEE_F64LE, s, &v); });
    expect_refused(path, "/phases/solve/inclusive", {"finite seconds"});
    H5Sclose(s);
  }
}

TEST_CASE("a dataset of absurd declared size is refused before anything is allocated") {
  ScratchDir dir("hostile_h5_test");
  const std::string path = write_genuine(dir.path);
  // 10^12 doubles (8 TB) in a file of a few kB: chunked, no chunk ever written (fill value).
  const hsize_t n = 1000000000000ULL, chunk = 1024;
  const hid_t s = H5Screate_simple(1, &n, nullptr);
  const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, &chunk);
  SECTION("an app array") {
    patch(path, [&](hid_t f) { replace_dataset(f, "/app/huge", H5T_IEEE_F64LE, s, nullptr, dcpl); });
    expect_refused(path, "/app/huge", {"data a results file can hold", "1-D [1000000000000]"});
  }
  SECTION("a per-rank dataset") {
    patch(path, [&](hid_t f) { replace_dataset(f, "/counters/cells", H5T_STD_I64LE, s, nullptr, dcpl); });
    expect_refused(path, "/counters/cells", {"data a results file can hold"});
  }
  SECTION("dims whose product passes 2^64") {
    const hsize_t dims[3] = {1ULL << 30, 1ULL << 30, 1ULL << 30}, c3[3] = {1, 1, 1};
    const hid_t s3 = H5Screate_simple(3, dims, nullptr);
    const hid_t p3 = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(p3, 3, c3);
    patch(path, [&](hid_t f) { replace_dataset(f, "/app/cube", H5T_STD_I64LE, s3, nullptr, p3); });
    expect_refused(path, "/app/cube", {"data a results file can hold"});
    H5Pclose(p3);
    H5Sclose(s3);
  }
  H5Pclose(dcpl);
  H5Sclose(s);
}

TEST_CASE("links: self hard link, soft loop, external link are refused, never followed") {
  ScratchDir dir("hostile_h5_test");
  const std::string path = write_genuine(dir.path);
  SECTION("a group that hard-links to itself") {
    patch(path, [](hid_t f) { REQUIRE(H5Lcreate_hard(f, "/app", f, "/app/again", H5P_DEFAULT, H5P_DEFAULT) >= 0); });
    expect_refused(path, "/app/again", {"second hard link"});
  }
  SECTION("a hard link to the root") {
    patch(path, [](hid_t f) { REQUIRE(H5Lcreate_hard(f, "/", f, "/app/root", H5P_DEFAULT, H5P_DEFAULT) >= 0); });
    expect_refused(path, "/app/root", {"second hard link"});
  }
  SECTION("an app link to a common group") {
    patch(path, [](hid_t f) { REQUIRE(H5Lcreate_hard(f, "/phases", f, "/app/p", H5P_DEFAULT, H5P_DEFAULT) >= 0); });
    expect_refused(path, "/app/p", {"second hard link"});
  }
  SECTION("a soft link loop") {
    patch(path, [](hid_t f) {
      REQUIRE(H5Lcreate_soft("/app/b", f, "/app/a", H5P_DEFAULT, H5P_DEFAULT) >= 0);
      REQUIRE(H5Lcreate_soft("/app/a", f, "/app/b", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    });
    expect_refused(path, "/app/a", {"soft link"});
  }
  SECTION("a soft link in place of a common group") {
    patch(path, [](hid_t f) {
      REQUIRE(H5Lmove(f, "/counters", f, "/app/counters", H5P_DEFAULT, H5P_DEFAULT) >= 0);
      REQUIRE(H5Lcreate_soft("/app/counters", f, "/counters", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    });
    expect_refused(path, "/counters", {"soft link"});
  }
  SECTION("an external link (to a FIFO it would block on)") {
    patch(path, [](hid_t f) {
      REQUIRE(H5Lcreate_external("/dev/zero", "/", f, "/app/ext", H5P_DEFAULT, H5P_DEFAULT) >= 0);
    });
    expect_refused(path, "/app/ext", {"external"});
  }
}

TEST_CASE("app tables and arrays with members or attributes of the wrong kind") {
  ScratchDir dir("hostile_h5_test");
  const std::string path = write_genuine(dir.path);
  const hsize_t n = 2;
  const hid_t s = H5Screate_simple(1, &n, nullptr);
  SECTION("an enum column") {
    const hid_t e = H5Tenum_create(H5T_NATIVE_INT);
    int v = 0;
    H5Tenum_insert(e, "a", &v);
    const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(int));
    H5Tinsert(t, "flag", 0, e);
    const int rows[2] = {0, 0};
    patch(path, [&](hid_t f) { replace_dataset(f, "/app/history", t, s, rows); });
    expect_refused(path, "/app/history", {"column 'flag' of int64, float64 or string", "enum"});
    H5Tclose(t);
    H5Tclose(e);
  }
  SECTION("column_units not one per column") {
    patch(path, [&](hid_t f) {
      const hid_t d = H5Dopen2(f, "/app/history", H5P_DEFAULT);
      const hsize_t two = 2;
      const hid_t s2 = H5Screate_simple(1, &two, nullptr);
      const hid_t str = fixed_string(1);
      const char u[2] = {'\0', 's'};
      replace_attribute(d, "column_units", str, s2, u);
      H5Tclose(str);
      H5Sclose(s2);
      H5Dclose(d);
    });
    expect_refused(path, "/app/history@column_units", {"one unit per column (3), found 2"});
  }
  SECTION("a string dataset where numbers belong") {
    const hid_t str = vlen_string();
    const char* v[2] = {"a", "b"};
    patch(path, [&](hid_t f) { replace_dataset(f, "/app/sizes", str, s, v); });
    expect_refused(path, "/app/sizes", {"floats", "variable-length string"});
    H5Tclose(str);
  }
  SECTION("a compressed dataset") {
    if (H5Zfilter_avail(H5Z_FILTER_DEFLATE) <= 0) return;
    const hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
    H5Pset_chunk(dcpl, 1, &n);
    H5Pset_deflate(dcpl, 6);
    const std::int64_t v[2] = {3, 4};
    patch(path, [&](hid_t f) { replace_dataset(f, "/app/sizes", H5T_STD_I64LE, s, v, dcpl); });
    expect_refused(path, "/app/sizes", {"unfiltered storage"});
    H5Pclose(dcpl);
  }
  H5Sclose(s);
}

// libhdf5 1.10.8 writes a compound with an empty-compound member but cannot decode it, and
// listing the attributes of an object that has such an attribute in compact storage frees
// table slots it never filled: a SEGV when the attributes before it are 3 (not a power of
// two), as here (fuzz_results_structure found it under the root, after 9). The reader must
// refuse the object before it lists its attributes.
TEST_CASE("an attribute HDF5 wrote but cannot decode is refused before the attributes are listed") {
  ScratchDir dir("hostile_h5_test");
  const std::string path = write_genuine(dir.path);
  const hid_t s = H5Screate(H5S_SCALAR);
  const hid_t empty = H5Tcreate(H5T_COMPOUND, 1);
  const hid_t outer = H5Tcreate(H5T_COMPOUND, 1);
  REQUIRE(H5Tinsert(outer, "m", 0, empty) >= 0);
  patch(path, [&](hid_t f) {
    REQUIRE(H5Ldelete(f, "/input", H5P_DEFAULT) >= 0);
    const hid_t g = H5Gcreate2(f, "/input", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
    REQUIRE(g >= 0);
    const std::int64_t v = 1;
    for (const char* name : {"a", "b", "c"}) replace_attribute(g, name, H5T_STD_I64LE, s, &v);
    const unsigned char byte = 0;
    replace_attribute(g, "bad", outer, s, &byte);
    H5Gclose(g);
  });
  {  // the premise: HDF5 accepted the type it now cannot read back
    const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
    const hid_t g = H5Gopen2(f, "/input", H5P_DEFAULT);
    H5E_BEGIN_TRY { CHECK(H5Aopen(g, "bad", H5P_DEFAULT) < 0); } H5E_END_TRY;
    H5Gclose(g);
    H5Fclose(f);
  }
  expect_refused(path, "/input", {"attributes HDF5 can decode", "cannot read back"});
  H5Tclose(outer);
  H5Tclose(empty);
  H5Sclose(s);
}

// Variable-length data live in the file's global heap, reached through references stored in
// the elements: libhdf5 1.10 followed damaged ones (a SEGV in H5HG_read under H5Aread, files
// resealed after damage) and sized buffers by lengths the file declares (6 GB for two
// damaged bytes). The reader refuses every variable-length type before a byte of it is read.
TEST_CASE("variable-length data anywhere are refused before they are read") {
  ScratchDir dir("hostile_h5_test");
  const std::string path = write_genuine(dir.path);
  const hid_t scalar = H5Screate(H5S_SCALAR);
  const hid_t vstr = vlen_string();
  const std::vector<std::string> old_files = {"expected a fixed-length string",
                                              "found a variable-length string",
                                              "files written before 2026-12-01 must be written again"};
  SECTION("a root attribute") {
    const char* app = "hostile-test";
    patch(path, [&](hid_t f) { replace_attribute(f, "app", vstr, scalar, &app); });
    expect_refused(path, "/@app", old_files);
  }
  SECTION("the format attribute itself") {
    const char* format = "suite-results-1";
    patch(path, [&](hid_t f) { replace_attribute(f, "format", vstr, scalar, &format); });
    expect_refused(path, "/@format", old_files);
  }
  SECTION("an attribute of an app group (a calibration value)") {
    const char* kernel = "avx2";
    patch(path, [&](hid_t f) {
      const hid_t g = H5Gopen2(f, "/app", H5P_DEFAULT);
      replace_attribute(g, "kernel", vstr, scalar, &kernel);
      H5Gclose(g);
    });
    expect_refused(path, "/app@kernel", old_files);
  }
  SECTION("the trace's kinds") {
    const hsize_t n = 1;
    const hid_t s1 = H5Screate_simple(1, &n, nullptr);
    const char* kinds[1] = {"solve"};
    patch(path, [&](hid_t f) { replace_dataset(f, "/trace/kinds", vstr, s1, kinds); });
    expect_refused(path, "/trace/kinds", old_files);
    H5Sclose(s1);
  }
  SECTION("column_units") {
    const hsize_t n = 3;
    const hid_t s3 = H5Screate_simple(1, &n, nullptr);
    const char* units[3] = {"", "s", ""};
    patch(path, [&](hid_t f) {
      const hid_t d = H5Dopen2(f, "/app/history", H5P_DEFAULT);
      replace_attribute(d, "column_units", vstr, s3, units);
      H5Dclose(d);
    });
    expect_refused(path, "/app/history@column_units", old_files);
    H5Sclose(s3);
  }
  SECTION("a string column of a table, after numeric ones (no column is read)") {
    struct Row {
      std::int64_t step;
      const char* label;
    } rows[2] = {{1, "a"}, {2, "b"}};
    const hid_t t = H5Tcreate(H5T_COMPOUND, sizeof(Row));
    H5Tinsert(t, "step", HOFFSET(Row, step), H5T_NATIVE_INT64);
    H5Tinsert(t, "label", HOFFSET(Row, label), vstr);
    const hsize_t n = 2;
    const hid_t s2 = H5Screate_simple(1, &n, nullptr);
    patch(path, [&](hid_t f) { replace_dataset(f, "/app/history", t, s2, rows); });
    expect_refused(path, "/app/history",
                   {"column 'label' of int64, float64 or fixed-length strings",
                    "found a variable-length string", "2026-12-01"});
    H5Sclose(s2);
    H5Tclose(t);
  }
  SECTION("a variable-length sequence inside an array inside a compound column") {
    const hid_t seq = H5Tvlen_create(H5T_NATIVE_INT);
    const hsize_t two = 2;
    const hid_t arr = H5Tarray_create2(seq, 1, &two);
    const hid_t inner = H5Tcreate(H5T_COMPOUND, H5Tget_size(arr));
    H5Tinsert(inner, "pair", 0, arr);
    const hid_t t = H5Tcreate(H5T_COMPOUND, 8 + H5Tget_size(inner));
    H5Tinsert(t, "step", 0, H5T_NATIVE_INT64);
    H5Tinsert(t, "nested", 8, inner);
    const hsize_t n = 1;
    const hid_t s1 = H5Screate_simple(1, &n, nullptr);
    patch(path, [&](hid_t f) { replace_dataset(f, "/app/history", t, s1, nullptr); });
    expect_refused(path, "/app/history", {"column 'nested'", "holding variable-length data"});
    H5Sclose(s1);
    H5Tclose(t);
    H5Tclose(inner);
    H5Tclose(arr);
    H5Tclose(seq);
  }
  H5Tclose(vstr);
  H5Sclose(scalar);
}

// A file is refused before libhdf5 parses it unless its superblock is version 2: the format
// in which libhdf5 checksums every object header, B-tree and heap block it reads.
TEST_CASE("a file of the older HDF5 format (superblock 0, no checksums) is refused unparsed") {
  ScratchDir dir("hostile_h5_test");
  const std::string path = (dir.path / "old-format.h5").string();
  const hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
  H5Pset_userblock(fcpl, seal::kUserBlockBytes);
  const hid_t f = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl, H5P_DEFAULT);  // earliest format
  REQUIRE(f >= 0);
  H5Pclose(fcpl);
  REQUIRE(H5Fclose(f) >= 0);
  seal::seal_file(path);
  expect_refused(path, "", {"superblock version 2", "found version 0",
                            "files written before 2026-12-01 must be written again"});
}

namespace {

// Every type in the file holding variable-length data, as "<object>[@attribute]".
struct VariableLengthFinder {
  std::vector<std::string> found;
  static bool variable(hid_t t) {
    switch (H5Tget_class(t)) {
      case H5T_STRING: return H5Tis_variable_str(t) > 0;
      case H5T_VLEN: return true;
      case H5T_ARRAY: {
        const hid_t base = H5Tget_super(t);
        const bool v = variable(base);
        H5Tclose(base);
        return v;
      }
      case H5T_COMPOUND: {
        bool v = false;
        for (int j = 0; j < H5Tget_nmembers(t); ++j) {
          const hid_t m = H5Tget_member_type(t, static_cast<unsigned>(j));
          v = v || variable(m);
          H5Tclose(m);
        }
        return v;
      }
      default: return false;
    }
  }
  static herr_t attribute(hid_t obj, const char* name, const H5A_info_t*, void* self) {
    const hid_t a = H5Aopen(obj, name, H5P_DEFAULT);
    const hid_t t = H5Aget_type(a);
    if (variable(t)) static_cast<VariableLengthFinder*>(self)->found.push_back(std::string("@") + name);
    H5Tclose(t);
    H5Aclose(a);
    return 0;
  }
  static herr_t object(hid_t root, const char* name, const H5O_info_t* info, void* self) {
    auto* me = static_cast<VariableLengthFinder*>(self);
    const hid_t obj = H5Oopen(root, name, H5P_DEFAULT);
    hsize_t idx = 0;
    const std::size_t before = me->found.size();
    H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, &idx, attribute, self);
    for (std::size_t i = before; i < me->found.size(); ++i) me->found[i] = name + me->found[i];
    if (info->type == H5O_TYPE_DATASET) {
      const hid_t t = H5Dget_type(obj);
      if (variable(t)) me->found.push_back(name);
      H5Tclose(t);
    }
    H5Oclose(obj);
    return 0;
  }
};

}  // namespace

TEST_CASE("the writer stores fixed-length strings only, in the checksummed format") {
  ScratchDir dir("hostile_h5_test");
  Recorder rec(2);
  const PhaseId solve = rec.define_phase("solve");
  rec.add_time(solve, 1.5, 1);
  rec.record_interval(solve, rec.origin() + 10, rec.origin() + 20, -1, 0, 5);
  ResultsDocument doc;
  doc.run = gather_results(rec, make_run_info("fixed-strings-test", MPI_COMM_SELF), MPI_COMM_SELF);
  doc.write_trace = true;
  // A deck of 100 kB: larger than an object header message (64 KiB) can hold.
  doc.run.info.input_text = std::string(100000, 'x') + "\nlast line\n";
  doc.run.info.inputs["with_nul"] = std::string("before\0after", 12);
  doc.run.info.inputs["empty"] = "";
  doc.comparison.add({.model = "toy", .term = "T", .measured = 2.0, .modelled = 2.2, .source = "s"});
  doc.comparison.add({.model = "a longer model name", .term = "T2", .measured = 1.0, .modelled = 1.1,
                      .source = "", .kind = RowKind::part});
  doc.extras.add_table("/app/table").columns = {
      Column::of("name", "", std::vector<std::string>{"", "ab", "a much longer name"}),
      Column::of("n", "cells", std::vector<int>{1, 2, 3})};
  doc.extras.add_array(Array::of("/app/a", {2}, {"i"}, "s", std::vector<double>{1, 2}));
  doc.extras.set_attribute("/app", "label", std::string("ünïcode"));
  const std::string path = (dir.path / "fixed.h5").string();
  write_results(path, doc);

  const hid_t f = H5Fopen(path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  REQUIRE(f >= 0);
  H5F_info2_t info{};
  REQUIRE(H5Fget_info2(f, &info) >= 0);
  CHECK(info.super.version == 2);
  VariableLengthFinder finder;
  REQUIRE(H5Ovisit2(f, H5_INDEX_NAME, H5_ITER_INC, VariableLengthFinder::object, &finder,
                    H5O_INFO_BASIC) >= 0);
  H5Fclose(f);
  INFO("variable-length types at: " << [&] {
    std::string all;
    for (const auto& w : finder.found) all += w + " ";
    return all;
  }());
  CHECK(finder.found.empty());

  const ResultsDocument back = read_results(path);
  CHECK(back.run.info.input_text == doc.run.info.input_text);
  CHECK(back.run.info.inputs.at("with_nul") == "before");  // a C string, as it always was
  CHECK(back.run.info.inputs.at("empty").empty());
  REQUIRE(back.comparison.rows().size() == 2);
  CHECK(back.comparison.rows()[1].model == "a longer model name");
  CHECK(back.comparison.rows()[1].source.empty());
  const Table* t = back.extras.find_table("/app/table");
  REQUIRE(t != nullptr);
  CHECK(std::get<std::vector<std::string>>(t->columns.at(0).values) ==
        std::vector<std::string>{"", "ab", "a much longer name"});
  CHECK(std::get<std::string>(back.extras.group_attributes.at("/app").at("label")) == "ünïcode");
  CHECK(back.run.trace.kinds == doc.run.trace.kinds);
}

// Dense storage puts an object's attributes or a group's links in a fractal heap, whose
// blocks libhdf5 reads without a checksum: one damaged byte in the link heap of /phases
// crashed it (an invalid free in H5G__link_release_table under H5Literate; the seal-aware
// fuzz_results_bytes found it after 217 inputs). The writer keeps both in the object header;
// the reader refuses dense storage before it lists or reads anything there.
TEST_CASE("dense link or attribute storage is refused before it is read") {
  ScratchDir dir("hostile_h5_test");
  const std::string path = write_genuine(dir.path);
  SECTION("a group with its links in dense storage") {
    patch(path, [](hid_t f) {
      const hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
      REQUIRE(H5Pset_link_phase_change(gcpl, 0, 0) >= 0);  // dense from the first link
      const hid_t g = H5Gcreate2(f, "/app/many", H5P_DEFAULT, gcpl, H5P_DEFAULT);
      REQUIRE(g >= 0);
      H5Gclose(H5Gcreate2(g, "child", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
      H5Gclose(g);
      H5Pclose(gcpl);
    });
    expect_refused(path, "/app/many", {"links in its header", "dense link storage"});
  }
  SECTION("a group with its attributes in dense storage") {
    patch(path, [](hid_t f) {
      const hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
      REQUIRE(H5Pset_attr_phase_change(gcpl, 0, 0) >= 0);  // dense from the first attribute
      const hid_t g = H5Gcreate2(f, "/app/attrs", H5P_DEFAULT, gcpl, H5P_DEFAULT);
      REQUIRE(g >= 0);
      const hid_t s = H5Screate(H5S_SCALAR);
      const double v = 1;
      replace_attribute(g, "x", H5T_IEEE_F64LE, s, &v);
      H5Sclose(s);
      H5Gclose(g);
      H5Pclose(gcpl);
    });
    expect_refused(path, "/app/attrs", {"attributes in the object's header", "1 in dense storage"});
  }
  SECTION("the genuine file's groups, with many links and attributes, are all compact") {
    patch(path, [](hid_t f) {
      const hid_t g = H5Gopen2(f, "/app", H5P_DEFAULT);
      const hid_t s = H5Screate(H5S_SCALAR);
      for (int i = 0; i < 40; ++i) {  // the writer's phase change settings stay with the group
        const std::string n = std::to_string(i), attribute = std::string("a").append(n),
                          group = std::string("g").append(n);
        const double v = i;
        replace_attribute(g, attribute.c_str(), H5T_IEEE_F64LE, s, &v);
        H5Gclose(H5Gcreate2(g, group.c_str(), H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT));
      }
      H5Sclose(s);
      H5Gclose(g);
    });
    const ResultsDocument doc = read_results(path);
    CHECK(doc.extras.group_attributes.at("/app").size() == 40);
  }
}
