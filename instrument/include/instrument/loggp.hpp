// The LogGP message costs of Sundaram-Stukel & Vernon (PPoPP'99, §3, eq. 1-4): L common to
// all sizes, o and G per message-size band, and a handshake (rendezvous) above a threshold.
//
//   k <  rendezvous_bytes:  Total_Comm = o + k G + L + o                           (1)
//                           Send = o, Receive = o                                 (3a, 3b)
//   k >= rendezvous_bytes:  Total_Comm = o_s + L + o_s + o_s + L + o_l
//                                        + k G_l + L + o_l                        (2)
//                           Send    = o_s + L + o_s + o_s + L + o_l                (4a)
//                           Receive = o_s + L + o_l + k G_l + L + o_l              (4b)
// where o, G (o_l, G_l) are those of k's band and o_s is the o of the smallest band (the
// header and the acknowledgement are small messages). The paper has two bands (<= 1 KB,
// > 1 KB) and the handshake from 4 KB; here the bands and the threshold are whatever the
// probe measured. Units: seconds, seconds per byte, bytes.
#pragma once
#include <cstdint>
#include <vector>

namespace instrument {

class MachineFile;

namespace loggp {

struct LogGpBand {
  std::int64_t upper_bytes = 0;  // the band holds sizes in (previous upper, upper]
  double o = 0.0;                // seconds
  double G = 0.0;                // seconds per byte
};

struct LogGpParams {
  double L = 0.0;                     // seconds
  std::int64_t rendezvous_bytes = 0;  // smallest size sent with the handshake
  std::vector<LogGpBand> bands;       // increasing upper_bytes; sizes above the last use it
};

// The band of a k-byte message (the last band for k above every upper bound).
const LogGpBand& band_for(const LogGpParams& p, std::int64_t k);
bool has_handshake(const LogGpParams& p, std::int64_t k);  // k >= rendezvous_bytes

double total_comm(const LogGpParams& p, std::int64_t k);    // eq. (1) or (2)
double send_cost(const LogGpParams& p, std::int64_t k);     // eq. (3a) or (4a)
double receive_cost(const LogGpParams& p, std::int64_t k);  // eq. (3b) or (4b)
// Round trip of a ping-pong with both receives posted: 2 x Total_Comm.
double round_trip_time(const LogGpParams& p, std::int64_t k);

// Machine file keys: loggp.L, loggp.rendezvous_bytes, loggp.bands = n,
// loggp.band.<i>.upper_bytes, loggp.band.<i>.o, loggp.band.<i>.G (i = 1..n).
LogGpParams read_params(const MachineFile& file);
void write_params(const LogGpParams& p, MachineFile& file);

}  // namespace loggp
}  // namespace instrument
