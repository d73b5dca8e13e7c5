#include "hdf5_io.hpp"

#include <algorithm>
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

// ---- writing ----------------------------------------------------------------------------

Handle string_type(std::size_t width) {
  Handle t(H5Tcopy(H5T_C_S1), "copying the string type");
  check(H5Tset_size(t, width == 0 ? 1 : width), "sizing a fixed-length string type");
  check(H5Tset_strpad(t, H5T_STR_NULLPAD), "padding the string type with NULs");
  check(H5Tset_cset(t, H5T_CSET_UTF8), "setting UTF-8 on the string type");
  return t;
}

Handle object_create_list(hid_t plist_class) {
  Handle p(H5Pcreate(plist_class), "creating an object creation property list");
  // Every attribute and link in the object's header, however many: its chunks carry a
  // checksum. Dense storage would put them in a fractal heap whose blocks libhdf5 reads
  // unchecked (one damaged byte there crashed it in H5G__link_release_table), and the reader
  // refuses it (hdf5_read.cpp).
  check(H5Pset_attr_phase_change(p, 65535, 0), "keeping attributes in the object header");
  if (plist_class != H5P_DATASET_CREATE)
    check(H5Pset_link_phase_change(p, 65535, 0), "keeping links in the group's header");
  return p;
}

namespace {

// The text as the C string it was always stored as: up to its first NUL, if any.
std::string c_text(const std::string& s) { return s.substr(0, s.find('\0')); }

// The strings in one buffer of fixed-width, NUL-padded slots; width >= 1.
struct FixedStrings {
  std::size_t width = 1;
  std::vector<char> bytes;
};

FixedStrings fixed_strings(const std::vector<std::string>& values) {
  FixedStrings out;
  std::vector<std::string> texts;
  for (const auto& v : values) {
    texts.push_back(c_text(v));
    out.width = std::max(out.width, texts.back().size());
  }
  out.bytes.assign(out.width * texts.size(), '\0');
  for (std::size_t i = 0; i < texts.size(); ++i)
    std::memcpy(out.bytes.data() + i * out.width, texts[i].data(), texts[i].size());
  return out;
}

}  // namespace

Handle create_group(hid_t parent, const std::string& name) {
  const Handle gcpl = object_create_list(H5P_GROUP_CREATE);
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
  if (const auto* text = std::get_if<std::string>(&value); text && text->size() > kMaxAttributeText)
    throw std::invalid_argument(what + ": " + std::to_string(text->size()) +
                                " bytes of text, more than an attribute in the object header holds (" +
                                std::to_string(kMaxAttributeText) + "); store it as a dataset");
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
    const FixedStrings text = fixed_strings({std::get<std::string>(value)});
    const Handle type = string_type(text.width);
    Handle a(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), what);
    check(H5Awrite(a, type, text.bytes.data()), what);
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
  const FixedStrings text = fixed_strings(values);
  if (text.bytes.size() > kMaxAttributeText)
    throw std::invalid_argument(what + ": " + std::to_string(text.bytes.size()) +
                                " bytes of text, more than an attribute in the object header holds (" +
                                std::to_string(kMaxAttributeText) + "); store it as a dataset");
  const Handle type = string_type(text.width);
  Handle a(H5Acreate2(obj, name.c_str(), type, space, H5P_DEFAULT, H5P_DEFAULT), what);
  if (n > 0) check(H5Awrite(a, type, text.bytes.data()), what);
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
  const Handle dcpl = object_create_list(H5P_DATASET_CREATE);
  Handle d(H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), what);
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
  const FixedStrings text = fixed_strings(v);
  const Handle type = string_type(text.width);
  const Handle dcpl = object_create_list(H5P_DATASET_CREATE);
  Handle d(H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), what);
  if (!v.empty()) check(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, text.bytes.data()), what);
}

void write_table(hid_t parent, const std::string& name, const std::vector<Column>& columns) {
  const std::string what = "writing table " + name;
  const std::size_t rows = columns.empty() ? 0 : columns.front().size();
  for (const auto& c : columns)
    if (c.size() != rows)
      throw std::invalid_argument(what + ": column " + c.name + " has " + std::to_string(c.size()) +
                                  " rows, column " + columns.front().name + " has " +
                                  std::to_string(rows));
  if (columns.empty()) throw std::invalid_argument(what + ": a table needs at least one column");
  // Members packed in column order: int64 and double take 8 bytes, a string column the
  // width of its longest string (fixed-length, NUL-padded).
  std::vector<FixedStrings> text(columns.size());
  std::vector<std::size_t> offset(columns.size());
  std::size_t width = 0;
  for (std::size_t j = 0; j < columns.size(); ++j) {
    offset[j] = width;
    if (const auto* sv = std::get_if<std::vector<std::string>>(&columns[j].values)) {
      text[j] = fixed_strings(*sv);
      width += text[j].width;
    } else {
      width += 8;
    }
  }
  static_assert(sizeof(std::int64_t) == 8 && sizeof(double) == 8);
  Handle type(H5Tcreate(H5T_COMPOUND, width), what);
  std::vector<unsigned char> buf(width * rows);
  for (std::size_t j = 0; j < columns.size(); ++j) {
    const Column& c = columns[j];
    if (const auto* iv = std::get_if<std::vector<std::int64_t>>(&c.values)) {
      check(H5Tinsert(type, c.name.c_str(), offset[j], H5T_NATIVE_INT64), what + ": column " + c.name);
      for (std::size_t i = 0; i < rows; ++i) std::memcpy(buf.data() + i * width + offset[j], &(*iv)[i], 8);
    } else if (const auto* dv = std::get_if<std::vector<double>>(&c.values)) {
      check(H5Tinsert(type, c.name.c_str(), offset[j], H5T_NATIVE_DOUBLE), what + ": column " + c.name);
      for (std::size_t i = 0; i < rows; ++i) std::memcpy(buf.data() + i * width + offset[j], &(*dv)[i], 8);
    } else {
      const Handle str = string_type(text[j].width);
      check(H5Tinsert(type, c.name.c_str(), offset[j], str), what + ": column " + c.name);
      for (std::size_t i = 0; i < rows; ++i)
        std::memcpy(buf.data() + i * width + offset[j], text[j].bytes.data() + i * text[j].width,
                    text[j].width);
    }
  }
  const hsize_t n = rows;
  Handle space(H5Screate_simple(1, &n, nullptr), what);
  const Handle dcpl = object_create_list(H5P_DATASET_CREATE);
  Handle d(H5Dcreate2(parent, name.c_str(), type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT), what);
  if (rows > 0) check(H5Dwrite(d, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, buf.data()), what);
  std::vector<std::string> units;
  bool any_unit = false;
  for (const auto& c : columns) {
    units.push_back(c.unit);
    any_unit = any_unit || !c.unit.empty();
  }
  if (any_unit) write_string_list_attribute(d, "column_units", units);
}

}  // namespace instrument::h5
