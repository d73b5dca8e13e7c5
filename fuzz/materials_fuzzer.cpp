// tycho's materials-file reader (tycho::parse_materials, `--materials FILE`). The input's
// first byte chooses the groups (1 + byte % 4); the rest is the file. Bad input must be an
// InputError whose message is one line naming the file; an accepted file must give every
// material all four quantities with one value per group, within check_material's ranges,
// and formatting it must give a file that reads back the same, bit for bit.
#include <cstdint>
#include <map>
#include <string>

#include "fuzz_input.hpp"
#include "instrument/error.hpp"
#include "tycho/materials_file.hpp"

using fuzz::require;

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  const int groups = 1 + data[0] % 4;
  const std::string_view text = fuzz::as_text(data + 1, size - 1);
  std::map<std::uint32_t, tycho::MaterialData> materials;
  try {
    materials = tycho::parse_materials(text, groups, "fuzz.materials");
  } catch (const instrument::InputError& e) {
    const std::string message = e.what();
    require(message.find('\n') == std::string::npos, "a one-line error");
    require(message.rfind("fuzz.materials:", 0) == 0, "the error names the file");
    return 0;
  }
  const std::size_t n = static_cast<std::size_t>(groups);
  for (const auto& [id, m] : materials) {
    require(m.sigma_t.size() == n && m.scatter.size() == n && m.downscatter.size() == n && m.source.size() == n,
            "one value per group of every quantity");
    for (std::size_t g = 0; g < n; ++g)
      require(m.sigma_t[g] > 0 && m.scatter[g] >= 0 && m.scatter[g] <= m.sigma_t[g] && m.source[g] >= 0,
              "values within their ranges");
  }
  const auto again = tycho::parse_materials(tycho::format_materials(materials), groups, "formatted");
  require(again.size() == materials.size(), "format then parse: the same materials");
  for (const auto& [id, m] : materials) {
    const auto it = again.find(id);
    require(it != again.end() && it->second.sigma_t == m.sigma_t && it->second.scatter == m.scatter &&
                it->second.downscatter == m.downscatter && it->second.source == m.source,
            "format then parse: the same values, bit for bit");
  }
  return 0;
}
