// The materials file (`tycho --materials FILE`): cross sections per material number of the
// mesh, one quantity a line, one value per energy group:
//
//   # fast and thermal groups; '#' starts a comment, blank lines are skipped
//   material 2 sigma_t     0.1  0.2
//   material 2 scatter     0.05 0.1     # sigma_s g -> g, in [0, sigma_t]
//   material 2 downscatter 0    0.02    # sigma_s g-1 -> g, 0 in group 0
//   material 2 source      1    0       # Q_g >= 0
//
// Every material named needs all four quantities, each once; their ranges are
// check_material's (problem.hpp). A material of the mesh the file does not name takes the
// default problem's data. Errors: InputError(name, "line N" or "material M", what was
// expected and found).
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <string_view>

#include "tycho/problem.hpp"

namespace tycho {

std::map<std::uint32_t, MaterialData> parse_materials(std::string_view text, int groups, const std::string& name);

// parse_materials of the file at `path` (instrument's read_input_file).
std::map<std::uint32_t, MaterialData> read_materials_file(const std::string& path, int groups);

// The file's text for `materials` (values printed to round-trip exactly).
std::string format_materials(const std::map<std::uint32_t, MaterialData>& materials);

}  // namespace tycho
