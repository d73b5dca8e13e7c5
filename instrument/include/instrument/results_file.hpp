// The results file of one run (HDF5), written by rank 0 after gather_results(), and its
// reader. Layout (documented in instrument/README.md):
//
//   /                      attrs app, version, git_describe, date, host, mpi_library,
//                          nranks, threads, format = "suite-results-1"
//   /input                 attrs: every input as given; deck_file, deck_text
//   /machine               attrs: the machine parameters used; source_file
//   /phases/<name>/        inclusive, exclusive [nranks] s; calls [nranks];
//                          attrs name, min/mean/median/max of inclusive
//   /counters/<name>       [nranks] int64
//   /model/<model>/<term>  scalar s, attr equation
//   /compare               compound (model, term, measured, modelled, relative_error, source)
//   /trace (optional)      kinds [nkinds] strings, dropped [nranks],
//                          rank_<r> compound (t_begin, t_end, kind, peer, bytes, work,
//                          tag, request)
//   app extras             see results_extras.hpp
//
// Writing is atomic: the file goes to "<path>.tmp.<pid>", is closed and synced, then renamed
// over <path>. On any failure the temporary is removed and InputError names the file and
// what went wrong: a reader never sees a partial file.
#pragma once
#include <mpi.h>

#include <map>
#include <cstddef>
#include <string>
#include <string_view>

#include "instrument/comparison.hpp"
#include "instrument/results_extras.hpp"
#include "instrument/run_results.hpp"

namespace instrument {

inline constexpr const char* kResultsFormat = "suite-results-1";

// The machine parameters a model used, and the file they were read from.
struct MachineRecord {
  std::string source_file;  // "" when none was given (then the model used no machine file)
  Attributes parameters;    // e.g. L = 2.1e-6 (s), o = ..., G = ... (s/byte), S = 4096 (bytes)
};

class MachineFile;
// Every key of a machine file (numbers as int or double, the rest as strings) and its name.
MachineRecord machine_record(const MachineFile& file);

struct ResultsDocument {
  RunResults run;  // from gather_results(): info, phases, counters, trace
  MachineRecord machine;
  Comparison comparison;    // /compare and /model
  ResultsExtras extras;     // app-specific groups
  bool write_trace = true;  // write /trace when the run traced any events
};

// Rank-0 (serial) write; throws InputError(path, ...) on failure, leaving no file behind.
// A malformed document (columns of unequal length, a name that cannot be a link, extras
// inside a common group) throws std::invalid_argument before anything is created.
void write_results(const std::string& path, const ResultsDocument& doc);

// Collective: `root` writes, and every rank of comm learns the verdict, so a failed write
// ends every rank with the same one-line message (CollectiveError).
void write_results_on_root(const std::string& path, const ResultsDocument& doc, MPI_Comm comm,
                           int root = 0);

// Reads a file written by write_results. InputError(path, where, what) when the file is
// missing, not a regular file, larger than 2 GiB or than memory allows, unsealed or not
// matching its seal (damaged, truncated or edited: see results_seal.hpp), not ours (no or
// another `format`), or lacks a part of the layout. The file is read once, whole, and
// parsed from memory: it cannot change under the reader.
ResultsDocument read_results(const std::string& path);
// The largest file read_results accepts: a traced run of 10^7 events is ~0.5 GB, and the
// image is held twice while parsed.
inline constexpr std::size_t kMaxResultsFileBytes = std::size_t{2} << 30;

// The same from a whole file's bytes (`name` is used in errors): for the fuzz targets.
ResultsDocument read_results_bytes(std::string_view file_bytes, const std::string& name);

}  // namespace instrument
