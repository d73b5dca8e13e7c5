// A list of file paths in one line (path_list.hpp).
#include "instrument/path_list.hpp"

#include <algorithm>

namespace instrument {

std::string path_list(const std::vector<std::string>& paths) {
  if (paths.empty()) return "";
  if (std::all_of(paths.begin(), paths.end(), [&](const std::string& p) { return p == paths.front(); }))
    return paths.front();
  // The longest common head ending in '/', and the longest common tail starting with '/' that
  // does not overlap it in any path.
  const std::string& first = paths.front();
  std::size_t head = first.size();
  for (const std::string& p : paths) {
    std::size_t n = 0;
    while (n < head && n < p.size() && p[n] == first[n]) ++n;
    head = n;
  }
  while (head > 0 && first[head - 1] != '/') --head;
  std::size_t tail = first.size() - head;
  for (const std::string& p : paths) {
    std::size_t n = 0;
    while (n < tail && n < p.size() - head && p[p.size() - 1 - n] == first[first.size() - 1 - n]) ++n;
    tail = n;
  }
  while (tail > 0 && first[first.size() - tail] != '/') --tail;
  std::string out;
  if (head == 0 && tail == 0) {
    for (std::size_t i = 0; i < paths.size(); ++i) {
      if (i) out.append(", ");
      out.append(paths[i]);
    }
    return out;
  }
  out.append(first, 0, head).append("{");
  for (std::size_t i = 0; i < paths.size(); ++i) {
    if (i) out.append(",");
    out.append(paths[i], head, paths[i].size() - head - tail);
  }
  return out.append("}").append(first, first.size() - tail, tail);
}

}  // namespace instrument
