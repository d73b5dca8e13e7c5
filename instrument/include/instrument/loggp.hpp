// The LogGP message costs of Sundaram-Stukel & Vernon (PPoPP'99, §3, eq. 1-4): L common to
// all sizes, o and G per message-size band, and a handshake (rendezvous) above a threshold.
//
//   k <  rendezvous_bytes:  Total_Comm = o + X(k) + L + o                          (1)
//                           Send = o, Receive = o                                 (3a, 3b)
//   k >= rendezvous_bytes:  Total_Comm = o_s + L + o_s + o_s + L + o_l
//                                        + X(k) + L + o_l                         (2)
//                           Send    = o_s + L + o_s + o_s + L + o_l                (4a)
//                           Receive = o_s + L + o_l + X(k) + L + o_l               (4b)
// where o (o_l) is that of k's band and o_s is the o of the smallest band (the header and the
// acknowledgement are small messages). X(k) is the time the k bytes take:
//   per_byte = band_rate (the paper):  X(k) = k G, G of k's band;
//   per_byte = cumulative:             X(k) = the bytes of (0, k] in each band's range times
//                                      that band's G (continuous in k, like the gap steps of
//                                      loggps.hpp). On a shared-memory node the cost per byte
//                                      RISES with the size once messages leave the caches; a
//                                      band rate can follow that only with o falling across
//                                      the band edge (Send falling), a cumulative one cannot
//                                      fall anywhere if every G >= 0.
// The paper has two bands (<= 1 KB, > 1 KB) and the handshake from 4 KB; here the bands and
// the threshold are whatever the probe measured. Units: seconds, seconds per byte, bytes.
//
// Constraints (validate, called by read_params; the probe's files meet them):
//   every value in its physical range (instrument/src/model_ranges.hpp, named in the error):
//   L in [0, 1] s; 1 to 64 bands, each o in [0, 1] s, G in [0, 1e-6] s/B (1 MB/s), and
//   upper_bytes in [1, 2^40] B; rendezvous_bytes in [1, 2^40] B;
//   at every check size k (powers of two 1 B .. 16 MiB, every band edge and the handshake
//   +-1): Send, Receive, Total_Comm > 0 and non-decreasing in k. Within a band they are linear
//   with G >= 0; across a band edge each may step down by at most kEdgeTolerance (relative) and
//   Total_Comm may step by at most kEdgeTolerance either way beyond what the new band's slope
//   adds over that byte (continuity), except at the handshake, where it may jump up. (The paper's own Table 1 steps down 0.7% at 1 KB:
//   126.68 -> 125.75 us, which is why a tolerance and not strict monotonicity.)
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace instrument {

class MachineFile;

namespace loggp {

// Tolerance of continuity and monotonicity across a band edge: the probe's band fit, whose
// lines fit every size of a band within this relative error.
constexpr double kEdgeTolerance = 0.04;
// Sizes the constraints are checked over.
constexpr std::int64_t kCheckMaxBytes = std::int64_t{16} << 20;

enum class PerByteCost { band_rate, cumulative };

struct LogGpBand {
  std::int64_t upper_bytes = 0;  // the band holds sizes in (previous upper, upper]
  double o = 0.0;                // seconds
  double G = 0.0;                // seconds per byte
};

struct LogGpParams {
  double L = 0.0;                     // seconds
  std::int64_t rendezvous_bytes = 0;  // smallest size sent with the handshake
  std::vector<LogGpBand> bands;       // increasing upper_bytes; sizes above the last use it
  PerByteCost per_byte = PerByteCost::band_rate;  // how X(k) is made of the bands' G
};

// The band of a k-byte message (the last band for k above every upper bound).
const LogGpBand& band_for(const LogGpParams& p, std::int64_t k);
bool has_handshake(const LogGpParams& p, std::int64_t k);  // k >= rendezvous_bytes

double transfer_time(const LogGpParams& p, std::int64_t k);  // X(k), see above
double total_comm(const LogGpParams& p, std::int64_t k);     // eq. (1) or (2)
double send_cost(const LogGpParams& p, std::int64_t k);      // eq. (3a) or (4a)
double receive_cost(const LogGpParams& p, std::int64_t k);   // eq. (3b) or (4b)
// Round trip of a ping-pong with both receives posted: 2 x Total_Comm.
double round_trip_time(const LogGpParams& p, std::int64_t k);

// Throws InputError(source, key, what) for the first constraint (above) that p breaks: the
// key responsible (e.g. loggp.band.6.o, or loggp.band.6 for a step at its lower edge) and,
// for a cost, the size at which it fails.
void validate(const LogGpParams& p, const std::string& source);

// Machine file keys: loggp.L, loggp.rendezvous_bytes, loggp.bands = n,
// loggp.band.<i>.upper_bytes, loggp.band.<i>.o, loggp.band.<i>.G (i = 1..n), and
// loggp.per_byte_cost = band-rate (default when absent) | cumulative. read_params validates.
LogGpParams read_params(const MachineFile& file);
void write_params(const LogGpParams& p, MachineFile& file);

}  // namespace loggp
}  // namespace instrument
