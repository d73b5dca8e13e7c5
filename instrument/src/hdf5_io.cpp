#include "hdf5_io.hpp"

#include <cstring>
#include <functional>
#include <numeric>

namespace instrument::h5 {

// ---- errors ----------------------------------------------------------------------------

void silence_error_stack() { H5Eset_auto2(H5E_DEFAULT, nullptr, nullptr); }

namespace {
herr_t keep_innermost(unsigned, const H5E_error2_t* err, void* out) {
  try {  // called from C: no exception may cross it
    if (err->desc && *err->desc) *static_cast<std::string*>(out) = err->desc;
    return 0;
  } catch (...) {
    return -1;
  }
}
}  // namespace

std::string last_error_detail() {
  std::string detail;
  H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, keep_innermost, &detail);
  H5Eclear2(H5E_DEFAULT);
  return detail;
}

long long check(long long status, const std::string& what) {
  if (status < 0) {
    const std::string detail = last_error_detail();
    throw Failure(detail.empty() ? what : what + ": " + detail);
  }
  return status;
}

// ---- handles ---------------------------------------------------------------------------

Handle::Handle(hid_t id, const std::string& what) : id_(id) { check(id, what); }

Handle::~Handle() {
  if (id_ < 0) return;
  switch (H5Iget_type(id_)) {
    case H5I_FILE: H5Fclose(id_); break;
    case H5I_GROUP: H5Gclose(id_); break;
    case H5I_DATASET: H5Dclose(id_); break;
    case H5I_DATASPACE: H5Sclose(id_); break;
    case H5I_DATATYPE: H5Tclose(id_); break;
    case H5I_ATTR: H5Aclose(id_); break;
    case H5I_GENPROP_LST: H5Pclose(id_); break;
    default: break;
  }
}

Handle& Handle::operator=(Handle&& o) noexcept {
  if (this != &o) {
    Handle old(std::move(*this));  // closes the previous id on scope exit
    id_ = o.id_;
    o.id_ = H5I_INVALID_HID;
  }
  return *this;
}

// ---- names -----------------------------------------------------------------------------

std::string escape_link_name(const std::string& name) {
  if (name == ".") return "%2E";
  std::string out;
  for (char c : name) {
    if (c == '%')
      out += "%25";
    else if (c == '/')
      out += "%2F";
    else
      out.push_back(c);
  }
  return out;
}

std::string unescape_link_name(const std::string& link) {
  std::string out;
  for (std::size_t i = 0; i < link.size(); ++i) {
    if (link[i] == '%' && i + 2 < link.size()) {
      const std::string code = link.substr(i + 1, 2);
      if (code == "25") {
        out.push_back('%');
        i += 2;
        continue;
      }
      if (code == "2F") {
        out.push_back('/');
        i += 2;
        continue;
      }
      if (code == "2E") {
        out.push_back('.');
        i += 2;
        continue;
      }
    }
    out.push_back(link[i]);
  }
  return out;
}

// ---- writing ---------------------------------------------------------------------------

Handle string_type() {
  Handle t(H5Tcopy(H5T_C_S1), "copying the string type");
  check(H5Tset_size(t, H5T_VARIABLE), "making a variable-length string type");
  check(H5Tset_cset(t, H5T_CSET_UTF8), "setting UTF-8 on the string type");
  return t;
}

Handle create_group(hid_t parent, const std::string& name) {
  Handle gcpl(H5Pcreate(H5P_GROUP_CREATE), "creating a group property list");
  check(H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED),
        "tracking link creation order");
  return Handle(H5Gcreate2(parent, name.c_str(), H5P_DEFAULT, gcpl, H5P_DEFAULT),
                "creating group " + name);
}

Handle require_group(hid_t file, const std::string& path) {
  Handle g(H5Gopen2(file, "/", H5P_DEFAULT), "opening /");
  std::size_t start = 1;
  while (start < path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    const std::string part = path.substr(start, end - start);
    start = end + 1;
    if (part.empty()) continue;
    if (check(H5Lexists(g, part.c_str(), H5P_DEFAULT), "looking up " + path) > 0)
      g = Handle(H5Gopen2(g, part.c_str(), H5P_DEFAULT), "opening group " + path);
    else
      g = create_group(g, part);
  }
  return g;
}

void write_attribute(hid_t obj, const std::string& name, const AttributeValue& value) {
  const std::string what = "writing attribute " + name;
  Handle space(H5Screate(H5S_SCALAR), what);
  if (const auto* i = std::get_if<std::int64_t>(&value)) {
    Handle a(H5Acreate2(obj, name.c_str(), H5T_NATIVE_INT64, space, H5P_DEFAULT, H5P_DEFAULT),
             what);
    check(H5Awrite(a, H5T_NATIVE_INT64, i), what);
  } else if (const auto* d = std::get_if<double>(&value)) {
    Handle a(H5Acreate2(obj, name.c_str(), H5T_NATIVE_DOUBLE, space, H5P_DEFAULT, H5P_DEFAULT),
             what);
    check(H5Awrite(a, H5T_NATIVE_DOUBLE, d), what);
  } else {
    const Handle type = string_type();
    const char* p = std::get<std::string>(value).c_str();
    Handle a(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), what);
    check(H5Awrite(a, type, &p), what);
  }
}

void write_attributes(hid_t obj, const Attributes& attrs) {
  for (const auto& [name, value] : attrs) write_attribute(obj, name, value);
}

void write_string_list_attribute(hid_t obj, const std::string& name,
                                 const std::vector<std::string>& values) {
  const std::string what = "writing attribute " + name;
  const hsize_t n = values.size();
  Handle space(H5Screate_simple(1, &n, nullptr), what);
  const Handle type = string_type();
  std::vector<const char*> ptrs;
  for (const auto& s : values) ptrs.push_back(s.c_str());
  Handle a(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), what);
  if (n > 0) check(H5Awrite(a, type, ptrs.data()), what);
}

namespace {

Handle dataspace(const std::vector<std::size_t>& shape, std::size_t values,
                 const std::string& what) {
  const std::size_t n =
      std::accumulate(shape.begin(), shape.end(), std::size_t{1}, std::multiplies<std::size_t>());
  if (n != values)
    throw std::invalid_argument(what + ": shape holds " + std::to_string(n) + " values, data " +
                                std::to_string(values));
  if (shape.empty()) return Handle(H5Screate(H5S_SCALAR), what);
  std::vector<hsize_t> dims(shape.begin(), shape.end());
  return Handle(H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr), what);
}

template <class T>
void write_numbers(hid_t parent, const std::string& name, const std::vector<T>& v,
                   const std::vector<std::size_t>& shape, hid_t type) {
  const std::string what = "writing dataset " + name;
  const Handle space = dataspace(shape, v.size(), what);
  Handle d(H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
           what);
  if (!v.empty()) check(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), what);
}

}  // namespace

void write_doubles(hid_t parent, const std::string& name, const std::vector<double>& v,
                   const std::vector<std::size_t>& shape) {
  write_numbers(parent, name, v, shape, H5T_NATIVE_DOUBLE);
}

void write_ints(hid_t parent, const std::string& name, const std::vector<std::int64_t>& v,
                const std::vector<std::size_t>& shape) {
  write_numbers(parent, name, v, shape, H5T_NATIVE_INT64);
}

void write_scalar(hid_t parent, const std::string& name, double v) {
  write_doubles(parent, name, {v}, {});
}

void write_strings(hid_t parent, const std::string& name, const std::vector<std::string>& v) {
  const std::string what = "writing dataset " + name;
  const Handle space = dataspace({v.size()}, v.size(), what);
  const Handle type = string_type();
  std::vector<const char*> ptrs;
  for (const auto& s : v) ptrs.push_back(s.c_str());
  Handle d(H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
           what);
  if (!v.empty()) check(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()), what);
}

namespace {
// Every member of our compound tables is 8 bytes: int64, double, or a char* (vlen string).
constexpr std::size_t kSlot = 8;
static_assert(sizeof(std::int64_t) == kSlot && sizeof(double) == kSlot && sizeof(char*) == kSlot);
}  // namespace

void write_table(hid_t parent, const std::string& name, const std::vector<Column>& columns) {
  const std::string what = "writing table " + name;
  const std::size_t rows = columns.empty() ? 0 : columns.front().size();
  for (const auto& c : columns)
    if (c.size() != rows)
      throw std::invalid_argument(what + ": column " + c.name + " has " + std::to_string(c.size()) +
                                  " rows, column " + columns.front().name + " has " +
                                  std::to_string(rows));
  if (columns.empty()) throw std::invalid_argument(what + ": a table needs at least one column");
  const std::size_t width = kSlot * columns.size();
  Handle type(H5Tcreate(H5T_COMPOUND, width), what);
  const Handle str = string_type();
  std::vector<unsigned char> buf(width * rows);
  for (std::size_t j = 0; j < columns.size(); ++j) {
    const Column& c = columns[j];
    const std::size_t off = j * kSlot;
    hid_t member = H5T_NATIVE_DOUBLE;
    if (std::holds_alternative<std::vector<std::int64_t>>(c.values))
      member = H5T_NATIVE_INT64;
    else if (std::holds_alternative<std::vector<std::string>>(c.values))
      member = str;
    check(H5Tinsert(type, c.name.c_str(), off, member), what + ": column " + c.name);
    for (std::size_t i = 0; i < rows; ++i) {
      unsigned char* slot = buf.data() + i * width + off;
      if (const auto* iv = std::get_if<std::vector<std::int64_t>>(&c.values))
        std::memcpy(slot, &(*iv)[i], kSlot);
      else if (const auto* dv = std::get_if<std::vector<double>>(&c.values))
        std::memcpy(slot, &(*dv)[i], kSlot);
      else {
        const char* p = std::get<std::vector<std::string>>(c.values)[i].c_str();
        std::memcpy(slot, &p, kSlot);
      }
    }
  }
  const hsize_t n = rows;
  Handle space(H5Screate_simple(1, &n, nullptr), what);
  Handle d(H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT),
           what);
  if (rows > 0) check(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()), what);
  std::vector<std::string> units;
  bool any_unit = false;
  for (const auto& c : columns) {
    units.push_back(c.unit);
    any_unit = any_unit || !c.unit.empty();
  }
  if (any_unit) write_string_list_attribute(d, "column_units", units);
}

// ---- reading ---------------------------------------------------------------------------

bool has_link(hid_t parent, const std::string& path) {
  // H5Lexists checks one level at a time; walk the path so a missing parent is "no".
  std::string prefix;
  std::size_t start = 0;
  if (!path.empty() && path[0] == '/') {
    prefix = "/";
    start = 1;
  }
  while (start < path.size()) {
    std::size_t end = path.find('/', start);
    if (end == std::string::npos) end = path.size();
    prefix += path.substr(start, end - start);
    if (H5Lexists(parent, prefix.c_str(), H5P_DEFAULT) <= 0) return false;
    prefix += "/";
    start = end + 1;
  }
  return true;
}

bool has_attribute(hid_t obj, const std::string& name) { return H5Aexists(obj, name.c_str()) > 0; }

namespace {
herr_t collect_name(hid_t, const char* name, const H5L_info_t*, void* out) {
  try {  // called from C: no exception may cross it
    static_cast<std::vector<std::string>*>(out)->push_back(name);
    return 0;
  } catch (...) {
    return -1;
  }
}
}  // namespace

std::vector<std::string> list_links(hid_t group) {
  std::vector<std::string> names;
  hsize_t idx = 0;
  if (H5Literate(group, H5_INDEX_CRT_ORDER, H5_ITER_INC, &idx, collect_name, &names) >= 0)
    return names;
  H5Eclear2(H5E_DEFAULT);
  names.clear();
  idx = 0;
  check(H5Literate(group, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_name, &names),
        "listing a group");
  return names;
}

bool is_group(hid_t parent, const std::string& name) {
  Handle obj(H5Oopen(parent, name.c_str(), H5P_DEFAULT), "opening " + name);
  return H5Iget_type(obj) == H5I_GROUP;
}

namespace {

// Reads one string (variable- or fixed-length) from an attribute or dataset of string type.
std::string read_one_string(hid_t obj, hid_t file_type, bool is_attr, const std::string& what) {
  if (H5Tis_variable_str(file_type) > 0) {
    Handle mem(H5Tcopy(file_type), what);
    char* p = nullptr;
    check(is_attr ? H5Aread(obj, mem, &p) : H5Dread(obj, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, &p),
          what);
    std::string s = p ? p : "";
    Handle space(H5Screate(H5S_SCALAR), what);
    H5Dvlen_reclaim(mem, space, H5P_DEFAULT, &p);
    return s;
  }
  const std::size_t size = H5Tget_size(file_type);
  Handle mem(H5Tcopy(file_type), what);
  std::string s(size, '\0');
  check(is_attr ? H5Aread(obj, mem, s.data())
                : H5Dread(obj, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, s.data()),
        what);
  while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
  return s;
}

struct AttributeSink {
  Attributes* out;
  std::string error;  // set when a callback failed
};

void collect_attribute_or_throw(hid_t obj, const char* name, AttributeSink& sink) {
  auto* out = sink.out;
  const Handle attr(H5Aopen(obj, name, H5P_DEFAULT), name);
  const Handle space(H5Aget_space(attr), name);
  if (H5Sget_simple_extent_ndims(space) != 0) return;  // arrays are read explicitly
  const Handle type(H5Aget_type(attr), name);
  switch (H5Tget_class(type)) {
    case H5T_INTEGER: {
      std::int64_t v = 0;
      check(H5Aread(attr, H5T_NATIVE_INT64, &v), name);
      (*out)[name] = v;
      break;
    }
    case H5T_FLOAT: {
      double v = 0;
      check(H5Aread(attr, H5T_NATIVE_DOUBLE, &v), name);
      (*out)[name] = v;
      break;
    }
    case H5T_STRING: (*out)[name] = read_one_string(attr, type, true, name); break;
    default: break;
  }
}

// HDF5 calls this from C: no exception may cross it, so the first one is kept for later.
herr_t collect_attribute(hid_t obj, const char* name, const H5A_info_t*, void* data) {
  auto& sink = *static_cast<AttributeSink*>(data);
  try {
    collect_attribute_or_throw(obj, name, sink);
    return 0;
  } catch (const std::exception& e) {
    sink.error = std::string("attribute ") + name + ": " + e.what();
    return -1;
  }
}

}  // namespace

Attributes read_attributes(hid_t obj) {
  Attributes attrs;
  AttributeSink sink{&attrs, {}};
  hsize_t idx = 0;
  if (H5Aiterate2(obj, H5_INDEX_NAME, H5_ITER_INC, &idx, collect_attribute, &sink) < 0) {
    const std::string detail = last_error_detail();
    throw Failure("reading attributes: " + (sink.error.empty() ? detail : sink.error));
  }
  return attrs;
}

std::string read_string_attribute(hid_t obj, const std::string& name) {
  const std::string what = "reading attribute " + name;
  Handle attr(H5Aopen(obj, name.c_str(), H5P_DEFAULT), what);
  Handle type(H5Aget_type(attr), what);
  if (H5Tget_class(type) != H5T_STRING) throw Failure(what + ": not a string");
  return read_one_string(attr, type, true, what);
}

std::vector<std::string> read_string_list_attribute(hid_t obj, const std::string& name) {
  const std::string what = "reading attribute " + name;
  Handle attr(H5Aopen(obj, name.c_str(), H5P_DEFAULT), what);
  Handle space(H5Aget_space(attr), what);
  const auto n = static_cast<std::size_t>(check(H5Sget_simple_extent_npoints(space), what));
  const Handle mem = string_type();
  std::vector<char*> ptrs(n, nullptr);
  if (n > 0) check(H5Aread(attr, mem, ptrs.data()), what);
  std::vector<std::string> out;
  for (char* p : ptrs) out.emplace_back(p ? p : "");
  if (n > 0) H5Dvlen_reclaim(mem, space, H5P_DEFAULT, ptrs.data());
  return out;
}

std::vector<std::size_t> dataset_shape(hid_t dataset) {
  Handle space(H5Dget_space(dataset), "reading a dataset shape");
  const int nd =
      static_cast<int>(check(H5Sget_simple_extent_ndims(space), "reading a dataset shape"));
  std::vector<hsize_t> dims(static_cast<std::size_t>(nd));
  if (nd > 0) H5Sget_simple_extent_dims(space, dims.data(), nullptr);
  return std::vector<std::size_t>(dims.begin(), dims.end());
}

bool dataset_is_compound(hid_t dataset) {
  Handle type(H5Dget_type(dataset), "reading a dataset type");
  return H5Tget_class(type) == H5T_COMPOUND;
}

bool dataset_is_integer(hid_t dataset) {
  Handle type(H5Dget_type(dataset), "reading a dataset type");
  return H5Tget_class(type) == H5T_INTEGER;
}

namespace {
std::size_t element_count(hid_t dataset) {
  Handle space(H5Dget_space(dataset), "reading a dataset size");
  return static_cast<std::size_t>(
      check(H5Sget_simple_extent_npoints(space), "reading a dataset size"));
}

template <class T>
std::vector<T> read_numbers(hid_t dataset, hid_t mem, const char* kind) {
  Handle type(H5Dget_type(dataset), "reading a dataset type");
  const H5T_class_t cls = H5Tget_class(type);
  if (cls != H5T_INTEGER && cls != H5T_FLOAT)
    throw Failure(std::string("expected ") + kind + " numbers");
  std::vector<T> v(element_count(dataset));
  if (!v.empty())
    check(H5Dread(dataset, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, v.data()), "reading data");
  return v;
}
}  // namespace

std::vector<double> read_doubles(hid_t dataset) {
  return read_numbers<double>(dataset, H5T_NATIVE_DOUBLE, "floating-point");
}

std::vector<std::int64_t> read_ints(hid_t dataset) {
  return read_numbers<std::int64_t>(dataset, H5T_NATIVE_INT64, "integer");
}

std::vector<std::string> read_strings(hid_t dataset) {
  Handle type(H5Dget_type(dataset), "reading a dataset type");
  if (H5Tget_class(type) != H5T_STRING || H5Tis_variable_str(type) <= 0)
    throw Failure("expected variable-length strings");
  const std::size_t n = element_count(dataset);
  const Handle mem = string_type();
  std::vector<char*> ptrs(n, nullptr);
  std::vector<std::string> out;
  if (n == 0) return out;
  check(H5Dread(dataset, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, ptrs.data()), "reading strings");
  for (char* p : ptrs) out.emplace_back(p ? p : "");
  Handle space(H5Dget_space(dataset), "reading strings");
  H5Dvlen_reclaim(mem, space, H5P_DEFAULT, ptrs.data());
  return out;
}

std::vector<Column> read_table(hid_t dataset) {
  const std::string what = "reading a table";
  Handle ftype(H5Dget_type(dataset), what);
  if (H5Tget_class(ftype) != H5T_COMPOUND) throw Failure("expected a compound (table) dataset");
  const int members = static_cast<int>(check(H5Tget_nmembers(ftype), what));
  const std::size_t width = kSlot * static_cast<std::size_t>(members);
  Handle mem(H5Tcreate(H5T_COMPOUND, width), what);
  const Handle str = string_type();
  std::vector<Column> cols(static_cast<std::size_t>(members));
  for (int j = 0; j < members; ++j) {
    char* name = H5Tget_member_name(ftype, static_cast<unsigned>(j));
    cols[j].name = name ? name : "";
    H5free_memory(name);
    hid_t member = H5T_NATIVE_DOUBLE;
    switch (H5Tget_member_class(ftype, static_cast<unsigned>(j))) {
      case H5T_INTEGER:
        member = H5T_NATIVE_INT64;
        cols[j].values = std::vector<std::int64_t>{};
        break;
      case H5T_FLOAT:
        member = H5T_NATIVE_DOUBLE;
        cols[j].values = std::vector<double>{};
        break;
      case H5T_STRING:
        member = str;
        cols[j].values = std::vector<std::string>{};
        break;
      default: throw Failure("table column " + cols[j].name + " is neither number nor string");
    }
    check(H5Tinsert(mem, cols[j].name.c_str(), kSlot * static_cast<std::size_t>(j), member), what);
  }
  const std::size_t rows = element_count(dataset);
  std::vector<unsigned char> buf(width * rows);
  if (rows > 0) check(H5Dread(dataset, mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()), what);
  for (std::size_t j = 0; j < cols.size(); ++j) {
    for (std::size_t i = 0; i < rows; ++i) {
      const unsigned char* slot = buf.data() + i * width + j * kSlot;
      if (auto* iv = std::get_if<std::vector<std::int64_t>>(&cols[j].values)) {
        std::int64_t x;
        std::memcpy(&x, slot, kSlot);
        iv->push_back(x);
      } else if (auto* dv = std::get_if<std::vector<double>>(&cols[j].values)) {
        double x;
        std::memcpy(&x, slot, kSlot);
        dv->push_back(x);
      } else {
        const char* p;
        std::memcpy(&p, slot, kSlot);
        std::get<std::vector<std::string>>(cols[j].values).emplace_back(p ? p : "");
      }
    }
  }
  if (rows > 0) {
    Handle space(H5Dget_space(dataset), what);
    H5Dvlen_reclaim(mem, space, H5P_DEFAULT, buf.data());
  }
  if (has_attribute(dataset, "column_units")) {
    const auto units = read_string_list_attribute(dataset, "column_units");
    if (units.size() == cols.size())
      for (std::size_t j = 0; j < cols.size(); ++j) cols[j].unit = units[j];
  }
  return cols;
}

}  // namespace instrument::h5
