// Splits option values and labels at a separator ("1,2,4", "50x50x50", "a; b"), keeping
// empty fields so that a caller can refuse them ("1,,4" gives "1", "", "4").
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace instrument {

inline std::vector<std::string> split(std::string_view text, std::string_view separator) {
  std::vector<std::string> out;
  std::size_t from = 0;
  for (std::size_t at; (at = text.find(separator, from)) != std::string_view::npos; from = at + separator.size())
    out.emplace_back(text.substr(from, at - from));
  out.emplace_back(text.substr(from));
  return out;
}

}  // namespace instrument
