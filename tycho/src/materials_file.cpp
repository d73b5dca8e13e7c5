// The materials file (materials_file.hpp).
#include "tycho/materials_file.hpp"

#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <vector>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"

namespace tycho {

namespace {

constexpr std::array<const char*, 4> kQuantities = {"sigma_t", "scatter", "downscatter", "source"};

// The four quantities' members, in kQuantities' order.
constexpr std::array<std::vector<double> MaterialData::*, 4> kMembers = {
    &MaterialData::sigma_t, &MaterialData::scatter, &MaterialData::downscatter, &MaterialData::source};

// The line's words, up to a '#'.
std::vector<std::string_view> words_of(std::string_view line) {
  if (const std::size_t hash = line.find('#'); hash != std::string_view::npos) line = line.substr(0, hash);
  std::vector<std::string_view> words;
  std::size_t i = 0;
  while (i < line.size()) {
    while (i < line.size() && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r')) ++i;
    const std::size_t start = i;
    while (i < line.size() && line[i] != ' ' && line[i] != '\t' && line[i] != '\r') ++i;
    if (i > start) words.push_back(line.substr(start, i - start));
  }
  return words;
}

}  // namespace

std::map<std::uint32_t, MaterialData> parse_materials(std::string_view text, int groups, const std::string& name) {
  const std::size_t n = static_cast<std::size_t>(groups);
  std::map<std::uint32_t, MaterialData> materials;
  std::map<std::uint32_t, std::array<std::size_t, 4>> line_of;  // where each quantity was given, 0: not yet
  std::size_t line_number = 0;
  for (std::size_t from = 0; from <= text.size();) {
    std::size_t end = text.find('\n', from);
    if (end == std::string_view::npos) end = text.size();
    ++line_number;
    const std::vector<std::string_view> w = words_of(text.substr(from, end - from));
    from = end + 1;
    if (w.empty()) continue;
    const std::string at = "line " + std::to_string(line_number);
    if (w[0] != "material")
      throw instrument::InputError(name, at, "expected `material M QUANTITY value...`, found " + instrument::quote_token(w[0]));
    std::uint32_t m = 0;
    if (w.size() < 2)
      throw instrument::InputError(name, at, "expected a material number after `material`, found the end of the line");
    const auto [mp, mec] = std::from_chars(w[1].data(), w[1].data() + w[1].size(), m);
    if (mec != std::errc() || mp != w[1].data() + w[1].size())
      throw instrument::InputError(name, at, "expected a material number in [0, 4294967295], found " + instrument::quote_token(w[1]));
    std::size_t q = kQuantities.size();
    if (w.size() >= 3)
      for (std::size_t k = 0; k < kQuantities.size(); ++k)
        if (w[2] == kQuantities[k]) q = k;
    if (q == kQuantities.size())
      throw instrument::InputError(name, at, "expected sigma_t, scatter, downscatter or source after the material, found " +
                                                 (w.size() >= 3 ? instrument::quote_token(w[2]) : std::string("the end of the line")));
    if (w.size() - 3 != n)
      throw instrument::InputError(name, at, "expected " + std::to_string(groups) + " values of " + kQuantities[q] +
                                                 " (one per group), found " + std::to_string(w.size() - 3));
    std::array<std::size_t, 4>& seen = line_of.try_emplace(m, std::array<std::size_t, 4>{}).first->second;
    if (seen[q] != 0)
      throw instrument::InputError(name, at, "material " + std::to_string(m) + "'s " + kQuantities[q] +
                                                 " once, found it again (first on line " + std::to_string(seen[q]) + ")");
    seen[q] = line_number;
    std::vector<double>& values = materials[m].*kMembers[q];
    for (std::size_t g = 0; g < n; ++g) {
      const std::string_view v = w[3 + g];
      double x = 0;
      const auto [p, ec] = std::from_chars(v.data(), v.data() + v.size(), x);
      if (ec != std::errc() || p != v.data() + v.size() || !std::isfinite(x))
        throw instrument::InputError(name, at, "expected a finite number for group " + std::to_string(g) + " of " +
                                                   kQuantities[q] + ", found " + instrument::quote_token(v));
      values.push_back(x);
    }
  }
  for (const auto& [m, seen] : line_of)
    for (std::size_t q = 0; q < kQuantities.size(); ++q)
      if (seen[q] == 0)
        throw instrument::InputError(name, "material " + std::to_string(m),
                                     std::string("expected all of sigma_t, scatter, downscatter and source, missing ") +
                                         kQuantities[q]);
  for (const auto& [m, data] : materials) check_material(data, groups, m, name);
  return materials;
}

std::map<std::uint32_t, MaterialData> read_materials_file(const std::string& path, int groups) {
  return parse_materials(instrument::read_input_file(path, "materials file"), groups, path);
}

std::string format_materials(const std::map<std::uint32_t, MaterialData>& materials) {
  std::string text;
  char number[32];
  for (const auto& [m, data] : materials)
    for (std::size_t q = 0; q < kQuantities.size(); ++q) {
      text += "material " + std::to_string(m) + " " + kQuantities[q];
      for (double x : data.*kMembers[q]) {
        std::snprintf(number, sizeof number, " %.17g", x);
        text += number;
      }
      text += '\n';
    }
  return text;
}

}  // namespace tycho
