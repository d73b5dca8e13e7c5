// Small typed layer over the HDF5 C API for the results file: owning handles, attributes,
// plain and compound (table) datasets, link listing, and errors that say what failed.
// Private to the instrument library; the public API is results_file.hpp.
#pragma once
#include <hdf5.h>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "instrument/results_extras.hpp"

namespace instrument::h5 {

// An HDF5 call failed: the message says what we were doing and what HDF5 reported.
class Failure : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Stops HDF5 printing its error stack to stderr: failures reach the user as one line.
void silence_error_stack();

// The innermost description on HDF5's error stack, e.g. "unable to open file: ... errno = 13".
std::string last_error_detail();

// Throws Failure("<what>: <detail>") when status < 0; returns status otherwise.
long long check(long long status, const std::string& what);

// Owning hid_t; closes with the right H5?close for its identifier type.
class Handle {
 public:
  Handle() = default;
  explicit Handle(hid_t id, const std::string& what);  // throws when id < 0
  ~Handle();
  Handle(Handle&& o) noexcept : id_(o.id_) { o.id_ = H5I_INVALID_HID; }
  Handle& operator=(Handle&& o) noexcept;
  Handle(const Handle&) = delete;
  Handle& operator=(const Handle&) = delete;
  hid_t get() const noexcept { return id_; }
  operator hid_t() const noexcept { return id_; }  // NOLINT: handles pass straight to H5 calls
  hid_t release() noexcept {
    hid_t i = id_;
    id_ = H5I_INVALID_HID;
    return i;
  }

 private:
  hid_t id_ = H5I_INVALID_HID;
};

// ---- names -----------------------------------------------------------------------------
// Link names cannot hold '/' or be "." : '%' -> "%25", '/' -> "%2F", "." -> "%2E".
std::string escape_link_name(const std::string& name);
std::string unescape_link_name(const std::string& link);

// ---- writing ---------------------------------------------------------------------------
Handle string_type();  // variable-length UTF-8 string
// Opens the group at an absolute path, creating it (and its parents) if missing; groups
// created here keep their links in creation order.
Handle require_group(hid_t file, const std::string& path);
Handle create_group(hid_t parent, const std::string& name);

void write_attribute(hid_t obj, const std::string& name, const AttributeValue& value);
void write_attributes(hid_t obj, const Attributes& attrs);
void write_string_list_attribute(hid_t obj, const std::string& name,
                                 const std::vector<std::string>& values);

void write_doubles(hid_t parent, const std::string& name, const std::vector<double>& v,
                   const std::vector<std::size_t>& shape);
void write_ints(hid_t parent, const std::string& name, const std::vector<std::int64_t>& v,
                const std::vector<std::size_t>& shape);
void write_strings(hid_t parent, const std::string& name, const std::vector<std::string>& v);
void write_scalar(hid_t parent, const std::string& name, double v);
// A 1-D compound dataset, one member per column (int64, double or string); all columns
// must have the same length. Column units go to the attribute "column_units".
void write_table(hid_t parent, const std::string& name, const std::vector<Column>& columns);

// ---- reading ---------------------------------------------------------------------------
bool has_link(hid_t parent, const std::string& path);
bool has_attribute(hid_t obj, const std::string& name);
// Child link names in creation order when tracked, else in name order.
std::vector<std::string> list_links(hid_t group);
bool is_group(hid_t parent, const std::string& name);

// All scalar attributes of an object (int -> int64, float -> double, string -> string);
// array-valued ones are skipped (they are read with read_string_list_attribute).
Attributes read_attributes(hid_t obj);
std::string read_string_attribute(hid_t obj, const std::string& name);
std::vector<std::string> read_string_list_attribute(hid_t obj, const std::string& name);

std::vector<std::size_t> dataset_shape(hid_t dataset);
bool dataset_is_compound(hid_t dataset);
bool dataset_is_integer(hid_t dataset);
std::vector<double> read_doubles(hid_t dataset);
std::vector<std::int64_t> read_ints(hid_t dataset);
std::vector<std::string> read_strings(hid_t dataset);
std::vector<Column> read_table(hid_t dataset);

}  // namespace instrument::h5
