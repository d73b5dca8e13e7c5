// The profile a C++ program keeps in memory (bsp_profile.hpp) and the comparison rows the
// BSP model makes of it (profile_comparison.hpp), at p = 1-4: three supersteps (a
// registration, 1000 bytes to the right neighbour under a label, bsp_end's, which pops the
// registration); their labels, times in order, bytes as sent (none to oneself), the
// registrations each commits, h, and each row's l + h g(h) and the
// library's model (superstep curves) worked by hand for a made-up machine. No BSP_PROFILE: no file is written, the profile is in memory.
#include <mpi.h>
#include <sched.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "bsp.h"
#include "bsp_profile.hpp"
#include "bsplib/model/profile_comparison.hpp"
#include "instrument/error.hpp"

namespace {
int failures = 0;
void check(bool ok, const char* what) {
  if (!ok) {
    std::printf("FAIL: %s\n", what);
    ++failures;
  }
}
bool near(double a, double b) { return std::fabs(a - b) <= 1e-15 + 1e-12 * std::fabs(b); }
char area[4096];
char source[1000];
}  // namespace

int main() {
  bsplib::profile_in_memory();
  bsp_begin(bsp_nprocs());
  const int p = bsp_nprocs(), s = bsp_pid();
  // The CPUs, as the library counts them: the union of every process's affinity mask (taken
  // here, while every process is in the section).
  cpu_set_t cpus;
  CPU_ZERO(&cpus);
  if (sched_getaffinity(0, sizeof cpus, &cpus) != 0) CPU_ZERO(&cpus);
  MPI_Allreduce(MPI_IN_PLACE, &cpus, static_cast<int>(sizeof cpus), MPI_BYTE, MPI_BOR, MPI_COMM_WORLD);
  const int usable = CPU_COUNT(&cpus);
  bsp_push_reg(area, static_cast<int>(sizeof area));
  bsp_sync();
  bsp_profile_label("put 1000");
  bsp_put((s + 1) % p, source, area, 0, static_cast<int>(sizeof source));
  bsp_sync();
  check(bsplib::ended_section_profile().nprocs == 0, "a profile before bsp_end");
  bsp_pop_reg(area);
  bsp_end();
  if (s != 0) return failures ? 1 : 0;  // reached only where the program owns MPI itself

  const bsplib::SectionProfile& sec = bsplib::ended_section_profile();
  check(sec.nprocs == p, "nprocs is the section's p");
  // The placement of the CPUs (bsp_round_trip.hpp): at bsp_begin and bsp_end, one node; none
  // at p = 1 or with more processes than CPUs (oversubscribed: the tests run p = 4 on 2).
  // 10 ns to 10 ms (a loaded host may deschedule a partner for a while).
  check(sec.core_round_trip_seconds.size() == (p > 1 && p <= usable ? 2u : 0u),
        "two round trips at 1 < p <= CPUs, none otherwise");
  for (double rt : sec.core_round_trip_seconds) check(rt > 1e-8 && rt < 1e-2, "a round trip's time");
  check(sec.supersteps() == 3, "three supersteps: two syncs and bsp_end");
  if (sec.nprocs != p || sec.supersteps() != 3) return 1;
  check(sec.labels[0].rfind("t_profile_in_memory.cpp:", 0) == 0, "label 0 is the call site");
  check(sec.labels[1] == "put 1000", "label 1 is bsp_profile_label's");
  check(sec.labels[2] == "bsp_end", "label 2 is bsp_end");
  const double bytes = p > 1 ? 1000 : 0;  // a copy to oneself is not communication
  for (int q = 0; q < p; ++q)
    for (std::size_t k = 0; k < 3; ++k) {
      const bsplib::ProfiledStep& r = sec.at(k, q);
      check(r.t_begin <= r.t_enter && r.t_enter <= r.t_exit, "times in order");
      // A superstep begins once the last one's record is written (the profiler's own time
      // is in no superstep): at or just after the last sync's end.
      if (k > 0)
        check(r.t_begin >= sec.at(k - 1, q).t_exit && r.t_begin - sec.at(k - 1, q).t_exit < 0.01,
              "a superstep begins after the last sync's end");
      const double want = k == 1 ? bytes : 0;
      check(r.bytes_out == want && r.bytes_in == want, "bytes as sent");
      check(r.msgs_out == (want > 0 ? 1 : 0), "one message per peer with data");
      check(r.pushes == (k == 0 ? 1 : 0), "the push in superstep 0 only");
      check(r.pops == (k == 2 ? 1 : 0), "the pop in bsp_end's superstep only");
    }

  const bspmodel::Profile prof = bspmodel::profile_from_section(sec, "this run");
  check(prof.steps[1].h_bytes == bytes, "h of the put superstep");
  check(prof.registrations_known, "a profile in memory has the registrations");
  check(prof.steps[0].pushes == 1 && prof.steps[2].pops == 1 && prof.steps[1].pops == 0,
        "the registrations per superstep carried over");
  check(prof.core_round_trip_seconds == sec.core_round_trip_seconds, "the round trips carried over");
  bspmodel::BspMachine m;
  m.file = "hand-made";
  m.l_seconds = 2e-6;
  m.g_seconds_per_byte = 1e-9;
  m.n_half_bytes = 100;
  instrument::Comparison c;
  bspmodel::add_bsp_comparison(c, prof, m);
  check(c.rows().size() == 5, "a row per superstep, the comm+sync total, the run");
  if (c.rows().size() != 5) return 1;
  // l + (h + N_1/2) g for h > 0, l for h = 0
  const double put_step = p > 1 ? 2e-6 + 1100 * 1e-9 : 2e-6;
  check(near(c.rows()[0].modelled, 2e-6) && near(c.rows()[2].modelled, 2e-6), "l alone");
  check(near(c.rows()[1].modelled, put_step), "l + (h + N_1/2) g");
  check(near(c.rows()[3].modelled, 4e-6 + put_step), "the total is the sum");
  double measured = 0, w = 0;
  for (const bspmodel::SuperstepSummary& st : prof.steps) {
    measured += st.comm_sync;
    w += st.w_max;
  }
  check(near(c.rows()[1].measured, prof.steps[1].comm_sync), "measured is comm+sync");
  check(near(c.rows()[3].measured, measured), "measured total");
  check(near(c.rows()[4].measured, w + measured) && near(c.rows()[4].modelled, w + 4e-6 + put_step),
        "the run adds the measured w");
  // The same with the probe's superstep curves (made up): every process sends 1000 B to its
  // neighbour and receives as many, the exchange pattern, read off its curve half way
  // between 5 us at 500 B and 7 us at 1500 B; the empty supersteps cost the empty one, 1 us.
  // Rows: three supersteps, the total by pattern, the eq. 3 total, the run.
  m.curves.empty_seconds = 1e-6;
  m.curves.h_bytes = {500, 1500};
  m.curves.one_way = {2e-6, 3e-6};
  m.curves.exchange = {5e-6, 7e-6};
  m.curves.gets = {9e-6, 9e-6};
  instrument::Comparison cc;
  bspmodel::add_bsp_comparison(cc, prof, m);
  check(cc.rows().size() == 6, "with curves: a row per superstep, two totals, the run");
  if (cc.rows().size() != 6) return 1;
  const double exchange = p > 1 ? 6e-6 : 1e-6;
  check(cc.rows()[1].term.find(p > 1 ? "(exchange)" : "(none)") != std::string::npos,
        "the pattern is named");
  check(near(cc.rows()[0].modelled, 1e-6) && near(cc.rows()[2].modelled, 1e-6),
        "the empty superstep");
  check(near(cc.rows()[1].modelled, exchange), "the exchange curve at h");
  check(near(cc.rows()[3].modelled, 2e-6 + exchange), "the total by pattern");
  check(near(cc.rows()[4].modelled, 4e-6 + put_step), "the eq. 3 total beside it");
  check(near(cc.rows()[5].modelled, w + 2e-6 + exchange), "the run by pattern");
  try {
    bspmodel::profile_from_section(bsplib::SectionProfile{}, "nothing");
    check(false, "an empty profile is refused");
  } catch (const instrument::InputError&) {
  }
  if (failures) return 1;
  std::printf("PASS t_profile_in_memory (p = %d)\n", p);
  return 0;
}
