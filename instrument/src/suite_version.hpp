// The suite's version and the git describe of the tree it was built from, recorded in every
// results file. Defined in a file the build generates (instrument/suite_version.cpp.in), so a
// new commit recompiles that one file, not every file that includes a header.
#pragma once

namespace instrument {

const char* suite_version();
const char* suite_git_describe();

}  // namespace instrument
