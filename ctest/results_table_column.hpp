// A named column of a table read back from a results file, of the type a test expects; the
// test fails, naming the table and the column, where there is none or it holds another type.
#pragma once
#include <catch2/catch.hpp>

#include <string>
#include <variant>
#include <vector>

#include "instrument/results_file.hpp"

template <class T>
const std::vector<T>& column(const instrument::Table& t, const std::string& name) {
  for (const auto& c : t.columns)
    if (c.name == name) {
      const auto* v = std::get_if<std::vector<T>>(&c.values);
      if (!v) FAIL(t.path + " column " + name + " is not of the expected type");
      return *v;
    }
  FAIL(t.path + " has no column " + name);
  throw;  // not reached
}
