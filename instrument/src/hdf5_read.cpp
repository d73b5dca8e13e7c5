// Reading the results file: every object's kind, dataspace and type checked before a read
// (see hdf5_io.hpp). Nothing here trusts a size, a rank or a type the file declares.
#include <algorithm>
#include <cstring>
#include <limits>

#include "hdf5_io.hpp"

namespace instrument::h5 {

namespace {

// Dataset reads convert types through a buffer (and a background buffer) that HDF5 would
// allocate and zero at every read, 1 MiB by default, far more than our tables of tens of rows
// need: it showed as the largest cost of the results fuzz targets. Given buffers of our own,
// HDF5 allocates none; 64 KiB holds a whole table, larger reads convert in strips. Reads are
// sequential (HDF5 is not thread-safe here), so one pair serves them all.
hid_t transfer() {
  static constexpr std::size_t kBytes = std::size_t{64} << 10;
  static std::vector<unsigned char> conversion(kBytes), background(kBytes);
  static const hid_t dxpl = [] {
    const hid_t p = H5Pcreate(H5P_DATASET_XFER);
    if (p >= 0) H5Pset_buffer(p, kBytes, conversion.data(), background.data());
    return p;
  }();
  return dxpl >= 0 ? dxpl : H5P_DEFAULT;
}

constexpr std::uint64_t kMiB = std::uint64_t{1} << 20;
// A fixed-length string longer than this is not text we wrote (a deck is at most 1 MiB).
constexpr std::size_t kMaxFixedString = 16 * kMiB;
constexpr unsigned kMaxMembers = 4096;  // table columns

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a)
    return std::numeric_limits<std::uint64_t>::max();
  return a * b;
}

// ---- what the file declares, in words ----------------------------------------------------

std::string describe_type(hid_t t) {
  const std::size_t size = H5Tget_size(t);
  const std::string bytes = std::to_string(size) + "-byte ";
  switch (H5Tget_class(t)) {
    case H5T_INTEGER:
      return bytes + (H5Tget_sign(t) == H5T_SGN_NONE ? "unsigned integer" : "integer");
    case H5T_FLOAT: return bytes + "float";
    case H5T_STRING:
      return H5Tis_variable_str(t) > 0 ? "variable-length string" : bytes + "fixed-length string";
    case H5T_COMPOUND: return "compound of " + std::to_string(H5Tget_nmembers(t)) + " members";
    case H5T_ENUM: return "enum";
    case H5T_ARRAY: return "array type";
    case H5T_VLEN: return "variable-length sequence";
    case H5T_OPAQUE: return "opaque type";
    case H5T_BITFIELD: return "bitfield";
    case H5T_REFERENCE: return "reference";
    case H5T_TIME: return "time type";
    default: return "unknown type";
  }
}

// A dataspace as declared: scalar (rank 0), null, or simple with its dims.
struct Shape {
  H5S_class_t kind = H5S_NO_CLASS;
  std::vector<hsize_t> dims;
  std::uint64_t count() const {  // saturates: dims may multiply past 2^64
    if (kind == H5S_NULL) return 0;
    std::uint64_t n = 1;
    for (hsize_t d : dims) n = saturating_mul(n, d);
    return n;
  }
};

Shape shape_of(hid_t space, const std::string& where) {
  Shape s;
  s.kind = H5Sget_simple_extent_type(space);
  if (s.kind == H5S_SIMPLE) {
    const int nd = H5Sget_simple_extent_ndims(space);
    if (nd < 0 || nd > H5S_MAX_RANK) throw Refusal(where, "expected a readable dataspace");
    s.dims.resize(static_cast<std::size_t>(nd));
    if (nd > 0 && H5Sget_simple_extent_dims(space, s.dims.data(), nullptr) < 0)
      throw Refusal(where, "expected a readable dataspace");
  } else if (s.kind != H5S_SCALAR && s.kind != H5S_NULL) {
    throw Refusal(where, "expected a readable dataspace");
  }
  return s;
}

std::string describe(const Shape& s, hid_t type) {
  const std::string t = describe_type(type);
  if (s.kind == H5S_SCALAR) return "a scalar " + t;
  if (s.kind == H5S_NULL) return "an empty (null) dataspace of " + t;
  std::string dims;
  for (std::size_t i = 0; i < s.dims.size(); ++i)
    dims += (i ? " x " : "") + std::to_string(s.dims[i]);
  return "a " + std::to_string(s.dims.size()) + "-D [" + dims + "] array of " + t;
}

// ---- types we accept ---------------------------------------------------------------------

// Reads exactly into int64: signed up to 8 bytes, unsigned up to 7 (8 could exceed int64).
bool fits_int64(hid_t t) {
  const std::size_t size = H5Tget_size(t);
  return H5Tget_class(t) == H5T_INTEGER && size >= 1 &&
         (H5Tget_sign(t) == H5T_SGN_NONE ? size < 8 : size <= 8);
}
bool fits_double(hid_t t) {
  const std::size_t size = H5Tget_size(t);
  return H5Tget_class(t) == H5T_FLOAT && (size == 4 || size == 8);
}
bool is_string(hid_t t) { return H5Tget_class(t) == H5T_STRING; }

// ---- variable-length data: refused before any read -----------------------------------------

// When the refused files were last written: files of the suite from before then hold
// variable-length strings.
constexpr const char* kRewrite = "files written before 2026-12-01 must be written again";

// True when an element of `t` holds variable-length data anywhere: a variable-length string
// or sequence (or a reference), or a compound or array with one inside (at any depth). Such data live in the
// global heap, found through references in the element; libhdf5 1.10 follows a damaged one
// without checking it (a SEGV in H5HG_read under H5T__conv_vlen) and sizes its buffers by
// lengths the file declares (6 GB for two damaged bytes). A type it cannot describe counts
// as variable-length: refused as well.
bool holds_variable_length(hid_t t, int depth = 0) {
  if (depth > 32) return true;  // HDF5 nests no deeper in a file of ours (or any sane one)
  switch (H5Tget_class(t)) {
    case H5T_STRING: return H5Tis_variable_str(t) != 0;  // < 0: undescribable, refused
    case H5T_VLEN: return true;
    case H5T_REFERENCE: return true;  // a region reference points into the global heap too
    case H5T_ARRAY: {
      const hid_t base = H5Tget_super(t);
      if (base < 0) return true;
      const bool v = holds_variable_length(base, depth + 1);
      H5Tclose(base);
      return v;
    }
    case H5T_COMPOUND: {
      const int n = H5Tget_nmembers(t);
      if (n < 0) return true;
      for (unsigned j = 0; j < static_cast<unsigned>(n); ++j) {
        const hid_t m = H5Tget_member_type(t, j);
        if (m < 0) return true;
        const bool v = holds_variable_length(m, depth + 1);
        H5Tclose(m);
        if (v) return true;
      }
      return false;
    }
    case H5T_NO_CLASS: return true;
    default: return false;  // integers, floats, enums (integer based), opaque, bitfields, ...
  }
}

// Throws the refusal for a type holding variable-length data, before anything is read:
// "expected <what>, found a variable-length string (...)"; `what` defaults to a
// fixed-length string, or data of fixed size for other types.
void require_fixed_length(hid_t t, const std::string& where, std::string what = "") {
  if (!holds_variable_length(t)) return;
  const bool text = H5Tget_class(t) == H5T_STRING;
  if (what.empty()) what = text ? "a fixed-length string" : "data of fixed size";
  throw Refusal(where, "expected " + what + ", found " +
                           (text ? std::string("a variable-length string")
                                 : describe_type(t) + " holding variable-length data or references") +
                           " (not read: the suite stores fixed-length strings; " + kRewrite + ")");
}

// ---- strings -------------------------------------------------------------------------------

// A fixed-length string's bytes as HDF5 defines its padding; a NUL inside the text (with
// other bytes after it) would silently cut it, so it is refused.
std::string fixed_string(const char* p, std::size_t size, H5T_str_t pad, const std::string& where) {
  std::string s(p, size);
  if (pad == H5T_STR_SPACEPAD) {
    while (!s.empty() && s.back() == ' ') s.pop_back();
  } else {
    while (!s.empty() && s.back() == '\0') s.pop_back();
  }
  if (s.find('\0') != std::string::npos)
    throw Refusal(where, "expected text without NUL bytes, found a NUL at byte " +
                             std::to_string(s.find('\0')) + " of a fixed-length string");
  return s;
}

// n fixed-length string elements of an attribute (is_attr) or a whole dataset; a
// variable-length string is refused before anything is read.
std::vector<std::string> read_string_elements(hid_t obj, bool is_attr, hid_t file_type,
                                              std::uint64_t n, const std::string& where,
                                              ReadBudget& budget) {
  require_fixed_length(file_type, where);
  std::vector<std::string> out;
  if (n == 0) return out;
  const std::size_t size = H5Tget_size(file_type);
  if (size == 0 || size > kMaxFixedString)
    throw Refusal(where, "expected a string of at most " + std::to_string(kMaxFixedString) +
                             " bytes, found a " + std::to_string(size) + "-byte fixed-length string");
  budget.charge(saturating_mul(n, size), where, std::to_string(n) + " fixed-length strings");
  std::vector<char> buf(static_cast<std::size_t>(n) * size);
  Handle mem(H5Tcopy(file_type), where);
  check(is_attr ? H5Aread(obj, mem, buf.data())
                : H5Dread(obj, mem, H5S_ALL, H5S_ALL, transfer(), buf.data()),
        "reading " + where);
  const H5T_str_t pad = H5Tget_strpad(file_type);
  for (std::uint64_t i = 0; i < n; ++i) out.push_back(fixed_string(buf.data() + i * size, size, pad, where));
  return out;
}

// ---- datasets ------------------------------------------------------------------------------

// Storage our reader can bound: no data in other files (external storage, virtual
// datasets), no filters (a decompressor's output is not bounded by the file), no chunks.
void require_plain_storage(hid_t dataset, const std::string& where) {
  Handle dcpl(H5Dget_create_plist(dataset), "reading the storage of " + where);
  const H5D_layout_t layout = H5Pget_layout(dcpl);
  if (layout == H5D_VIRTUAL)
    throw Refusal(where, "expected data stored in this file, found a virtual dataset");
  if (H5Pget_external_count(dcpl) > 0)
    throw Refusal(where, "expected data stored in this file, found external storage");
  const int filters = H5Pget_nfilters(dcpl);
  if (filters != 0)
    throw Refusal(where, "expected unfiltered storage (the writer never compresses), found " +
                             std::to_string(filters) + " filter(s)");
  // The chunk index (a version-1 B-tree under the format the writer uses) has no checksum,
  // unlike every other piece of metadata of our files: libhdf5 would walk a damaged one.
  if (layout != H5D_CONTIGUOUS && layout != H5D_COMPACT)
    throw Refusal(where, std::string("expected contiguous or compact storage (the writer never "
                                     "chunks), found ") +
                             (layout == H5D_CHUNKED ? "chunked storage" : "an unknown layout"));
}

struct DatasetInfo {
  Handle type, space;
  Shape shape;
};

DatasetInfo inspect(hid_t dataset, const std::string& where) {
  DatasetInfo d;
  d.type = Handle(H5Dget_type(dataset), "reading the type of " + where);
  d.space = Handle(H5Dget_space(dataset), "reading the dataspace of " + where);
  d.shape = shape_of(d.space, where);
  return d;
}

std::string rank_words(int rank) {
  if (rank == 0) return "a scalar";
  if (rank == kAnyRank) return "an array";
  return "a " + std::to_string(rank) + "-D array";
}

void require_rank(const DatasetInfo& d, int rank, const std::string& expected,
                  const std::string& where) {
  const int have = d.shape.kind == H5S_SIMPLE ? static_cast<int>(d.shape.dims.size())
                   : d.shape.kind == H5S_SCALAR ? 0
                                                : -2;
  // A 1-D array is never scalar; `rank 0` accepts only a scalar dataspace.
  const bool ok = have >= 0 && (rank == kAnyRank ? true : have == rank) &&
                  (rank != 0 || d.shape.kind == H5S_SCALAR);
  if (!ok)
    throw Refusal(where, "expected " + rank_words(rank) + " of " + expected + ", found " +
                             describe(d.shape, d.type));
}

template <class T>
std::vector<T> read_numbers(hid_t dataset, const std::string& where, ReadBudget& budget, int rank,
                            bool (*accepts)(hid_t), hid_t mem, const char* expected) {
  const DatasetInfo d = inspect(dataset, where);
  require_rank(d, rank, expected, where);
  if (!accepts(d.type))
    throw Refusal(where, std::string("expected ") + expected + ", found " + describe(d.shape, d.type));
  const std::uint64_t n = d.shape.count();
  budget.charge(saturating_mul(n, sizeof(T)), where, describe(d.shape, d.type));
  require_plain_storage(dataset, where);
  std::vector<T> v(static_cast<std::size_t>(n));
  if (n > 0) check(H5Dread(dataset, mem, H5S_ALL, H5S_ALL, transfer(), v.data()), "reading " + where);
  return v;
}

// One member of a compound dataset, read alone (HDF5 matches members by name).
Column read_member(hid_t dataset, hid_t file_type, unsigned j, std::uint64_t rows,
                   const std::string& where, ReadBudget& budget) {
  Column col;
  char* raw = H5Tget_member_name(file_type, j);
  if (!raw) throw Refusal(where, "expected named table columns");
  col.name = raw;
  H5free_memory(raw);
  const std::string at = where + " column '" + col.name + "'";
  Handle mt(H5Tget_member_type(file_type, j), "reading " + at);
  const auto read_into = [&](hid_t member_mem, std::size_t member_size, void* buf) {
    Handle mem(H5Tcreate(H5T_COMPOUND, member_size), "reading " + at);
    check(H5Tinsert(mem, col.name.c_str(), 0, member_mem), "reading " + at);
    if (rows > 0) check(H5Dread(dataset, mem, H5S_ALL, H5S_ALL, transfer(), buf), "reading " + at);
    return mem;
  };
  if (fits_int64(mt)) {
    budget.charge(saturating_mul(rows, 8), where, std::to_string(rows) + " rows");
    std::vector<std::int64_t> v(static_cast<std::size_t>(rows));
    read_into(H5T_NATIVE_INT64, sizeof(std::int64_t), v.data());
    col.values = std::move(v);
  } else if (fits_double(mt)) {
    budget.charge(saturating_mul(rows, 8), where, std::to_string(rows) + " rows");
    std::vector<double> v(static_cast<std::size_t>(rows));
    read_into(H5T_NATIVE_DOUBLE, sizeof(double), v.data());
    col.values = std::move(v);
  } else if (is_string(mt)) {
    require_fixed_length(mt, at);  // read_table checked every member already; kept local
    const std::size_t size = H5Tget_size(mt);
    if (size == 0 || size > kMaxFixedString)
      throw Refusal(where, "expected column '" + col.name + "' of strings of at most " +
                               std::to_string(kMaxFixedString) + " bytes, found " +
                               describe_type(mt));
    budget.charge(saturating_mul(rows, size), where, std::to_string(rows) + " rows");
    std::vector<char> buf(static_cast<std::size_t>(rows) * size);
    Handle str(H5Tcopy(mt), "reading " + at);
    read_into(str, size, buf.data());
    std::vector<std::string> v;
    const H5T_str_t pad = H5Tget_strpad(mt);
    for (std::uint64_t i = 0; i < rows; ++i) v.push_back(fixed_string(buf.data() + i * size, size, pad, where));
    col.values = std::move(v);
  } else {
    throw Refusal(where, "expected column '" + col.name +
                             "' of int64, float64 or string, found " + describe_type(mt));
  }
  return col;
}

// ---- attributes ----------------------------------------------------------------------------

herr_t collect_attribute_name(hid_t, const char* name, const H5A_info_t*, void* out) {
  try {  // called from C: no exception may cross it
    static_cast<std::vector<std::string>*>(out)->push_back(name);
    return 0;
  } catch (...) {
    return -1;
  }
}

AttributeValue read_scalar_attribute(hid_t attr, hid_t type, const std::string& where,
                                     ReadBudget& budget) {
  if (fits_int64(type)) {
    budget.charge(sizeof(std::int64_t), where, "a scalar integer");
    std::int64_t v = 0;
    check(H5Aread(attr, H5T_NATIVE_INT64, &v), "reading " + where);
    return v;
  }
  if (fits_double(type)) {
    budget.charge(sizeof(double), where, "a scalar float");
    double v = 0;
    check(H5Aread(attr, H5T_NATIVE_DOUBLE, &v), "reading " + where);
    return v;
  }
  if (is_string(type)) return read_string_elements(attr, true, type, 1, where, budget).at(0);
  throw Refusal(where, "expected a scalar int64, float64 or string, found " +
                           describe(Shape{H5S_SCALAR, {}}, type));
}

herr_t collect_link_name(hid_t, const char* name, const H5L_info_t*, void* out) {
  try {  // called from C: no exception may cross it
    static_cast<std::vector<std::string>*>(out)->push_back(name);
    return 0;
  } catch (...) {
    return -1;
  }
}

}  // namespace

// ---- budget ------------------------------------------------------------------------------

ReadBudget::ReadBudget(std::uint64_t file_bytes)
    : file_bytes_(file_bytes), limit_(saturating_mul(file_bytes, 8) + kMiB) {}

void ReadBudget::charge(std::uint64_t bytes, const std::string& where, const std::string& found) {
  if (bytes > limit_ - used_)
    throw Refusal(where, "expected data a results file can hold (at most " +
                             std::to_string(limit_) + " bytes in memory: 8 x the file's " +
                             std::to_string(file_bytes_) + " bytes + 1 MiB, " +
                             std::to_string(used_) + " used so far), found " + found +
                             " needing " + std::to_string(bytes) + " bytes");
  used_ += bytes;
}

// ---- links ---------------------------------------------------------------------------------

bool has_link(hid_t parent, const std::string& name) {
  if (name.empty() || name.find('/', 1) != std::string::npos) return false;  // one component
  const htri_t e = H5Lexists(parent, name.c_str(), H5P_DEFAULT);
  if (e < 0) H5Eclear2(H5E_DEFAULT);
  return e > 0;
}

LinkKind link_kind(hid_t parent, const std::string& name, const std::string& where) {
  if (!has_link(parent, name)) return LinkKind::missing;
  H5L_info_t li{};
  check(H5Lget_info(parent, name.c_str(), &li, H5P_DEFAULT), "reading the link " + where);
  if (li.type == H5L_TYPE_SOFT)
    throw Refusal(where, "expected a group or dataset, found a soft link (not followed: links "
                         "are not part of the format)");
  if (li.type != H5L_TYPE_HARD)
    throw Refusal(where, "expected a group or dataset, found an external or user-defined link "
                         "(not followed: it would open another file)");
  H5O_info_t oi{};
  check(H5Oget_info_by_name2(parent, name.c_str(), &oi, H5O_INFO_BASIC, H5P_DEFAULT),
        "reading " + where);
  if (oi.type == H5O_TYPE_GROUP) return LinkKind::group;
  if (oi.type == H5O_TYPE_DATASET) return LinkKind::dataset;
  return LinkKind::other;
}

namespace {
const char* kind_words(LinkKind k) {
  switch (k) {
    case LinkKind::group: return "a group";
    case LinkKind::dataset: return "a dataset";
    case LinkKind::other: return "a named datatype";
    default: return "nothing";
  }
}
}  // namespace

void require_header_storage(hid_t obj, const std::string& where) {
  H5O_info_t oi{};
  check(H5Oget_info2(obj, &oi, H5O_INFO_BASIC | H5O_INFO_NUM_ATTRS | H5O_INFO_HDR),
        "reading the header of " + where);
  // Attributes in the header are attribute messages (type 0x000C) there; dense storage
  // counts them in the attribute-info message and keeps none in the header.
  constexpr std::uint64_t kAttributeMessage = std::uint64_t{1} << 0x000C;
  if (oi.num_attrs > 0 && (oi.hdr.mesg.present & kAttributeMessage) == 0)
    throw Refusal(where, "expected attributes in the object's header (the writer keeps them "
                         "there), found " + std::to_string(oi.num_attrs) +
                             " in dense storage (not read: libhdf5 reads its heap unchecked)");
  if (oi.type != H5O_TYPE_GROUP) return;
  H5G_info_t gi{};
  check(H5Gget_info(obj, &gi), "reading the links of " + where);
  if (gi.storage_type != H5G_STORAGE_TYPE_COMPACT)
    throw Refusal(where, std::string("expected the group's links in its header (the writer keeps "
                                     "them there), found ") +
                             (gi.storage_type == H5G_STORAGE_TYPE_DENSE
                                  ? "dense link storage"
                                  : "an old-style symbol table") +
                             " (not read: libhdf5 reads its heap unchecked)");
}

Handle open_group(hid_t parent, const std::string& name, const std::string& where) {
  const LinkKind k = link_kind(parent, name, where);
  if (k != LinkKind::group) throw Refusal(where, std::string("expected a group, found ") + kind_words(k));
  Handle g(H5Gopen2(parent, name.c_str(), H5P_DEFAULT), "opening group " + where);
  require_header_storage(g, where);
  return g;
}

Handle open_dataset(hid_t parent, const std::string& name, const std::string& where) {
  const LinkKind k = link_kind(parent, name, where);
  if (k != LinkKind::dataset)
    throw Refusal(where, std::string("expected a dataset, found ") + kind_words(k));
  Handle d(H5Dopen2(parent, name.c_str(), H5P_DEFAULT), "opening dataset " + where);
  require_header_storage(d, where);
  return d;
}

std::vector<std::string> list_links(hid_t group, const std::string& where) {
  std::vector<std::string> names;
  hsize_t idx = 0;
  if (H5Literate(group, H5_INDEX_CRT_ORDER, H5_ITER_INC, &idx, collect_link_name, &names) >= 0)
    return names;
  H5Eclear2(H5E_DEFAULT);
  names.clear();
  idx = 0;
  check(H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_link_name, &names),
        "listing " + where);
  return names;
}

std::pair<unsigned long, haddr_t> object_address(hid_t obj, const std::string& where) {
  H5O_info_t oi{};
  check(H5Oget_info2(obj, &oi, H5O_INFO_BASIC), "reading " + where);
  return {oi.fileno, oi.addr};
}

// ---- attributes ----------------------------------------------------------------------------

bool has_attribute(hid_t obj, const std::string& name) {
  const htri_t e = H5Aexists(obj, name.c_str());
  if (e < 0) H5Eclear2(H5E_DEFAULT);
  return e > 0;
}

namespace {

// libhdf5 1.10 lists the attributes of an object that keeps them in its header ("compact"
// storage, every object of ours) by decoding them all into a table it grows by doubling. When
// one does not decode (HDF5 writes, but cannot read back, a compound with a member that is an
// empty compound), it frees the whole table, the slots it never filled included: a SEGV in
// H5A__close (H5A__attr_release_table) whenever the attributes decoded before the bad one are
// not a power of two in number. Every API that names attributes (H5Aiterate2, *_by_idx)
// builds that table. H5Aexists of an absent name decodes every compact attribute as well and
// fails cleanly, so it is asked first. (Dense storage, a B-tree, is not decoded by it, but
// iterating it by name builds no table: a bad attribute there fails H5Aiterate2 cleanly.)
void require_decodable_attributes(hid_t obj, const std::string& where) {
  // A name stops the walk where it is found: two that no writer of ours produces.
  for (const char* absent : {"\x01suite-probe: no such attribute", "\x02suite-probe: none either"}) {
    const htri_t e = H5Aexists(obj, absent);
    if (e == 0) return;
    if (e < 0) {
      H5Eclear2(H5E_DEFAULT);
      throw Refusal(where, "expected attributes HDF5 can decode, found one whose datatype or "
                           "dataspace it cannot read back (not listed: libhdf5 1.10 crashes "
                           "listing such attributes)");
    }
  }
  throw Refusal(where, "expected attributes the results writer names, found the reader's two "
                       "probe names (control characters) among them");
}

}  // namespace

Attributes read_attributes(hid_t obj, const std::string& where, ReadBudget& budget,
                           const std::vector<std::string>& read_apart) {
  require_decodable_attributes(obj, where);
  std::vector<std::string> names;
  hsize_t idx = 0;
  check(H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_attribute_name, &names),
        "listing the attributes of " + where);
  Attributes attrs;
  for (const auto& name : names) {
    const std::string at = where + "@" + name;
    Handle attr(H5Aopen(obj, name.c_str(), H5P_DEFAULT), "opening " + at);
    Handle type(H5Aget_type(attr), "reading " + at);
    Handle space(H5Aget_space(attr), "reading " + at);
    const Shape shape = shape_of(space, at);
    if (shape.kind != H5S_SCALAR) {
      if (shape.kind == H5S_SIMPLE &&
          std::find(read_apart.begin(), read_apart.end(), name) != read_apart.end())
        continue;
      throw Refusal(at, "expected a scalar int64, float64 or string, found " + describe(shape, type));
    }
    attrs[name] = read_scalar_attribute(attr, type, at, budget);
  }
  return attrs;
}

std::string read_string_attribute(hid_t obj, const std::string& name, const std::string& where,
                                  ReadBudget& budget) {
  Handle attr(H5Aopen(obj, name.c_str(), H5P_DEFAULT), "opening " + where);
  Handle type(H5Aget_type(attr), "reading " + where);
  Handle space(H5Aget_space(attr), "reading " + where);
  const Shape shape = shape_of(space, where);
  if (shape.kind != H5S_SCALAR || !is_string(type))
    throw Refusal(where, "expected a scalar string, found " + describe(shape, type));
  return read_string_elements(attr, true, type, 1, where, budget).at(0);
}

std::vector<std::string> read_string_list_attribute(hid_t obj, const std::string& name,
                                                    const std::string& where, ReadBudget& budget,
                                                    std::size_t max_count) {
  Handle attr(H5Aopen(obj, name.c_str(), H5P_DEFAULT), "opening " + where);
  Handle type(H5Aget_type(attr), "reading " + where);
  Handle space(H5Aget_space(attr), "reading " + where);
  const Shape shape = shape_of(space, where);
  if (shape.kind != H5S_SIMPLE || shape.dims.size() != 1 || !is_string(type) ||
      shape.count() > max_count)
    throw Refusal(where, "expected a 1-D array of at most " + std::to_string(max_count) +
                             " strings, found " + describe(shape, type));
  return read_string_elements(attr, true, type, shape.count(), where, budget);
}

// ---- datasets ------------------------------------------------------------------------------

std::vector<std::size_t> dataset_shape(hid_t dataset, const std::string& where, int rank) {
  const DatasetInfo d = inspect(dataset, where);
  require_rank(d, rank, "values", where);
  return std::vector<std::size_t>(d.shape.dims.begin(), d.shape.dims.end());
}

H5T_class_t dataset_class(hid_t dataset, const std::string& where) {
  Handle type(H5Dget_type(dataset), "reading the type of " + where);
  return H5Tget_class(type);
}

std::vector<double> read_doubles(hid_t dataset, const std::string& where, ReadBudget& budget,
                                 int rank) {
  return read_numbers<double>(dataset, where, budget, rank, fits_double, H5T_NATIVE_DOUBLE,
                              "4- or 8-byte floats (float64)");
}

std::vector<std::int64_t> read_ints(hid_t dataset, const std::string& where, ReadBudget& budget,
                                    int rank) {
  return read_numbers<std::int64_t>(dataset, where, budget, rank, fits_int64, H5T_NATIVE_INT64,
                                    "integers that fit int64");
}

std::vector<std::string> read_strings(hid_t dataset, const std::string& where, ReadBudget& budget) {
  const DatasetInfo d = inspect(dataset, where);
  require_rank(d, 1, "strings", where);
  if (!is_string(d.type))
    throw Refusal(where, "expected a 1-D array of strings, found " + describe(d.shape, d.type));
  const std::uint64_t n = d.shape.count();
  budget.charge(saturating_mul(n, 8), where, describe(d.shape, d.type));  // bookkeeping per string
  require_plain_storage(dataset, where);
  return read_string_elements(dataset, false, d.type, n, where, budget);
}

std::vector<Column> read_table(hid_t dataset, const std::string& where, ReadBudget& budget) {
  const DatasetInfo d = inspect(dataset, where);
  if (H5Tget_class(d.type) != H5T_COMPOUND)
    throw Refusal(where, "expected a 1-D compound dataset (a table), found " +
                             describe(d.shape, d.type));
  require_rank(d, 1, "compound rows (a table)", where);
  const int members = H5Tget_nmembers(d.type);
  if (members < 1 || static_cast<unsigned>(members) > kMaxMembers)
    throw Refusal(where, "expected a table of 1 to " + std::to_string(kMaxMembers) +
                             " columns, found " + describe_type(d.type));
  // Every member before any is read: HDF5 converts whole rows, a refused member's included.
  for (unsigned j = 0; j < static_cast<unsigned>(members); ++j) {
    Handle mt(H5Tget_member_type(d.type, j), "reading the columns of " + where);
    char* raw = H5Tget_member_name(d.type, j);
    const std::string name = raw ? raw : "";
    if (raw) H5free_memory(raw);
    require_fixed_length(mt, where, "column '" + name + "' of int64, float64 or fixed-length strings");
  }
  const std::uint64_t rows = d.shape.count();
  require_plain_storage(dataset, where);
  std::vector<Column> cols;
  for (unsigned j = 0; j < static_cast<unsigned>(members); ++j) {
    Column c = read_member(dataset, d.type, j, rows, where, budget);
    for (const auto& other : cols)
      if (other.name == c.name)
        throw Refusal(where, "expected distinct column names, found '" + c.name + "' twice");
    cols.push_back(std::move(c));
  }
  if (has_attribute(dataset, "column_units")) {
    const auto units = read_string_list_attribute(dataset, "column_units", where + "@column_units",
                                                  budget, kMaxMembers);
    if (units.size() != cols.size())
      throw Refusal(where + "@column_units", "expected one unit per column (" +
                                                 std::to_string(cols.size()) + "), found " +
                                                 std::to_string(units.size()));
    for (std::size_t j = 0; j < cols.size(); ++j) cols[j].unit = units[j];
  }
  return cols;
}

}  // namespace instrument::h5
