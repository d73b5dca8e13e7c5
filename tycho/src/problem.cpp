// The problem's defaults and checks (problem.hpp).
#include "tycho/problem.hpp"

#include <cmath>
#include <cstdio>

#include "instrument/error.hpp"

namespace tycho {

MaterialData default_material(int groups) {
  MaterialData m;
  for (int g = 0; g < groups; ++g) {
    const double st = 0.05 * (g + 1);
    m.sigma_t.push_back(st);
    m.scatter.push_back(0.5 * st);
    m.downscatter.push_back(g == 0 ? 0.0 : 0.2 * 0.05 * g);
    m.source.push_back(g == 0 ? 1.0 : 0.0);
  }
  return m;
}

void check_material(const MaterialData& m, int groups, std::uint32_t material, const std::string& source) {
  const std::size_t n = static_cast<std::size_t>(groups);
  const std::string where = "material " + std::to_string(material);
  if (m.sigma_t.size() != n || m.scatter.size() != n || m.downscatter.size() != n || m.source.size() != n)
    throw instrument::InputError(source, where, "expected data for " + std::to_string(groups) + " groups");
  for (std::size_t g = 0; g < n; ++g) {
    const std::string at = where + " group " + std::to_string(g);
    // Within a physical range: a cross section above 1e30 per unit length or a source above
    // 1e30 overflows the sums of a sweep; below 1e-30 sigma_t underflows the cell solve.
    if (!(m.sigma_t[g] >= 1e-30 && m.sigma_t[g] <= 1e30))
      throw instrument::InputError(source, at, "sigma_t in [1e-30, 1e30]");
    if (!(m.scatter[g] >= 0 && m.scatter[g] <= m.sigma_t[g]))
      throw instrument::InputError(source, at, "scattering in [0, sigma_t]");
    if (!(m.downscatter[g] >= 0 && m.downscatter[g] <= 1e30) || (g == 0 && m.downscatter[g] != 0))
      throw instrument::InputError(source, at, "down-scattering in [0, 1e30] (0 in group 0)");
    if (!(m.source[g] >= 0 && m.source[g] <= 1e30))
      throw instrument::InputError(source, at, "a source in [0, 1e30]");
  }
  // What scatters out of group g (to itself and down to g + 1) cannot exceed what collides
  // in it: otherwise the absorption sigma_t - sigma_s is negative and the "absorbed" rate
  // the balance prints is negative, an unphysical answer rather than an error.
  for (std::size_t g = 0; g + 1 < n; ++g) {
    const double out = m.scatter[g] + m.downscatter[g + 1];
    if (out > m.sigma_t[g] * (1 + 1e-12)) {
      char found[160];
      std::snprintf(found, sizeof found, "scatter %.6g + downscatter to group %zu %.6g = %.6g > sigma_t %.6g",
                    m.scatter[g], g + 1, m.downscatter[g + 1], out, m.sigma_t[g]);
      throw instrument::InputError(source, where + " group " + std::to_string(g),
                                   "scattering out of the group (self plus down to the next) at most sigma_t, found " +
                                       std::string(found));
    }
  }
}

}  // namespace tycho
