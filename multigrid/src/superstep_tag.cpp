// The supersteps' grids and phases (superstep_tag.hpp).
#include "multigrid/superstep_tag.hpp"

namespace mg {

std::vector<SuperstepTag> tag_supersteps(const bspmodel::Profile& profile, const SuperstepLabels& labels) {
  std::vector<SuperstepTag> tags;
  tags.reserve(profile.steps.size());
  for (const bspmodel::SuperstepSummary& s : profile.steps) {
    const auto it = labels.find(s.label);
    tags.push_back(it == labels.end() ? SuperstepTag{} : it->second);
  }
  return tags;
}

}  // namespace mg
