// ResultsExtras: what an app adds to its results file beyond the common layout, in three
// generic shapes that fit every app of the suite without project code on the reading side:
//
//   attributes  scalar int / double / string attributes on any group of the app's own
//               (e.g. /solution: balance = 1e-12; /partition: tool = "METIS 5.1")
//   tables      a named table of equal-length columns, one row per record, stored as a 1-D
//               compound dataset (h5py reads it as a numpy structured array):
//               /solution/residual_history (iteration:int, residual:double),
//               /tycho/steps (step:int, max_work:int, messages:int, bytes:int)
//   arrays      an N-D int or double dataset with named dimensions:
//               /bsp/bytes_out [superstep][process], /partition/sizes [part]
//
// Paths are absolute ("/solution/residual_history"); missing groups are created. The
// common groups (/input, /machine, /phases, /counters, /model, /compare, /trace) are the
// writer's; extras may not go inside them. Units go with the data, never in the name.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace instrument {

using AttributeValue = std::variant<std::int64_t, double, std::string>;
using Attributes = std::map<std::string, AttributeValue>;

using ColumnValues =
    std::variant<std::vector<std::int64_t>, std::vector<double>, std::vector<std::string>>;

struct Column {
  std::string name;
  std::string unit;  // "s", "bytes", "cells", "" for a pure number or a label
  ColumnValues values;

  std::size_t size() const noexcept;

  // Converting constructors for any arithmetic element type, e.g. Column::of("step", "", v).
  template <class T>
  static Column of(std::string name, std::string unit, const std::vector<T>& v) {
    Column c{std::move(name), std::move(unit), {}};
    if constexpr (std::is_same_v<T, std::string>)
      c.values = v;
    else if constexpr (std::is_integral_v<T>)
      c.values = std::vector<std::int64_t>(v.begin(), v.end());
    else
      c.values = std::vector<double>(v.begin(), v.end());
    return c;
  }
};

struct Table {
  std::string path;
  std::vector<Column> columns;
  Attributes attributes;  // on the dataset (a description, the model it feeds, ...)

  std::size_t rows() const noexcept { return columns.empty() ? 0 : columns.front().size(); }
};

using ArrayValues = std::variant<std::vector<std::int64_t>, std::vector<double>>;

struct Array {
  std::string path;
  std::vector<std::size_t> shape;  // row-major (C order), e.g. {supersteps, processes}
  std::vector<std::string> dims;   // one name per dimension, e.g. {"superstep", "process"}
  std::string unit;
  ArrayValues values;  // product(shape) values, row-major
  Attributes attributes;

  template <class T>
  static Array of(std::string path, std::vector<std::size_t> shape, std::vector<std::string> dims,
                  std::string unit, const std::vector<T>& v) {
    Array a{std::move(path), std::move(shape), std::move(dims), std::move(unit), {}, {}};
    if constexpr (std::is_integral_v<T>)
      a.values = std::vector<std::int64_t>(v.begin(), v.end());
    else
      a.values = std::vector<double>(v.begin(), v.end());
    return a;
  }
};

struct ResultsExtras {
  std::map<std::string, Attributes> group_attributes;  // group path -> its attributes
  std::vector<Table> tables;
  std::vector<Array> arrays;

  void set_attribute(const std::string& group, const std::string& name, AttributeValue value) {
    group_attributes[group][name] = std::move(value);
  }
  Table& add_table(std::string path) {
    tables.push_back(Table{std::move(path), {}, {}});
    return tables.back();
  }
  void add_array(Array a) { arrays.push_back(std::move(a)); }

  const Table* find_table(const std::string& path) const;
  const Array* find_array(const std::string& path) const;
};

}  // namespace instrument
