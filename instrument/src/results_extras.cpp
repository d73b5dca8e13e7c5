#include "instrument/results_extras.hpp"

namespace instrument {

std::size_t Column::size() const noexcept {
  return std::visit([](const auto& v) { return v.size(); }, values);
}

const Table* ResultsExtras::find_table(const std::string& path) const {
  for (const auto& t : tables)
    if (t.path == path) return &t;
  return nullptr;
}

const Array* ResultsExtras::find_array(const std::string& path) const {
  for (const auto& a : arrays)
    if (a.path == path) return &a;
  return nullptr;
}

}  // namespace instrument
