// File names given on the command line, refused at once when they cannot be right, before a
// run spends minutes and then fails to write (or silently writes nothing):
//
//   results = output_file_option(s, value());   // --results "" is an error, not "no results"
//   check_output_file_on_root(results, "results file", comm);   // a symlink, a device: now
//   files = file_list_option(s, value());       // --calibration a.h5,,b.h5 names the gap
//   machine = file_option(s, value());          // --machine "" is an error, not "no machine"
//
// Errors are InputError("command line", option, ...), one line naming the option.
#pragma once
#include <mpi.h>

#include <string>
#include <vector>

namespace instrument {

// The file name after an output option (--results, --csv, --out, --trace-out); an empty one
// is refused: "expected a file name, got \"\"" (a program writes no file only when told so,
// e.g. --no-results).
std::string output_file_option(const std::string& option, const std::string& text);

// The file name after an input option (--machine, --partition, --materials, a MESH): an
// empty one is refused like an output's, never taken as "not given".
std::string file_option(const std::string& option, const std::string& text);

// A comma-separated list of file names (--calibration A,B): every entry non-empty.
std::vector<std::string> file_list_option(const std::string& option, const std::string& text);

// The checks OutputFile makes (output_file.hpp: a symbolic link, a device, FIFO or directory
// refused) made now, with nothing created. Throws their InputError.
void check_output_file(const std::string& path, const std::string& what);

// check_output_file on `root` only (ranks need not see the same file system), the verdict
// shared: every rank throws CollectiveError with root's message (mpi_main.hpp).
void check_output_file_on_root(const std::string& path, const std::string& what, MPI_Comm comm,
                               int root = 0);

}  // namespace instrument
