// Export of a gathered trace (a results file's /trace) as an OTF2 archive, the format of
// Score-P that Vampir, otf2-print and the Score-P tools read.
//
// What the archive holds:
//   - one location (a CPU thread) per rank, in a location group "MPI Rank r" (a process) under
//     one system-tree node, the run's host;
//   - every event's begin and end on one time base: nanoseconds (timer resolution 1e9) from the
//     earliest of 0 (the earliest rank's recorder start, the Chrome export's zero) and the
//     earliest event (a rank whose clock offset put it before the others);
//   - each phase of the trace as a region, each recorded interval as Enter/Leave on its rank's
//     location; the Comm phases (comm.hpp) as the MPI calls they time (MPI_Send, ..., region
//     paradigm MPI), the rest as user regions under their own names;
//   - the messages as MPI point-to-point records on MPI_COMM_WORLD (a communicator over all
//     ranks): MpiSend at a send's Enter, MpiRecv at a receive's Leave, MpiIsend and
//     MpiIrecvRequest at the posts, MpiIsendComplete and MpiIrecv (with the source, tag and
//     bytes MPI matched) at the wait that completes the request; collectives (allreduce,
//     barrier, bcast with its root) as MpiCollectiveBegin/End inside their region.
//
// Nesting. The recorder stores an interval when it closes, children before their parent, so
// each rank's events are ordered here by begin (the enclosing one first) and opened and closed
// on a stack. Intervals the hooks took from two clock reads nest exactly; one that would end
// after the interval around it (an interval given in seconds, rounded differently) ends with
// it, so that every location's Enter/Leave nest and its timestamps never decrease, as OTF2
// requires.
//
// Written completely or not at all: into "<out_dir>.tmp.<pid>", renamed to out_dir at the end.
// out_dir may be absent, an empty directory, or an earlier export (a directory holding
// traces.otf2), which is replaced in one atomic exchange; anything else is refused before
// anything is written. Temporaries of writers that no longer run are removed first.
#pragma once
#include <cstdint>
#include <string>

#include "instrument/run_results.hpp"

namespace instrument {

// The archive's anchor file under out_dir.
inline constexpr const char* kOtf2ArchiveName = "traces";  // out_dir/traces.otf2, out_dir/traces/

struct Otf2Counts {
  std::int64_t locations = 0;
  std::int64_t events = 0;  // every record written, Enter/Leave included
  std::int64_t sends = 0;     // MpiSend + MpiIsend
  std::int64_t receives = 0;  // MpiRecv + MpiIrecv
  std::int64_t collectives = 0;
  std::int64_t clamped = 0;  // intervals ended early to nest in their parent (see above)
};

// Refuses out_dir now (what the write would refuse: a symbolic link, a file, a directory that
// is not an earlier export), creating nothing. InputError(out_dir, "", ...).
void check_otf2_output(const std::string& out_dir);

// `file` names the results file in errors about the trace itself (a peer outside the ranks,
// a time beyond the time base): InputError(file, "/trace/rank_<r>", ...). Write failures:
// InputError(out_dir, "", "cannot write OTF2 archive: ...").
Otf2Counts write_otf2_trace(const std::string& out_dir, const GatheredTrace& trace, const RunInfo& info,
                            const std::string& file);

}  // namespace instrument
