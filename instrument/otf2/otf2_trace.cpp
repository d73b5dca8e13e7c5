#include "otf2_trace.hpp"

#include <fcntl.h>
#include <otf2/otf2.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <csignal>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <map>
#include <numeric>
#include <vector>

#include "instrument/comm.hpp"
#include "instrument/error.hpp"

namespace instrument {

namespace {

namespace fs = std::filesystem;

constexpr std::uint64_t kTicksPerSecond = 1000000000;  // nanoseconds
constexpr OTF2_CommRef kWorld = 0;
constexpr OTF2_GroupRef kWorldLocations = 0, kWorldRanks = 1;
constexpr OTF2_SystemTreeNodeRef kHostNode = 0;

// ---- the output directory -----------------------------------------------------------------

std::string directory_of(const std::string& path) {
  const auto slash = path.find_last_of('/');
  if (slash == std::string::npos) return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

std::string base_name(const std::string& path) {
  const auto slash = path.find_last_of('/');
  return slash == std::string::npos ? path : path.substr(slash + 1);
}

[[noreturn]] void refuse(const std::string& out_dir, const std::string& why) {
  throw InputError(out_dir, "", "cannot write OTF2 archive: " + why);
}

enum class Existing { none, empty_directory, earlier_export };

Existing existing_output(const std::string& out_dir) {
  struct stat st {};
  if (::lstat(out_dir.c_str(), &st) != 0) {
    if (errno == ENOENT) return Existing::none;
    refuse(out_dir, std::strerror(errno));
  }
  if (S_ISLNK(st.st_mode)) refuse(out_dir, "it is a symbolic link; refusing to write through it; give the real path");
  if (!S_ISDIR(st.st_mode))
    refuse(out_dir, "it exists and is not a directory; refusing to replace it (the archive is a directory)");
  std::error_code ec;
  if (fs::is_empty(out_dir, ec)) return Existing::empty_directory;
  const std::string anchor = out_dir + "/" + kOtf2ArchiveName + ".otf2";
  if (::lstat(anchor.c_str(), &st) == 0 && S_ISREG(st.st_mode)) return Existing::earlier_export;
  refuse(out_dir, std::string("it is a directory holding other files than an OTF2 export (no ") + kOtf2ArchiveName +
                      ".otf2); refusing to replace it");
}

// "<out_dir>.tmp.<pid>" directories of writers that no longer run (kill(pid, 0): ESRCH).
void remove_stale_temporaries(const std::string& out_dir) {
  const std::string prefix = base_name(out_dir) + ".tmp.";
  std::error_code ec;
  for (fs::directory_iterator it(directory_of(out_dir), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    if (name.compare(0, prefix.size(), prefix) != 0) continue;
    const std::string digits = name.substr(prefix.size());
    if (digits.empty() || digits.size() > 9 || !std::all_of(digits.begin(), digits.end(), ::isdigit)) continue;
    if (::kill(static_cast<pid_t>(std::stol(digits)), 0) == 0 || errno != ESRCH) continue;
    std::error_code rm;
    if (it->symlink_status(rm).type() == fs::file_type::directory) fs::remove_all(it->path(), rm);
  }
}

// Removes the temporary directory unless committed (every exception on the way).
struct TemporaryDirectory {
  std::string path;
  bool keep = false;
  ~TemporaryDirectory() {
    std::error_code ec;
    if (!keep && !path.empty()) fs::remove_all(path, ec);
  }
};

// ---- OTF2 calls -----------------------------------------------------------------------------

// The first message the library reported, kept instead of printed (the tool's error is one line).
std::string g_otf2_message;

OTF2_ErrorCode keep_message(void*, const char*, uint64_t, const char*, OTF2_ErrorCode code, const char* format,
                            va_list args) {
  if (g_otf2_message.empty()) {
    char buf[512];
    std::vsnprintf(buf, sizeof buf, format, args);
    g_otf2_message = buf;
  }
  return code;
}

struct Library {
  std::string out_dir;
  void check(OTF2_ErrorCode code, const char* what) const {
    if (code == OTF2_SUCCESS) return;
    std::string detail = OTF2_Error_GetDescription(code);
    if (!g_otf2_message.empty()) detail += " (" + g_otf2_message + ")";
    refuse(out_dir, std::string(what) + ": " + detail);
  }
};

// The timestamp of the record being written: what a buffer flush in the middle of the trace
// is stamped with, so that the flush record keeps the location's timestamps in order.
OTF2_TimeStamp g_now = 0;

OTF2_FlushType pre_flush(void*, OTF2_FileType, OTF2_LocationRef, void*, bool) { return OTF2_FLUSH; }
OTF2_TimeStamp post_flush(void*, OTF2_FileType, OTF2_LocationRef) { return g_now; }

struct ArchiveCloser {
  OTF2_Archive* archive = nullptr;
  ~ArchiveCloser() {
    if (archive) OTF2_Archive_Close(archive);
  }
};

// ---- the trace as records -------------------------------------------------------------------

enum class CommKind { none, send, recv, isend, irecv, wait, allreduce, barrier, bcast };

struct RegionKind {
  CommKind comm = CommKind::none;
  const char* mpi_name = nullptr;  // the MPI call the Comm phase times
  OTF2_RegionRole role = OTF2_REGION_ROLE_CODE;
};

RegionKind region_kind(const std::string& phase) {
  using namespace comm_phase;
  struct Row { const char* phase; RegionKind kind; };
  static const Row rows[] = {
      {kSend, {CommKind::send, "MPI_Send", OTF2_REGION_ROLE_POINT2POINT}},
      {kRecv, {CommKind::recv, "MPI_Recv", OTF2_REGION_ROLE_POINT2POINT}},
      {kIsend, {CommKind::isend, "MPI_Isend", OTF2_REGION_ROLE_POINT2POINT}},
      {kIrecv, {CommKind::irecv, "MPI_Irecv", OTF2_REGION_ROLE_POINT2POINT}},
      {kWait, {CommKind::wait, "MPI_Wait", OTF2_REGION_ROLE_POINT2POINT}},
      {kAllreduce, {CommKind::allreduce, "MPI_Allreduce", OTF2_REGION_ROLE_COLL_ALL2ALL}},
      {kBarrier, {CommKind::barrier, "MPI_Barrier", OTF2_REGION_ROLE_BARRIER}},
      {kBcast, {CommKind::bcast, "MPI_Bcast", OTF2_REGION_ROLE_COLL_ONE2ALL}},
  };
  for (const Row& r : rows)
    if (phase == r.phase) return r.kind;
  return {};
}

// An event's times in ticks of the archive's clock.
struct Interval {
  OTF2_TimeStamp begin = 0, end = 0;
  std::size_t index = 0;  // in the rank's events
};

class RankWriter {
 public:
  RankWriter(OTF2_EvtWriter* w, const Library& lib, const std::vector<TraceEvent>& events,
             const std::vector<RegionKind>& kinds, int rank, int nranks, const std::string& file, Otf2Counts& counts)
      : w_(w), lib_(lib), events_(events), kinds_(kinds), rank_(rank), nranks_(nranks), file_(file), counts_(counts) {}

  void write(std::vector<Interval> intervals) {
    // Begin first; of two with one begin the longer (the enclosing one); of two identical, the
    // later stored (the recorder stores a parent after its children).
    std::sort(intervals.begin(), intervals.end(), [](const Interval& a, const Interval& b) {
      if (a.begin != b.begin) return a.begin < b.begin;
      if (a.end != b.end) return a.end > b.end;
      return a.index > b.index;
    });
    for (Interval& iv : intervals) {
      while (!open_.empty() && open_.back().end <= iv.begin) leave();
      if (!open_.empty() && iv.end > open_.back().end) {
        iv.end = open_.back().end;  // ends with the interval around it (see the header)
        ++counts_.clamped;
      }
      enter(iv);
    }
    while (!open_.empty()) leave();
  }

 private:
  const TraceEvent& event(const Interval& iv) const { return events_[iv.index]; }
  std::string place(const Interval& iv) const {
    return "/trace/rank_" + std::to_string(rank_) + " event " + std::to_string(iv.index);
  }
  std::uint32_t peer_rank(const Interval& iv, std::int32_t peer, const char* what) const {
    if (peer < 0 || peer >= nranks_)
      throw InputError(file_, place(iv),
                       std::string("a ") + what + " rank in [0, " + std::to_string(nranks_) + "), got " +
                           std::to_string(peer));
    return static_cast<std::uint32_t>(peer);
  }
  std::uint32_t tag_of(const Interval& iv) const {
    const std::int32_t tag = event(iv).tag;
    if (tag < 0) throw InputError(file_, place(iv), "a message tag >= 0, got " + std::to_string(tag));
    return static_cast<std::uint32_t>(tag);
  }
  static std::uint64_t bytes_of(const TraceEvent& e) { return e.bytes > 0 ? static_cast<std::uint64_t>(e.bytes) : 0; }
  void at(OTF2_TimeStamp t) {
    g_now = t;
    ++counts_.events;
  }

  void enter(const Interval& iv) {
    const TraceEvent& e = event(iv);
    const auto region = static_cast<OTF2_RegionRef>(e.kind);
    at(iv.begin);
    lib_.check(OTF2_EvtWriter_Enter(w_, nullptr, iv.begin, region), "writing an Enter");
    switch (kinds_[static_cast<std::size_t>(e.kind)].comm) {
      case CommKind::send:
        at(iv.begin);
        lib_.check(OTF2_EvtWriter_MpiSend(w_, nullptr, iv.begin, peer_rank(iv, e.peer, "receiver"), kWorld,
                                          tag_of(iv), bytes_of(e)),
                   "writing an MpiSend");
        ++counts_.sends;
        break;
      case CommKind::isend:
        at(iv.begin);
        lib_.check(OTF2_EvtWriter_MpiIsend(w_, nullptr, iv.begin, peer_rank(iv, e.peer, "receiver"), kWorld,
                                           tag_of(iv), bytes_of(e), request_id(iv)),
                   "writing an MpiIsend");
        posted_[e.request] = true;
        ++counts_.sends;
        break;
      case CommKind::irecv:
        at(iv.begin);
        lib_.check(OTF2_EvtWriter_MpiIrecvRequest(w_, nullptr, iv.begin, request_id(iv)), "writing an MpiIrecvRequest");
        posted_[e.request] = false;
        break;
      case CommKind::allreduce:
      case CommKind::barrier:
      case CommKind::bcast:
        at(iv.begin);
        lib_.check(OTF2_EvtWriter_MpiCollectiveBegin(w_, nullptr, iv.begin), "writing an MpiCollectiveBegin");
        break;
      default:
        break;
    }
    open_.push_back(iv);
  }

  void leave() {
    const Interval iv = open_.back();
    open_.pop_back();
    const TraceEvent& e = event(iv);
    const CommKind comm = kinds_[static_cast<std::size_t>(e.kind)].comm;
    if (comm == CommKind::recv) {
      at(iv.end);
      lib_.check(OTF2_EvtWriter_MpiRecv(w_, nullptr, iv.end, peer_rank(iv, e.peer, "sender"), kWorld, tag_of(iv),
                                        bytes_of(e)),
                 "writing an MpiRecv");
      ++counts_.receives;
    } else if (comm == CommKind::wait) {
      // A wait on a request no post of the trace made (dropped events) is the region alone.
      const auto it = posted_.find(e.request);
      if (it != posted_.end()) {
        at(iv.end);
        if (it->second) {
          lib_.check(OTF2_EvtWriter_MpiIsendComplete(w_, nullptr, iv.end, request_id(iv)),
                     "writing an MpiIsendComplete");
        } else {
          lib_.check(OTF2_EvtWriter_MpiIrecv(w_, nullptr, iv.end, peer_rank(iv, e.peer, "sender"), kWorld,
                                             tag_of(iv), bytes_of(e), request_id(iv)),
                     "writing an MpiIrecv");
          ++counts_.receives;
        }
        posted_.erase(it);
      }
    } else if (comm == CommKind::allreduce || comm == CommKind::barrier || comm == CommKind::bcast) {
      const std::uint64_t bytes = bytes_of(e);
      std::uint64_t sent = bytes, received = bytes;
      std::uint32_t root = OTF2_UNDEFINED_UINT32;
      OTF2_CollectiveOp op = OTF2_COLLECTIVE_OP_ALLREDUCE;
      if (comm == CommKind::barrier) {
        op = OTF2_COLLECTIVE_OP_BARRIER;
        sent = received = 0;
      } else if (comm == CommKind::bcast) {
        op = OTF2_COLLECTIVE_OP_BCAST;
        root = peer_rank(iv, e.peer, "bcast root");
        sent = root == static_cast<std::uint32_t>(rank_) ? bytes : 0;
        received = root == static_cast<std::uint32_t>(rank_) ? 0 : bytes;
      }
      at(iv.end);
      lib_.check(OTF2_EvtWriter_MpiCollectiveEnd(w_, nullptr, iv.end, op, kWorld, root, sent, received),
                 "writing an MpiCollectiveEnd");
      ++counts_.collectives;
    }
    at(iv.end);
    lib_.check(OTF2_EvtWriter_Leave(w_, nullptr, iv.end, static_cast<OTF2_RegionRef>(e.kind)), "writing a Leave");
  }

  std::uint64_t request_id(const Interval& iv) const {
    const std::int32_t r = event(iv).request;
    if (r < 0) throw InputError(file_, place(iv), "a request number >= 0 on a non-blocking call, got " + std::to_string(r));
    return static_cast<std::uint64_t>(r);
  }

  OTF2_EvtWriter* w_;
  const Library& lib_;
  const std::vector<TraceEvent>& events_;
  const std::vector<RegionKind>& kinds_;
  int rank_, nranks_;
  const std::string& file_;
  Otf2Counts& counts_;
  std::vector<Interval> open_;
  std::map<std::int32_t, bool> posted_;  // request -> is a send, from its post to its wait
};

// The definitions' strings, each written once.
class Strings {
 public:
  OTF2_StringRef operator()(const std::string& s) {
    const auto [it, added] = ids_.emplace(s, static_cast<OTF2_StringRef>(ids_.size()));
    if (added) order_.push_back(s);
    return it->second;
  }
  void write(OTF2_GlobalDefWriter* w, const Library& lib) const {
    for (std::size_t i = 0; i < order_.size(); ++i)
      lib.check(OTF2_GlobalDefWriter_WriteString(w, static_cast<OTF2_StringRef>(i), order_[i].c_str()),
                "writing a String definition");
  }

 private:
  std::map<std::string, OTF2_StringRef> ids_;
  std::vector<std::string> order_;
};

}  // namespace

void check_otf2_output(const std::string& out_dir) { existing_output(out_dir); }

Otf2Counts write_otf2_trace(const std::string& out_dir, const GatheredTrace& trace, const RunInfo& info,
                            const std::string& file) {
  const Existing existing = existing_output(out_dir);
  const int nranks = static_cast<int>(trace.per_rank.size());

  // The time base: every time is read and checked before anything is created.
  double base = 0.0;
  for (const auto& events : trace.per_rank)
    for (const TraceEvent& e : events) base = std::min(base, e.t_begin);
  std::vector<std::vector<Interval>> intervals(trace.per_rank.size());
  std::vector<RegionKind> kinds;
  for (const auto& k : trace.kinds) kinds.push_back(region_kind(k));
  for (std::size_t r = 0; r < trace.per_rank.size(); ++r) {
    const auto& events = trace.per_rank[r];
    for (std::size_t i = 0; i < events.size(); ++i) {
      const TraceEvent& e = events[i];
      const std::string where = "/trace/rank_" + std::to_string(r) + " event " + std::to_string(i);
      if (e.kind < 0 || static_cast<std::size_t>(e.kind) >= trace.kinds.size())
        throw InputError(file, where, "a kind in [0, " + std::to_string(trace.kinds.size()) + "), got " +
                                          std::to_string(e.kind));
      auto ticks = [&](double t) {
        const double x = std::round((t - base) * static_cast<double>(kTicksPerSecond));
        if (!(x >= 0.0 && x < 1.8e19))  // uint64 nanoseconds: some 570 years
          throw InputError(file, where, "times within 570 years of the trace's start, got " + std::to_string(t) + " s");
        return static_cast<OTF2_TimeStamp>(x);
      };
      if (!(e.t_end >= e.t_begin))
        throw InputError(file, where, "an end at or after the begin, got " + std::to_string(e.t_begin) + " .. " +
                                          std::to_string(e.t_end) + " s");
      intervals[r].push_back(Interval{ticks(e.t_begin), ticks(e.t_end), i});
    }
  }

  remove_stale_temporaries(out_dir);
  TemporaryDirectory tmp;
  const std::string tmp_path = out_dir + ".tmp." + std::to_string(static_cast<long>(::getpid()));
  std::error_code ec;
  fs::remove_all(tmp_path, ec);  // ours by name: a dead process that had our pid
  if (::mkdir(tmp_path.c_str(), 0777) != 0) refuse(out_dir, "cannot create " + tmp_path + ": " + std::strerror(errno));
  tmp.path = tmp_path;

  Library lib{out_dir};
  g_otf2_message.clear();
  OTF2_Error_RegisterCallback(keep_message, nullptr);
  ArchiveCloser closer;
  closer.archive = OTF2_Archive_Open(tmp_path.c_str(), kOtf2ArchiveName, OTF2_FILEMODE_WRITE, 1024 * 1024,
                                     4 * 1024 * 1024, OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
  if (!closer.archive) lib.check(OTF2_ERROR_FILE_INTERACTION, "opening the archive");
  OTF2_Archive* archive = closer.archive;
  static const OTF2_FlushCallbacks flush{pre_flush, post_flush};
  lib.check(OTF2_Archive_SetFlushCallbacks(archive, &flush, nullptr), "setting the flush callbacks");
  lib.check(OTF2_Archive_SetSerialCollectiveCallbacks(archive), "setting the collective callbacks");
  const std::string host = info.host.empty() ? "unknown host" : info.host;
  lib.check(OTF2_Archive_SetCreator(archive, "instrument-trace-export (hpc_perfmodel_suite)"), "setting the creator");
  lib.check(OTF2_Archive_SetDescription(archive, (info.app + " run of " + std::to_string(nranks) + " ranks on " +
                                                  host + (info.date.empty() ? "" : " at " + info.date))
                                                     .c_str()),
            "setting the description");
  lib.check(OTF2_Archive_SetMachineName(archive, host.c_str()), "setting the machine name");

  Otf2Counts counts;
  counts.locations = nranks;
  std::vector<std::uint64_t> events_per_location(trace.per_rank.size(), 0);
  OTF2_TimeStamp last = 0;
  lib.check(OTF2_Archive_OpenEvtFiles(archive), "opening the event files");
  for (int r = 0; r < nranks; ++r) {
    OTF2_EvtWriter* w = OTF2_Archive_GetEvtWriter(archive, static_cast<OTF2_LocationRef>(r));
    if (!w) lib.check(OTF2_ERROR_FILE_INTERACTION, "creating an event writer");
    g_now = 0;
    RankWriter(w, lib, trace.per_rank[static_cast<std::size_t>(r)], kinds, r, nranks, file, counts)
        .write(std::move(intervals[static_cast<std::size_t>(r)]));
    last = std::max(last, g_now);
    uint64_t n = 0;
    lib.check(OTF2_EvtWriter_GetNumberOfEvents(w, &n), "counting the events");
    events_per_location[static_cast<std::size_t>(r)] = n;
    lib.check(OTF2_Archive_CloseEvtWriter(archive, w), "closing an event writer");
  }
  lib.check(OTF2_Archive_CloseEvtFiles(archive), "closing the event files");

  // Per-location definition files: empty (every definition is global), but expected.
  lib.check(OTF2_Archive_OpenDefFiles(archive), "opening the definition files");
  for (int r = 0; r < nranks; ++r) {
    OTF2_DefWriter* d = OTF2_Archive_GetDefWriter(archive, static_cast<OTF2_LocationRef>(r));
    if (!d) lib.check(OTF2_ERROR_FILE_INTERACTION, "creating a definition writer");
    lib.check(OTF2_Archive_CloseDefWriter(archive, d), "closing a definition writer");
  }
  lib.check(OTF2_Archive_CloseDefFiles(archive), "closing the definition files");

  OTF2_GlobalDefWriter* g = OTF2_Archive_GetGlobalDefWriter(archive);
  if (!g) lib.check(OTF2_ERROR_FILE_INTERACTION, "creating the global definition writer");
  Strings str;
  const OTF2_StringRef empty = str(""), mpi = str("MPI");
  const OTF2_StringRef host_name = str(host), node_class = str("node");
  const OTF2_StringRef world = str("MPI_COMM_WORLD");
  std::vector<OTF2_StringRef> region_name, region_description;
  for (std::size_t k = 0; k < trace.kinds.size(); ++k) {
    region_name.push_back(str(kinds[k].mpi_name ? kinds[k].mpi_name : trace.kinds[k]));
    region_description.push_back(str("suite phase " + trace.kinds[k]));
  }
  std::vector<OTF2_StringRef> group_name, location_name;
  for (int r = 0; r < nranks; ++r) {
    group_name.push_back(str("MPI Rank " + std::to_string(r)));
    location_name.push_back(str("rank " + std::to_string(r)));
  }
  str.write(g, lib);
  lib.check(OTF2_GlobalDefWriter_WriteClockProperties(g, kTicksPerSecond, 0, last, OTF2_UNDEFINED_TIMESTAMP),
            "writing the clock properties");
  lib.check(OTF2_GlobalDefWriter_WriteParadigm(g, OTF2_PARADIGM_MPI, mpi, OTF2_PARADIGM_CLASS_PROCESS),
            "writing the MPI paradigm");
  for (std::size_t k = 0; k < trace.kinds.size(); ++k)
    lib.check(OTF2_GlobalDefWriter_WriteRegion(g, static_cast<OTF2_RegionRef>(k), region_name[k], region_name[k],
                                               region_description[k], kinds[k].role,
                                               kinds[k].mpi_name ? OTF2_PARADIGM_MPI : OTF2_PARADIGM_USER,
                                               OTF2_REGION_FLAG_NONE, empty, 0, 0),
              "writing a Region definition");
  lib.check(OTF2_GlobalDefWriter_WriteSystemTreeNode(g, kHostNode, host_name, node_class,
                                                     OTF2_UNDEFINED_SYSTEM_TREE_NODE),
            "writing the system tree");
  for (int r = 0; r < nranks; ++r)
    lib.check(OTF2_GlobalDefWriter_WriteLocationGroup(g, static_cast<OTF2_LocationGroupRef>(r),
                                                      group_name[static_cast<std::size_t>(r)],
                                                      OTF2_LOCATION_GROUP_TYPE_PROCESS, kHostNode,
                                                      OTF2_UNDEFINED_LOCATION_GROUP),
              "writing a LocationGroup definition");
  for (int r = 0; r < nranks; ++r)
    lib.check(OTF2_GlobalDefWriter_WriteLocation(g, static_cast<OTF2_LocationRef>(r),
                                                 location_name[static_cast<std::size_t>(r)],
                                                 OTF2_LOCATION_TYPE_CPU_THREAD,
                                                 events_per_location[static_cast<std::size_t>(r)],
                                                 static_cast<OTF2_LocationGroupRef>(r)),
              "writing a Location definition");
  // MPI_COMM_WORLD as Score-P writes it: the locations of the ranks, and the communicator's
  // group of ranks (indices into that list).
  std::vector<std::uint64_t> members(static_cast<std::size_t>(nranks));
  std::iota(members.begin(), members.end(), std::uint64_t{0});
  lib.check(OTF2_GlobalDefWriter_WriteGroup(g, kWorldLocations, empty, OTF2_GROUP_TYPE_COMM_LOCATIONS,
                                            OTF2_PARADIGM_MPI, OTF2_GROUP_FLAG_NONE,
                                            static_cast<uint32_t>(nranks), members.data()),
            "writing the MPI locations group");
  lib.check(OTF2_GlobalDefWriter_WriteGroup(g, kWorldRanks, empty, OTF2_GROUP_TYPE_COMM_GROUP, OTF2_PARADIGM_MPI,
                                            OTF2_GROUP_FLAG_NONE, static_cast<uint32_t>(nranks), members.data()),
            "writing the MPI_COMM_WORLD group");
  lib.check(OTF2_GlobalDefWriter_WriteComm(g, kWorld, world, kWorldRanks, OTF2_UNDEFINED_COMM, OTF2_COMM_FLAG_NONE),
            "writing the MPI_COMM_WORLD definition");
  closer.archive = nullptr;
  lib.check(OTF2_Archive_Close(archive), "closing the archive");

  // In place at once: renamed (over an empty directory), or exchanged with an earlier export,
  // which then goes in the temporary's place and is removed with it.
  if (existing == Existing::earlier_export) {
    if (::renameat2(AT_FDCWD, tmp_path.c_str(), AT_FDCWD, out_dir.c_str(), RENAME_EXCHANGE) != 0)
      refuse(out_dir, "cannot replace the earlier export with " + tmp_path + ": " + std::strerror(errno));
  } else {
    if (::rename(tmp_path.c_str(), out_dir.c_str()) != 0)
      refuse(out_dir, "cannot rename " + tmp_path + " to it: " + std::strerror(errno));
    tmp.keep = true;
  }
  return counts;
}

}  // namespace instrument
