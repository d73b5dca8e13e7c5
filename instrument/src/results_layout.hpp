// Names of the results file layout shared by its writer and its reader (private).
#pragma once
#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace instrument::layout {

// Top-level groups the writer owns; app extras live beside them, never inside.
inline constexpr std::array<std::string_view, 7> kCommonGroups = {
    "input", "machine", "phases", "counters", "model", "compare", "trace"};

inline constexpr std::array<std::string_view, 24> kRootAttributes = {
    "format", "app", "version", "git_describe", "date", "host", "mpi_library", "nranks", "threads",
    "clock", "clock_frequency_hz", "clock_read_ns", "clock_start_end_disagreement_ppm",
    "clock_tolerance_ppm", "clock_check", "clock_sync", "pinned_cpu", "machine_load",
    "machine_load_others", "machine_load_steal", "machine_load_cpu_wait", "machine_load_detail",
    "core_round_trip_start", "core_round_trip_end"};

// /compare's attributes: 1, or 0 with the line that says why (machine_load.hpp).
inline constexpr const char* kCompareReliable = "reliable";
inline constexpr const char* kCompareUnreliableBecause = "unreliable_because";
// The longest /compare source cell written, in bytes: the campaign runner's reader refuses
// longer strings (tools/suite_campaign/results.py, MAX_TEXT_BYTES), so the writer cuts a longer
// one and ends it with kCutMark (the printed table keeps the whole text).
inline constexpr std::size_t kMaxCompareSourceBytes = 4096;
inline constexpr std::string_view kCutMark = " [... cut: longer than 4096 bytes]";

inline constexpr const char* kDeckFile = "deck_file";
inline constexpr const char* kDeckText = "deck_text";
inline constexpr const char* kMachineSource = "source_file";
inline constexpr const char* kTraceClockOffset = "clock_offset";
inline constexpr const char* kTraceClockOffsetUncertainty = "clock_offset_uncertainty";

inline bool is_common_group(std::string_view first_component) {
  for (auto g : kCommonGroups)
    if (g == first_component) return true;
  return false;
}

inline bool is_root_attribute(std::string_view name) {
  for (auto a : kRootAttributes)
    if (a == name) return true;
  return false;
}

// "/solution/residual" -> "solution"
inline std::string first_component(const std::string& path) {
  const std::size_t start = path.find_first_not_of('/');
  if (start == std::string::npos) return "";
  return path.substr(start, path.find('/', start) - start);
}

inline std::string trace_rank_name(int rank) { return "rank_" + std::to_string(rank); }

}  // namespace instrument::layout
