// Small typed layer over the HDF5 C API for the results file: owning handles, attributes,
// plain and compound (table) datasets, link listing, and errors that say what failed.
// Private to the instrument library; the public API is results_file.hpp.
#pragma once
#include <hdf5.h>

#include <cstddef>
#include <cstdint>
#include <utility>
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
// Every string the writer stores is a fixed-length, NUL-padded UTF-8 string as wide as the
// longest one it holds (at least 1 byte), cut at a NUL inside the text (a C string, as it was
// always stored): a file of ours has no variable-length data, so no global heap, which the
// reader never lets libhdf5 read (it crashed on damaged ones; hdf5_read.cpp).
Handle string_type(std::size_t width);
// A file, group or dataset creation property list (plist_class) keeping all of an object's
// attributes and links in its header (checksummed), never in dense storage.
Handle object_create_list(hid_t plist_class);
// The longest text an attribute may hold: a header message holds at most 64 KiB (beyond,
// libhdf5 would move the attribute to dense storage, which the reader refuses).
// write_attribute refuses longer text (std::invalid_argument): write a dataset instead.
inline constexpr std::size_t kMaxAttributeText = 32 * 1024;
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
// A 1-D compound dataset, one member per column (int64, double or fixed-length string),
// packed in column order; all columns must have the same length. Column units go to the attribute "column_units".
void write_table(hid_t parent, const std::string& name, const std::vector<Column>& columns);

// ---- reading (hdf5_read.cpp) -----------------------------------------------------------
// Every read checks the object's kind, dataspace (scalar / simple, rank, sizes) and type
// (class, size) BEFORE reading, and refuses what the results-file format does not allow:
// among it every variable-length type (strings, sequences, and compounds or arrays holding
// one), whose data libhdf5 would fetch from the global heap by references in the file.

// A part of the file refused: `where` is "<object path>" or "<object path>@<attribute>",
// `expected` reads "expected ..., found ...".
class Refusal : public std::runtime_error {
 public:
  Refusal(std::string where, std::string expected)
      : std::runtime_error(where + ": " + expected), where_(std::move(where)),
        expected_(std::move(expected)) {}
  const std::string& where() const noexcept { return where_; }
  const std::string& expected() const noexcept { return expected_; }

 private:
  std::string where_, expected_;
};

// The bytes all reads of one file may allocate together, charged BEFORE each allocation.
// Our writer stores every value uncompressed, so the data of a file of ours never exceed the
// file's size; in memory a value can take up to 8 times its smallest stored form (a 1-byte
// integer read as int64, a string as 8 bytes of bookkeeping plus its bytes). So 8 x the
// file size + 1 MiB (headroom for tiny files) bounds every genuine file and refuses a crafted one that declares
// a huge dataset with unallocated (fill-value) storage, or links one dataset many times.
class ReadBudget {
 public:
  explicit ReadBudget(std::uint64_t file_bytes);
  // Throws Refusal(where, "expected at most ... bytes of data ..., found <found> (<bytes> B)").
  void charge(std::uint64_t bytes, const std::string& where, const std::string& found);
  std::uint64_t limit() const noexcept { return limit_; }

 private:
  std::uint64_t file_bytes_, limit_, used_ = 0;
};

// Links are opened only when they are hard links of one component ("name" or "/name"):
// soft links may form cycles or dangle, external links open other files (a FIFO would
// block); the format has neither, so both are refused, never followed.
enum class LinkKind { missing, group, dataset, other };
LinkKind link_kind(hid_t parent, const std::string& name, const std::string& where);
bool has_link(hid_t parent, const std::string& name);  // any kind of link
Handle open_group(hid_t parent, const std::string& name, const std::string& where);
Handle open_dataset(hid_t parent, const std::string& name, const std::string& where);
// Child link names in creation order when tracked, else in name order.
std::vector<std::string> list_links(hid_t group, const std::string& where);
// (file number, address): the same object reached through two hard links compares equal.
std::pair<unsigned long, haddr_t> object_address(hid_t obj, const std::string& where);

// Refuses an object whose attributes, or (a group) whose links, are not all in its header:
// dense storage (a fractal heap, whose blocks libhdf5 reads without a checksum) or an old-style
// symbol table (a B-tree and local heap without checksums). Checked by open_group and
// open_dataset before anything else of the object is read; call it on the root group.
void require_header_storage(hid_t obj, const std::string& where);
bool has_attribute(hid_t obj, const std::string& name);
// Every attribute of an object, each a scalar int (-> int64), float (-> double) or string.
// Any other shape or type is refused, except the array attributes named in `read_apart`
// (column_units, dims: read with read_string_list_attribute).
Attributes read_attributes(hid_t obj, const std::string& where, ReadBudget& budget,
                           const std::vector<std::string>& read_apart = {});
std::string read_string_attribute(hid_t obj, const std::string& name, const std::string& where,
                                  ReadBudget& budget);
// A 1-D string attribute of at most max_count elements.
std::vector<std::string> read_string_list_attribute(hid_t obj, const std::string& name,
                                                    const std::string& where, ReadBudget& budget,
                                                    std::size_t max_count);

constexpr int kAnyRank = -1;  // 0 .. 32 (HDF5's H5S_MAX_RANK)
// The shape of a dataset with a simple (or, for rank 0, scalar) dataspace of that rank.
std::vector<std::size_t> dataset_shape(hid_t dataset, const std::string& where, int rank);
H5T_class_t dataset_class(hid_t dataset, const std::string& where);
std::vector<double> read_doubles(hid_t dataset, const std::string& where, ReadBudget& budget,
                                 int rank);
std::vector<std::int64_t> read_ints(hid_t dataset, const std::string& where, ReadBudget& budget,
                                    int rank);
std::vector<std::string> read_strings(hid_t dataset, const std::string& where,
                                      ReadBudget& budget);  // 1-D
// A 1-D compound dataset: one Column per member (int, float or string), column_units if any.
std::vector<Column> read_table(hid_t dataset, const std::string& where, ReadBudget& budget);

}  // namespace instrument::h5
