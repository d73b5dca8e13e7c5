#include "h5_program.hpp"

#include <fuzzer/FuzzedDataProvider.h>
#include <hdf5.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <limits>
#include <string>
#include <utility>
#include <vector>

namespace fuzz {

namespace {

// Names the results reader and read_calibration look for (results_layout.hpp, the readers),
// and a few a link escape or an odd name would produce.
constexpr std::array<const char*, 63> kNames = {
    "format", "app", "version", "git_describe", "date", "host", "mpi_library", "nranks",
    "threads", "clock", "clock_frequency_hz", "clock_read_ns", "clock_check", "clock_sync",
    "input", "machine", "phases", "counters", "model", "compare", "trace", "sweep3d",
    "calibration", "inclusive", "exclusive", "calls", "kinds", "dropped", "rank_0", "rank_1",
    "clock_offset", "clock_offset_uncertainty", "term", "measured", "modelled", "source", "kind",
    "t_begin", "t_end", "peer", "bytes", "work", "tag", "request", "units", "dims", "equation",
    "column_units", "deck_file", "deck_text", "source_file", "wg_s", "wg_fixup_s",
    "w_before_s_per_cell", "w_after_s_per_cell", "mmi", "mk", "kernel", "sweep", "%2F", "%2E",
    "a%25b", "x"};

constexpr std::array<const char*, 10> kStrings = {
    "suite-results-1", "sweep3d", "total", "part", "avx512", "reference", "", "s", "suite-results-2",
    "bsp"};

constexpr std::array<double, 12> kDoubles = {
    0.0, 1.0, -1.0, 1e-9, 2.5e-6, 1e308, -1e308, 4.9e-324, 1e-300, 1e6,
    std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()};

constexpr std::array<std::int64_t, 12> kInts = {
    0, 1, 2, 3, -1, 6, 1000000, 1000001, 2147483647, 2147483648LL,
    std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max()};

// Extents a dataspace takes: small ones that hold data, and ones too large to read into
// memory (the reader must refuse them, not allocate them).
constexpr std::array<hsize_t, 10> kExtents = {0, 1, 2, 3, 4, 7, 8, 16, hsize_t{1} << 31, hsize_t{1} << 41};

constexpr std::size_t kMaxElements = 4096;  // elements written with data
constexpr std::size_t kMaxPaths = 64;

std::string join(const std::string& parent, const std::string& name) {
  return parent == "/" ? "/" + name : parent + "/" + name;
}

class Program {
 public:
  Program(FuzzedDataProvider& in, hid_t file, std::string file_name)
      : in_(in), file_(file), file_name_(std::move(file_name)) {}

  void skeleton(bool calibration);
  void run();

 private:
  template <class T, std::size_t N>
  const T& pick(const std::array<T, N>& pool) {
    return pool[in_.ConsumeIntegralInRange<std::size_t>(0, N - 1)];
  }
  const std::string& pick(const std::vector<std::string>& v) {
    return v[in_.ConsumeIntegralInRange<std::size_t>(0, v.size() - 1)];
  }
  void remember(std::vector<std::string>& v, const std::string& path) {
    if (v.size() < kMaxPaths) v.push_back(path);
  }

  std::string name();
  std::string text();
  hid_t make_type(int depth);
  hid_t make_space(bool data);
  void fill(hid_t type, unsigned char* at);
  std::vector<unsigned char> values(hid_t type, hid_t space);

  void add_group();
  void add_attribute();
  void add_dataset();
  void add_link();
  void delete_link();
  bool links_its_own_group(const std::string& path);

  // Skeleton helpers: well-formed parts of the layout, values chosen by the input.
  void attr_string(hid_t obj, const char* name, const std::string& value);
  void attr_int(hid_t obj, const char* name, std::int64_t value);
  void attr_double(hid_t obj, const char* name, double value);
  void dataset_doubles(hid_t parent, const char* name, std::size_t n);
  void dataset_ints(hid_t parent, const char* name, std::size_t n);
  void dataset_scalar(hid_t parent, const char* name);
  void compare_table(hid_t parent);

  FuzzedDataProvider& in_;
  hid_t file_;
  std::string file_name_;
  std::vector<std::string> groups_{"/"};
  std::vector<std::string> objects_{"/"};
  std::deque<std::string> strings_;                  // what variable-length strings point to
  std::deque<std::vector<unsigned char>> sequences_;  // what variable-length sequences point to
};

std::string Program::name() {
  if (in_.ConsumeBool()) return pick(kNames);
  return in_.ConsumeRandomLengthString(24);
}

std::string Program::text() {
  if (in_.ConsumeBool()) return pick(kStrings);
  return in_.ConsumeRandomLengthString(64);
}

hid_t Program::make_type(int depth) {
  const int kind = in_.ConsumeIntegralInRange<int>(0, depth < 2 ? 17 : 12);
  switch (kind) {
    case 0: return H5Tcopy(H5T_NATIVE_INT8);
    case 1: return H5Tcopy(H5T_NATIVE_UINT8);
    case 2: return H5Tcopy(H5T_NATIVE_INT16);
    case 3: return H5Tcopy(H5T_NATIVE_INT32);
    case 4: return H5Tcopy(H5T_NATIVE_UINT32);
    case 5: return H5Tcopy(H5T_NATIVE_INT64);
    case 6: return H5Tcopy(H5T_NATIVE_UINT64);
    case 7: return H5Tcopy(H5T_NATIVE_FLOAT);
    case 8: return H5Tcopy(H5T_NATIVE_DOUBLE);
    case 9: return H5Tcopy(H5T_IEEE_F64BE);
    case 10: {  // fixed-length string
      const hid_t t = H5Tcopy(H5T_C_S1);
      H5Tset_size(t, in_.ConsumeIntegralInRange<std::size_t>(1, 48));
      H5Tset_strpad(t, in_.PickValueInArray({H5T_STR_NULLTERM, H5T_STR_NULLPAD, H5T_STR_SPACEPAD}));
      return t;
    }
    case 11: {  // variable-length string: the suite's kind until 2026-12-01, now refused
      const hid_t t = H5Tcopy(H5T_C_S1);
      H5Tset_size(t, H5T_VARIABLE);
      H5Tset_cset(t, in_.ConsumeBool() ? H5T_CSET_UTF8 : H5T_CSET_ASCII);
      return t;
    }
    case 12: {  // the writer's own kind: fixed-length UTF-8, NUL-padded
      const hid_t t = H5Tcopy(H5T_C_S1);
      H5Tset_size(t, in_.ConsumeIntegralInRange<std::size_t>(1, 48));
      H5Tset_strpad(t, H5T_STR_NULLPAD);
      H5Tset_cset(t, H5T_CSET_UTF8);
      return t;
    }
    case 13: {  // compound: a table
      const int n = in_.ConsumeIntegralInRange<int>(0, 6);
      std::vector<hid_t> members;
      std::size_t size = 0;
      for (int i = 0; i < n; ++i) {
        members.push_back(make_type(depth + 1));
        size += H5Tget_size(members.back());
      }
      const hid_t t = H5Tcreate(H5T_COMPOUND, size == 0 ? 1 : size);
      std::size_t offset = 0;
      for (const hid_t m : members) {
        H5Tinsert(t, name().c_str(), offset, m);  // a repeated name is refused: fine
        offset += H5Tget_size(m);
        H5Tclose(m);
      }
      return t;
    }
    case 14: {  // array: an attribute of many strings where one is expected
      const hid_t base = make_type(depth + 1);
      const hsize_t dims[2] = {in_.ConsumeIntegralInRange<hsize_t>(1, 6),
                               in_.ConsumeIntegralInRange<hsize_t>(1, 3)};
      const hid_t t = H5Tarray_create2(base, in_.ConsumeBool() ? 1 : 2, dims);
      H5Tclose(base);
      return t;
    }
    case 15: {  // variable-length sequence
      const hid_t base = make_type(depth + 1);
      const hid_t t = H5Tvlen_create(base);
      H5Tclose(base);
      return t;
    }
    case 16: {
      const hid_t t = H5Tenum_create(H5T_NATIVE_INT);
      for (int v = 0; v < in_.ConsumeIntegralInRange<int>(1, 3); ++v) H5Tenum_insert(t, name().c_str(), &v);
      // An enum whose every insert was refused (an empty name) has no member, and libhdf5
      // 1.10.8 corrupts its heap copying or closing such an enum inside a compound: the SEGV
      // in H5T_close_real under this builder's H5Tclose, first seen after 30,912 inputs
      // (found 2026-11-23 by printing each type made). A type the library cannot hold is not
      // a file the readers could ever meet, so the builder gives every enum a member.
      if (H5Tget_nmembers(t) == 0) {
        const int zero = 0;
        H5Tenum_insert(t, "e0", &zero);
      }
      return t;
    }
    default: return H5Tcreate(H5T_OPAQUE, in_.ConsumeIntegralInRange<std::size_t>(1, 16));
  }
}

hid_t Program::make_space(bool data) {
  switch (in_.ConsumeIntegralInRange<int>(0, 4)) {
    case 0: return H5Screate(H5S_SCALAR);
    case 1: return H5Screate(H5S_NULL);
    default: {
      const int rank = in_.ConsumeIntegralInRange<int>(1, 3);
      hsize_t dims[3];
      for (int i = 0; i < rank; ++i) {
        dims[i] = pick(kExtents);
        if (data && dims[i] > 16) dims[i] = 16;
      }
      return H5Screate_simple(rank, dims, nullptr);
    }
  }
}

// One element of `type` at `at`, from the input (strings and sequences point into storage
// that lives until the program ends).
void Program::fill(hid_t type, unsigned char* at) {
  const std::size_t size = H5Tget_size(type);
  switch (H5Tget_class(type)) {
    case H5T_STRING:
      if (H5Tis_variable_str(type) > 0) {
        if (size < sizeof(const char*)) break;  // not a memory type: raw bytes below
        strings_.push_back(text());
        const char* p = strings_.back().c_str();
        std::memcpy(at, &p, sizeof p);
      } else {
        const std::string s = text();
        std::memcpy(at, s.data(), std::min(s.size(), size));
      }
      return;
    case H5T_COMPOUND:
      for (int i = 0; i < H5Tget_nmembers(type); ++i) {
        const hid_t m = H5Tget_member_type(type, static_cast<unsigned>(i));
        fill(m, at + H5Tget_member_offset(type, static_cast<unsigned>(i)));
        H5Tclose(m);
      }
      return;
    case H5T_ARRAY: {
      const hid_t base = H5Tget_super(type);
      const std::size_t step = H5Tget_size(base);
      for (std::size_t k = 0; step && k < size / step; ++k) fill(base, at + k * step);
      H5Tclose(base);
      return;
    }
    case H5T_VLEN: {
      // A file's vlen type can be narrower than hvl_t (4-byte addresses make it 12 bytes):
      // then raw bytes, as for any type that is not a memory type.
      if (size < sizeof(hvl_t)) break;
      const hid_t base = H5Tget_super(type);
      const std::size_t step = H5Tget_size(base);
      const std::size_t len = in_.ConsumeIntegralInRange<std::size_t>(0, 4);
      // This level's storage, held by pointer: a nested sequence appends its own, so
      // sequences_.back() is not this one after the first element.
      unsigned char* const sequence = sequences_.emplace_back(len * step + 1).data();
      for (std::size_t k = 0; k < len; ++k) fill(base, sequence + k * step);
      H5Tclose(base);
      const hvl_t v{len, sequence};
      std::memcpy(at, &v, sizeof v);
      return;
    }
    case H5T_INTEGER:
      if (size == 8 && in_.ConsumeBool()) {
        std::memcpy(at, &pick(kInts), 8);
        return;
      }
      break;
    case H5T_FLOAT:
      if (size == 8 && in_.ConsumeBool()) {
        double d = pick(kDoubles);
        if (H5Tget_order(type) == H5T_ORDER_BE) {  // the value, not its bytes, is what we pick
          unsigned char b[8];
          std::memcpy(b, &d, 8);
          for (int i = 0; i < 4; ++i) std::swap(b[i], b[7 - i]);
          std::memcpy(&d, b, 8);
        }
        std::memcpy(at, &d, 8);
        return;
      }
      break;
    default: break;
  }
  const auto bytes = in_.ConsumeBytes<unsigned char>(size);
  if (!bytes.empty()) std::memcpy(at, bytes.data(), bytes.size());
}

std::vector<unsigned char> Program::values(hid_t type, hid_t space) {
  const hssize_t n = H5Sget_simple_extent_npoints(space);
  const std::size_t size = H5Tget_size(type);
  if (n < 0 || static_cast<std::size_t>(n) > kMaxElements) return {};
  std::vector<unsigned char> buf(static_cast<std::size_t>(n) * size + 1, 0);
  for (std::size_t k = 0; k < static_cast<std::size_t>(n); ++k) fill(type, buf.data() + k * size);
  return buf;
}

// A group creation list keeping attributes and links in the header, as the writer's groups
// (the library's default moves them to dense storage past 8, which the reader refuses).
hid_t compact_group_list() {
  const hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
  H5Pset_attr_phase_change(gcpl, 65535, 0);
  H5Pset_link_phase_change(gcpl, 65535, 0);
  return gcpl;
}

void Program::add_group() {
  const std::string path = join(pick(groups_), name());
  const hid_t gcpl = in_.ConsumeBool() ? compact_group_list() : H5Pcreate(H5P_GROUP_CREATE);
  const hid_t g = H5Gcreate2(file_, path.c_str(), H5P_DEFAULT, gcpl, H5P_DEFAULT);
  H5Pclose(gcpl);
  if (g < 0) return;
  H5Gclose(g);
  remember(groups_, path);
  remember(objects_, path);
}

void Program::add_attribute() {
  const hid_t obj = H5Oopen(file_, pick(objects_).c_str(), H5P_DEFAULT);
  if (obj < 0) return;
  const hid_t type = make_type(0);
  const hid_t space = make_space(true);
  const hid_t a = H5Acreate2(obj, name().c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT);
  if (a >= 0) {
    const auto buf = values(type, space);
    if (!buf.empty()) H5Awrite(a, type, buf.data());
    H5Aclose(a);
  }
  H5Sclose(space);
  H5Tclose(type);
  H5Oclose(obj);
}

void Program::add_dataset() {
  const std::string path = join(pick(groups_), name());
  const hid_t type = make_type(0);
  const hid_t space = make_space(false);
  const hid_t d = H5Dcreate2(file_, path.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (d >= 0) {
    const auto buf = values(type, space);  // none for a huge extent: it reads as fill values
    if (!buf.empty()) H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data());
    H5Dclose(d);
    remember(objects_, path);
  }
  H5Sclose(space);
  H5Tclose(type);
}

void Program::add_link() {
  const std::string path = join(pick(groups_), name());
  switch (in_.ConsumeIntegralInRange<int>(0, 2)) {
    case 0: {  // hard: a target among the new link's ancestors makes a cycle
      const std::string target = pick(objects_);
      if (H5Lcreate_hard(file_, target.c_str(), file_, path.c_str(), H5P_DEFAULT, H5P_DEFAULT) >= 0) {
        remember(objects_, path);
        if (std::find(groups_.begin(), groups_.end(), target) != groups_.end()) remember(groups_, path);
      }
      return;
    }
    case 1: {  // soft: to an object, to itself, or to nothing
      const std::string target = in_.ConsumeBool() ? pick(objects_) : in_.ConsumeBool() ? path : text();
      H5Lcreate_soft(target.c_str(), file_, path.c_str(), H5P_DEFAULT, H5P_DEFAULT);
      return;
    }
    default: {  // external: into this same file, or a file that is not there
      const std::string target_file = in_.ConsumeBool() ? file_name_ : "/nonexistent/suite-fuzz.h5";
      H5Lcreate_external(target_file.c_str(), pick(objects_).c_str(), file_, path.c_str(), H5P_DEFAULT,
                         H5P_DEFAULT);
      return;
    }
  }
}

// True when `path` (as HDF5 reads it: up to a NUL) is a hard link held by the very group it
// points to: a group linked into itself, under any of its names ("/x" to "/", or "/x/y" to
// "/" when "/x" is itself "/").
bool Program::links_its_own_group(const std::string& path) {
  std::string link = path.c_str();
  while (link.size() > 1 && link.back() == '/') link.pop_back();
  const std::size_t slash = link.find_last_of('/');
  if (slash == std::string::npos || link == "/") return false;
  const std::string holder = slash == 0 ? "/" : link.substr(0, slash);
  H5L_info_t li;
  H5O_info_t group;
  if (H5Lget_info(file_, link.c_str(), &li, H5P_DEFAULT) < 0 || li.type != H5L_TYPE_HARD) return false;
  if (H5Oget_info_by_name2(file_, holder.c_str(), &group, H5O_INFO_BASIC, H5P_DEFAULT) < 0) return false;
  return li.u.address == group.addr;
}

void Program::delete_link() {
  const std::string& path = pick(objects_);
  if (path == "/") return;
  // libhdf5 1.10.8 cannot delete a group's hard link to itself: removing that link message
  // from the group's header also decrements the same header's link count, and the message
  // stays in the header while the link count and the group's link total drop (a second
  // delete then takes the count to 0 and H5O_delete fails on the header it holds, "Target
  // already protected"). Listing the links overruns the table built from the total, and the
  // file cannot be closed ("objects still in open object info set"); H5close then crashes.
  // Found by scripts/fuzz.sh 60 as identifiers left open after H5Fclose, 2026-12-01. A file
  // never holds what was deleted, so the readers lose nothing: the builder keeps such a link
  // (the cycle of one, which the readers do meet) and never deletes it.
  if (links_its_own_group(path)) return;
  H5Ldelete(file_, path.c_str(), H5P_DEFAULT);
}

void Program::run() {
  int budget = 64;  // operations; bounds the time one input takes
  while (in_.remaining_bytes() > 0 && budget-- > 0) {
    switch (in_.ConsumeIntegralInRange<int>(0, 9)) {
      case 0:
      case 1: add_group(); break;
      case 2:
      case 3:
      case 4: add_attribute(); break;
      case 5:
      case 6: add_dataset(); break;
      case 7:
      case 8: add_link(); break;
      default: delete_link(); break;
    }
  }
}

// ---- the skeleton: a complete results file, its values from the input --------------------

// A fixed-length, NUL-padded UTF-8 string type of `width` bytes, as the writer makes them.
hid_t writer_string(std::size_t width) {
  const hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, width == 0 ? 1 : width);
  H5Tset_strpad(type, H5T_STR_NULLPAD);
  H5Tset_cset(type, H5T_CSET_UTF8);
  return type;
}

void Program::attr_string(hid_t obj, const char* name, const std::string& value) {
  const hid_t type = writer_string(value.size());
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  std::string bytes = value;
  bytes.resize(H5Tget_size(type), '\0');
  if (a >= 0) {
    H5Awrite(a, type, bytes.data());
    H5Aclose(a);
  }
  H5Sclose(space);
  H5Tclose(type);
}

void Program::attr_int(hid_t obj, const char* name, std::int64_t value) {
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(obj, name, H5T_NATIVE_INT64, space, H5P_DEFAULT, H5P_DEFAULT);
  if (a >= 0) {
    H5Awrite(a, H5T_NATIVE_INT64, &value);
    H5Aclose(a);
  }
  H5Sclose(space);
}

void Program::attr_double(hid_t obj, const char* name, double value) {
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t a = H5Acreate2(obj, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT);
  if (a >= 0) {
    H5Awrite(a, H5T_NATIVE_DOUBLE, &value);
    H5Aclose(a);
  }
  H5Sclose(space);
}

void Program::dataset_doubles(hid_t parent, const char* name, std::size_t n) {
  std::vector<double> v(n);
  for (auto& x : v) x = in_.ConsumeBool() ? pick(kDoubles) : in_.ConsumeFloatingPoint<double>();
  const hsize_t dims[1] = {n};
  const hid_t space = H5Screate_simple(1, dims, nullptr);
  const hid_t d = H5Dcreate2(parent, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (d >= 0) {
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    H5Dclose(d);
  }
  H5Sclose(space);
}

void Program::dataset_ints(hid_t parent, const char* name, std::size_t n) {
  std::vector<std::int64_t> v(n);
  for (auto& x : v) x = pick(kInts);
  const hsize_t dims[1] = {n};
  const hid_t space = H5Screate_simple(1, dims, nullptr);
  const hid_t d = H5Dcreate2(parent, name, H5T_NATIVE_INT64, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (d >= 0) {
    H5Dwrite(d, H5T_NATIVE_INT64, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data());
    H5Dclose(d);
  }
  H5Sclose(space);
}

void Program::dataset_scalar(hid_t parent, const char* name) {
  const double v = pick(kDoubles);
  const hid_t space = H5Screate(H5S_SCALAR);
  const hid_t d = H5Dcreate2(parent, name, H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (d >= 0) {
    H5Dwrite(d, H5T_NATIVE_DOUBLE, H5S_ALL, H5S_ALL, H5P_DEFAULT, &v);
    H5Dclose(d);
  }
  H5Sclose(space);
}

// /compare as the writer makes it: a compound of fixed-length strings (16 bytes here) and
// doubles, one row per term.
void Program::compare_table(hid_t parent) {
  constexpr std::size_t kText = 16;
  struct Row {
    char model[kText], term[kText];
    double measured, modelled;
    char source[kText], kind[kText];
  };
  const hid_t str = writer_string(kText);
  const hid_t row = H5Tcreate(H5T_COMPOUND, sizeof(Row));
  H5Tinsert(row, "model", HOFFSET(Row, model), str);
  H5Tinsert(row, "term", HOFFSET(Row, term), str);
  H5Tinsert(row, "measured", HOFFSET(Row, measured), H5T_NATIVE_DOUBLE);
  H5Tinsert(row, "modelled", HOFFSET(Row, modelled), H5T_NATIVE_DOUBLE);
  H5Tinsert(row, "source", HOFFSET(Row, source), str);
  H5Tinsert(row, "kind", HOFFSET(Row, kind), str);
  const auto put = [&](char (&slot)[kText], const std::string& text) {
    std::memset(slot, 0, kText);
    std::memcpy(slot, text.data(), std::min(text.size(), kText));
  };
  std::vector<Row> rows(in_.ConsumeIntegralInRange<std::size_t>(0, 3));
  for (auto& r : rows) {
    put(r.model, text());
    put(r.term, text());
    r.measured = pick(kDoubles);
    r.modelled = pick(kDoubles);
    put(r.source, text());
    put(r.kind, in_.ConsumeBool() ? "total" : "part");
  }
  const hsize_t dims[1] = {rows.size()};
  const hid_t space = H5Screate_simple(1, dims, nullptr);
  const hid_t d = H5Dcreate2(parent, "compare", row, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  if (d >= 0) {
    if (!rows.empty()) H5Dwrite(d, row, H5S_ALL, H5S_ALL, H5P_DEFAULT, rows.data());
    H5Dclose(d);
  }
  H5Sclose(space);
  H5Tclose(row);
  H5Tclose(str);
}

void Program::skeleton(bool calibration) {
  const hid_t root = H5Gopen2(file_, "/", H5P_DEFAULT);
  const std::int64_t nranks = in_.ConsumeIntegralInRange<std::int64_t>(1, 3);
  attr_string(root, "format", "suite-results-1");
  attr_string(root, "app", calibration ? "sweep3d" : text());
  for (const char* key : {"version", "git_describe", "date", "host", "mpi_library"})
    attr_string(root, key, text());
  attr_int(root, "nranks", nranks);
  attr_int(root, "threads", 1);
  const auto n = static_cast<std::size_t>(nranks);
  const hid_t gcpl = compact_group_list();
  for (const char* g : {"input", "machine", "phases", "counters", "model"}) {
    const hid_t h = H5Gcreate2(root, g, H5P_DEFAULT, gcpl, H5P_DEFAULT);
    if (std::string(g) == "phases") {
      const hid_t p = H5Gcreate2(h, "sweep", H5P_DEFAULT, gcpl, H5P_DEFAULT);
      dataset_doubles(p, "inclusive", n);
      dataset_doubles(p, "exclusive", n);
      dataset_ints(p, "calls", n);
      H5Gclose(p);
      remember(groups_, "/phases/sweep");
    } else if (std::string(g) == "counters") {
      dataset_ints(h, "messages", n);
    } else if (std::string(g) == "model") {
      const hid_t m = H5Gcreate2(h, "loggp", H5P_DEFAULT, gcpl, H5P_DEFAULT);
      dataset_scalar(m, "T_total");
      H5Gclose(m);
      remember(groups_, "/model/loggp");
    } else if (std::string(g) == "input") {
      attr_string(h, "deck_text", text());
    }
    H5Gclose(h);
    remember(groups_, std::string("/") + g);
    remember(objects_, std::string("/") + g);
  }
  compare_table(root);
  if (calibration) {
    const hid_t s = H5Gcreate2(root, "sweep3d", H5P_DEFAULT, gcpl, H5P_DEFAULT);
    const hid_t c = H5Gcreate2(s, "calibration", H5P_DEFAULT, gcpl, H5P_DEFAULT);
    for (const char* key : {"wg_s", "wg_fixup_s", "w_before_s_per_cell", "w_after_s_per_cell"})
      attr_double(c, key, pick(kDoubles));
    for (const char* key : {"mmi", "mk", "threads"}) attr_int(c, key, pick(kInts));
    attr_string(c, "kernel", text());
    H5Gclose(c);
    H5Gclose(s);
    remember(groups_, "/sweep3d");
    remember(groups_, "/sweep3d/calibration");
    remember(objects_, "/sweep3d/calibration");
  }
  H5Pclose(gcpl);
  H5Gclose(root);
}

}  // namespace

void build_h5_file(const std::uint8_t* data, std::size_t size, const std::string& path) {
  H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr);  // refused calls are part of the game
  FuzzedDataProvider in(data, size);
  const unsigned flags = in.ConsumeIntegral<std::uint8_t>();
  // Built in memory, written to `path` once at close (the core driver's backing store).
  const hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_fapl_core(fapl, 1 << 16, 1);
  H5Pset_fclose_degree(fapl, H5F_CLOSE_STRONG);
  // The writer's file format (HDF5 1.8, superblock 2): the reader refuses older ones unread.
  H5Pset_libver_bounds(fapl, H5F_LIBVER_V18, H5F_LIBVER_V18);
  // Links in creation order, as the writer's groups have them, half of the time.
  const hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
  H5Pset_userblock(fcpl, 512);  // where the results seal goes, as the writer's files have it
  H5Pset_attr_phase_change(fcpl, 65535, 0);  // the root's attributes and links in its header
  H5Pset_link_phase_change(fcpl, 65535, 0);
  if (flags & 4) H5Pset_link_creation_order(fcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
  const hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl, fapl);
  H5Pclose(fcpl);
  H5Pclose(fapl);
  if (file < 0) {
    std::fprintf(stderr, "h5_program: cannot create %s\n", path.c_str());
    std::abort();  // the set-up is broken (or a reader kept the file open): stop at once
  }
  {
    Program program(in, file, path);
    if (flags & 1) program.skeleton((flags & 2) != 0);
    program.run();
  }
  H5Fclose(file);
}

}  // namespace fuzz
