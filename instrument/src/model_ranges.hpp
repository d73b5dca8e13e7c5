// The physical range of every number the communication models read from a machine file
// (loggp.*, loggps.*), checked by their validate() on every read and on every fit a probe
// writes, and named in the error: "expected a latency in [0, 1] s, got inf". Internal.
//
// Why these bounds: they are wide enough for any machine an MPI job runs on and narrow
// enough to catch a value in the wrong unit (microseconds or nanoseconds written as seconds)
// and every non-finite value, which would make every modelled time meaningless.
#pragma once
#include <cstdint>
#include <string>

namespace instrument::model_ranges {

struct Range {
  double min, max;
  const char* unit;  // "" for a count
  const char* what;  // "a latency"
};

// One message's latency: microseconds in a cluster, ~0.3 s across the planet; 1 s is no
// network a job runs on.
constexpr Range kLatency{0.0, 1.0, "s", "a latency"};
// CPU time of one send or receive call: microseconds; 1 s is not a call's overhead.
constexpr Range kOverhead{0.0, 1.0, "s", "an overhead"};
// Seconds per byte: 1e-6 s/B is 1 MB/s, slower than 10 Mbit/s Ethernet (0.8e-6 s/B).
constexpr Range kGapPerByte{0.0, 1e-6, "s/B", "a gap per byte"};
// A per-byte CPU cost (LogGPS O_s, O_r): a byte never makes a call cheaper.
constexpr Range kOverheadPerByte{0.0, 1e-6, "s/B", "an overhead per byte"};
// LogGPS G_l and gap steps: the paper's own fits are negative (Ino et al. Table 5, Myrinet
// G_l = -0.74e-9 s/B); validate checks that every T2' stays positive instead.
constexpr Range kSignedGapPerByte{-1e-6, 1e-6, "s/B", "a gap per byte"};
// A message size or threshold: 1 TiB is more than a node's memory, and keeps k * G exact.
constexpr Range kMessageBytes{1.0, 1099511627776.0, "B", "a message size"};
constexpr Range kMessageBytesOrZero{0.0, 1099511627776.0, "B", "a message size"};
// Size bands and gap steps: a probe fits at most one per power of two of a 64-bit size.
constexpr Range kBandCount{1.0, 64.0, "", "a number of size bands"};
constexpr Range kStepCount{0.0, 64.0, "", "a number of gap steps"};

// Throws InputError(source, key, "expected <what> in [min, max] <unit>, got <v>") unless
// min <= v <= max (NaN never is).
void require_in(double v, const Range& r, const std::string& source, const std::string& key);
void require_in(std::int64_t v, const Range& r, const std::string& source, const std::string& key);

}  // namespace instrument::model_ranges
