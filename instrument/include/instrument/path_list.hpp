// A list of file paths in one line a reader can take in: the part every path shares before a
// '/' and after one written once, the parts that differ in braces, as a shell would expand
// them. A campaign's calibration runs, e.g.
//   /c/runs/0007/results.h5, /c/runs/0008/results.h5, /c/runs/0022/results.h5
// read "/c/runs/{0007,0008,0022}/results.h5": the model rows' sources name every run that fed
// a constant without growing by a full path a run.
#pragma once
#include <string>
#include <vector>

namespace instrument {

// "" for no path, the path itself for one (or for paths all equal), else the braced form; where
// the paths share nothing at a '/' boundary, ", " between them.
std::string path_list(const std::vector<std::string>& paths);

}  // namespace instrument
