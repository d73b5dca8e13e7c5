// The sweep3d models with the probe's cold-message figures (loggp.cold.*), by hand: a machine
// file written here with one LogGP band and two cold points, 0 (warm: every call 1 us) and
// 1 MiB (allreduce8 10 us; receive 2 / 3 us and send 1.5 / 2.5 us at 8 B / 8 KiB), held
// beyond 1 MiB and below it down to 1 B. So after any kernel block a face message (>= 8 KiB)
// costs 2 us more to receive and 1.5 us more to send, and the first allreduce 10 us. Without
// the cold keys (a file of an earlier probe) every term is the warm LogGP one, and the rows
// say so. With after-stream keys (loggp.after_stream.*) the two reductions are the probe's
// pair at the model's iteration time, worked by hand below.
#include <catch2/catch.hpp>

#include <string>

#include "instrument/comparison.hpp"
#include "instrument/loggp_cold.hpp"
#include "instrument/machine_file.hpp"
#include "sweep3d/model/iteration_model.hpp"
#include "sweep3d/model/loggp_machine_costs.hpp"
#include "sweep3d/model/loggp_sweep_model.hpp"
#include "sweep3d/model/pipeline_model.hpp"
#include "sweep3d/model/run_comparison.hpp"
#include "model_test_support.hpp"

using namespace sweep3d::model;
using sweep3d::test::calibration;
using sweep3d::test::chain_1x2;
using sweep3d::test::row;

namespace {

const std::string kWarmFile =
    "format = suite-machine-1\nloggp.L = 1e-6\nloggp.rendezvous_bytes = 1048576\nloggp.bands = 1\n"
    "loggp.band.1.upper_bytes = 1073741824\nloggp.band.1.o = 1e-6\nloggp.band.1.G = 1e-9\n";

const std::string kColdKeys =
    "loggp.cold.small_bytes = 8\nloggp.cold.face_bytes = 8192\nloggp.cold.points = 2\n"
    "loggp.cold.point.1.working_set_bytes = 0\nloggp.cold.point.1.allreduce8 = 1e-6\n"
    "loggp.cold.point.1.receive_small = 1e-6\nloggp.cold.point.1.receive_face = 1e-6\n"
    "loggp.cold.point.1.send_small = 1e-6\nloggp.cold.point.1.send_face = 1e-6\n"
    "loggp.cold.point.2.working_set_bytes = 1048576\nloggp.cold.point.2.allreduce8 = 1e-5\n"
    "loggp.cold.point.2.receive_small = 2e-6\nloggp.cold.point.2.receive_face = 3e-6\n"
    "loggp.cold.point.2.send_small = 1.5e-6\nloggp.cold.point.2.send_face = 2.5e-6\n";

// The first collective after a one-way stream (loggp.after_stream.*): 1 us with no stream
// 0.1 ms after the previous collective, 21 us after 20 messages 1.1 ms after it; the second
// 1 us. Linear in the interval between, held outside.
const std::string kStreamKeys =
    "loggp.after_stream.message_bytes = 12000\nloggp.after_stream.gap_seconds = 7e-05\n"
    "loggp.after_stream.points = 2\n"
    "loggp.after_stream.point.1.messages = 0\nloggp.after_stream.point.1.interval_seconds = 1e-4\n"
    "loggp.after_stream.point.1.allreduce8 = 1e-6\nloggp.after_stream.point.1.second_allreduce8 = 1e-6\n"
    "loggp.after_stream.point.2.messages = 20\nloggp.after_stream.point.2.interval_seconds = 1.1e-3\n"
    "loggp.after_stream.point.2.allreduce8 = 21e-6\nloggp.after_stream.point.2.second_allreduce8 = 1e-6\n";

MachineCosts costs(const std::string& text) {
  return machine_costs_from_file(instrument::MachineFile::parse(text, "hand.machine"));
}

instrument::Comparison compare(const MachineCosts& m, const KbaShape& shape) {
  MeasuredSweepRun run;
  run.shape = shape;
  run.fixups_on = {false};
  run.total = 0.01;
  run.path = {{1e-3, 5e-3, 1e-3, 1e-4, 20e-6, 0.0}};
  instrument::Comparison t;
  add_sweep_predictions(t, run, {calibration(), m, "hand.machine"});
  return t;
}

}  // namespace

TEST_CASE("cold allreduce: the first reduction of an iteration at the rank's working set") {
  const MachineCosts warm = costs(kWarmFile), cold = costs(kWarmFile + kColdKeys);
  REQUIRE_FALSE(warm.cold);
  REQUIRE(cold.cold);
  const double warm_allreduce = warm.allreduce(2, 8);
  CHECK(warm_allreduce > 0.0);
  // The first after the flux error: 10 us; the second, at once after it: warm.
  CHECK(iteration_work(chain_1x2(), calibration(), cold).reductions == Approx(10e-6 + warm_allreduce));
  CHECK(iteration_work(chain_1x2(), calibration(), warm).reductions == Approx(2 * warm_allreduce));
  // Working set unknown (no bytes per cell): the warm terms.
  CHECK(iteration_work(chain_1x2(0.0), calibration(), cold).reductions == Approx(2 * warm_allreduce));
  // 4 ranks: the cold pair step plus the warm model's further steps.
  CHECK(cold_allreduce8(cold, 4, 1 << 20) == Approx(10e-6 + warm.allreduce(4, 8) - warm_allreduce));
}

TEST_CASE("cold face messages in the LogGP and pipeline terms") {
  const MachineCosts warm = costs(kWarmFile), cold = costs(kWarmFile + kColdKeys);
  const KbaShape s = chain_1x2();
  REQUIRE(s.j_face_bytes(0) == 12000);
  const double r = 2e-6, snd = 1.5e-6;  // face-size extras over the warm reference
  CHECK(cold_receive_extra(cold, 12000, s.block_bytes(0, 0)) == Approx(r));
  CHECK(cold_send_extra(cold, 12000, s.block_bytes(0, 0)) == Approx(snd));
  CHECK(cold_receive_extra(cold, 8, s.block_bytes(0, 0)) == Approx(1e-6));
  CHECK(cold_receive_extra(warm, 12000, s.block_bytes(0, 0)) == 0.0);

  // LogGP on 1 x 2: StartP_1,2 has one Total_Comm (s + r more), T_56 then 2 kb mmo = 20
  // Receive_N (r more each); T_78 = T_56 (n = 1) and the sweeps 2 (T_56 + T_78).
  const auto g_warm = predict_loggp(s, 3e-9, warm), g_cold = predict_loggp(s, 3e-9, cold);
  CHECK(g_cold.sweeps.computation == Approx(g_warm.sweeps.computation));
  CHECK(g_cold.sweeps.communication - g_warm.sweeps.communication == Approx(4 * (snd + r + 20 * r)));
  // Pipeline on a chain of 2 with eager faces (pipeline_model.cpp): N_sweep = 8 x 2 x 5 = 80
  // messages (one a block) and the 4 J fills' 4 on top; each T_msg both ends after a block.
  const auto p_warm = predict_pipeline(s, 3e-9, warm), p_cold = predict_pipeline(s, 3e-9, cold);
  REQUIRE_FALSE(p_cold.synchronous);
  CHECK(p_cold.t_msg - p_warm.t_msg == Approx(snd + r));
  CHECK(p_cold.t_comm - p_warm.t_comm == Approx(84 * (snd + r)));
}

TEST_CASE("the rows say which figure priced them") {
  const MachineCosts warm = costs(kWarmFile), cold = costs(kWarmFile + kColdKeys);
  const auto t_cold = compare(cold, chain_1x2());
  const auto& red = row(t_cold, "loggp", "reductions");
  CHECK(red.modelled == Approx(10e-6 + warm.allreduce(2, 8)));
  CHECK(red.source.find("cold allreduce8 after 4.50 MB streamed = 10.00 us (loggps-probe)") != std::string::npos);
  CHECK(row(t_cold, "pipeline", "reductions").modelled == Approx(red.modelled));
  CHECK(row(t_cold, "loggp", "sweeps: comm + sync").source.find("receive +2.00 us, send +1.50 us") != std::string::npos);

  const auto t_warm = compare(warm, chain_1x2());
  CHECK(row(t_warm, "loggp", "reductions").modelled == Approx(2 * warm.allreduce(2, 8)));
  CHECK(row(t_warm, "loggp", "reductions").source.find("no cold figures in the machine file") != std::string::npos);
  CHECK(row(t_warm, "pipeline", "sweeps: T_comm").source.find("warm LogGP messages") != std::string::npos);
}

TEST_CASE("the messages a rank receives in a row at the end of an iteration's sweeps") {
  // Octants 7 and 8 sweep +J: 2 kb mmo = 2 x 5 x 2 from rank 0 to rank 1 on 1 x 2.
  CHECK(chain_1x2().one_way_messages_at_end() == 20);
  KbaShape s = chain_1x2();
  s.npe_i = 2;
  s.npe_j = 1;
  CHECK(s.one_way_messages_at_end() == 40);  // octants 5-8 sweep +I: 4 kb mmo
  s.npe_j = 2;
  CHECK(s.one_way_messages_at_end() == 40);
  s.npe_i = s.npe_j = 1;
  CHECK(s.one_way_messages_at_end() == 0);
}

TEST_CASE("after-stream: the first reduction by the time since the previous one") {
  const MachineCosts cold = costs(kWarmFile + kColdKeys), stream = costs(kWarmFile + kColdKeys + kStreamKeys);
  REQUIRE_FALSE(cold.after_stream);
  REQUIRE(stream.after_stream);
  const double warm = cold.allreduce(2, 8);
  REQUIRE(warm > 2e-6);  // L + 2o = 3 us: apart from the probe's 1 us second allreduce
  // 0.6 ms: half way from (0.1 ms, 1 us) to (1.1 ms, 21 us) = 11 us; the second 1 us.
  CHECK(reductions_seconds(chain_1x2(), stream, 0.6e-3) == Approx(11e-6 + 1e-6));
  CHECK(reductions_seconds(chain_1x2(), stream, 50e-3) == Approx(21e-6 + 1e-6));  // held
  // No interval, or no after-stream keys: the cold allreduce at the working set (10 us).
  CHECK(reductions_seconds(chain_1x2(), stream, 0.0) == Approx(10e-6 + warm));
  CHECK(reductions_seconds(chain_1x2(), cold, 0.6e-3) == Approx(10e-6 + warm));
  // 4 ranks: the pair's figure plus the warm model's further steps.
  CHECK(allreduce8_after_stream(stream, 4, 0.6e-3, 0)->first == Approx(11e-6 + stream.allreduce(4, 8) - warm));
  CHECK(allreduce8_after_stream(stream, 4, 0.6e-3, 0)->second == Approx(1e-6 + stream.allreduce(4, 8) - warm));
  CHECK_FALSE(allreduce8_after_stream(stream, 1, 0.6e-3, 0));
  // A file without streaming series: the spinning figures at any working set.
  CHECK(allreduce8_after_stream(stream, 2, 0.6e-3, 4 << 20)->first == Approx(11e-6));

  // In the rows: one rank's sweeps alone are 62500 cells x 48 angles x 3 ns = 9 ms, so the
  // interval of either model is beyond 1.1 ms: 21 us and 1 us, in LogGP and pipeline alike.
  const auto t = compare(stream, chain_1x2());
  for (const char* model : {"loggp", "pipeline"}) {
    const auto& red = row(t, model, "reductions");
    CHECK(red.modelled == Approx(21e-6 + 1e-6));
    CHECK(red.source.find("first allreduce after the sweeps' one-way stream (20 messages in a row at the end)") !=
          std::string::npos);
    CHECK(red.source.find("= 21.00 us, the second 1.00 us (loggps-probe after_stream") != std::string::npos);
  }
  CHECK(row(compare(cold, chain_1x2()), "loggp", "reductions").source.find("no after-stream figures") !=
        std::string::npos);
}

namespace {

// The warm file with the handshake from 8256 B (as MPICH's ch4 shared memory), so the 12000 B
// faces are rendezvous messages, and the probe's rendezvous figures at 12000 and 24000 B:
// warm (N = 0) send 3 / receive 4 us at 12000 B; after 1 MiB (held beyond it and below it
// down to 1 B) send 5 / receive 6 us at 12000 B, 7 / 8 us at 24000 B.
const std::string kEagerTo8255 =
    "format = suite-machine-1\nloggp.L = 1e-6\nloggp.rendezvous_bytes = 8256\nloggp.bands = 1\n"
    "loggp.band.1.upper_bytes = 1073741824\nloggp.band.1.o = 1e-6\nloggp.band.1.G = 1e-9\n";

const std::string kRendezvousKeys =
    "loggp.cold.rendezvous_sizes = 2\nloggp.cold.rendezvous.1.bytes = 12000\nloggp.cold.rendezvous.2.bytes = 24000\n"
    "loggp.cold.point.1.rendezvous.1.send = 3e-6\nloggp.cold.point.1.rendezvous.1.receive = 4e-6\n"
    "loggp.cold.point.1.rendezvous.2.send = 5e-6\nloggp.cold.point.1.rendezvous.2.receive = 6e-6\n"
    "loggp.cold.point.2.rendezvous.1.send = 5e-6\nloggp.cold.point.2.rendezvous.1.receive = 6e-6\n"
    "loggp.cold.point.2.rendezvous.2.send = 7e-6\nloggp.cold.point.2.rendezvous.2.receive = 8e-6\n";

}  // namespace

TEST_CASE("rendezvous faces: the probe's figure above the eager limit, warm + extras below") {
  const MachineCosts eager_only = costs(kEagerTo8255 + kColdKeys), rndv = costs(kEagerTo8255 + kColdKeys + kRendezvousKeys);
  const KbaShape s = chain_1x2();
  const std::int64_t block = s.block_bytes(0, 0);
  REQUIRE(block > 0);
  // Above the eager limit: the figures themselves (not warm + extra); Total_Comm the receive.
  const MessageCosts at12000 = after_kernel_blocks(rndv, block).message(12000);
  REQUIRE(at12000.handshake);
  CHECK(at12000.send == Approx(5e-6));
  CHECK(at12000.receive == Approx(6e-6));
  CHECK(at12000.total_comm == Approx(6e-6));
  CHECK(after_kernel_blocks(rndv, block).message(18000).receive == Approx(7e-6));  // linear in bytes
  CHECK(after_kernel_blocks(rndv, block).message(9000).send == Approx(5e-6));      // held below 12000
  // The post of an Isend (the request-to-send) keeps the eager extra: warm + 1.5 us.
  CHECK(at12000.isend == Approx(eager_only.message(12000).isend + 1.5e-6));
  // Without rendezvous figures (an earlier probe's file): warm + the eager face's extras.
  const MessageCosts old = after_kernel_blocks(eager_only, block).message(12000);
  CHECK(old.receive == Approx(eager_only.message(12000).receive + 2e-6));
  CHECK(old.send == Approx(eager_only.message(12000).send + 1.5e-6));
  // Below the eager limit: the same costs with or without rendezvous figures.
  const MessageCosts below = after_kernel_blocks(rndv, block).message(8000);
  REQUIRE_FALSE(below.handshake);
  CHECK(below.receive == Approx(after_kernel_blocks(eager_only, block).message(8000).receive));
  CHECK(below.send == Approx(after_kernel_blocks(eager_only, block).message(8000).send));
  CHECK(below.total_comm == Approx(after_kernel_blocks(eager_only, block).message(8000).total_comm));
  CHECK_FALSE(rendezvous_after_block(rndv, 8000, block));
  CHECK_FALSE(rendezvous_after_block(rndv, 12000, 0));  // working set unknown

  // LogGP on 1 x 2: one Total_Comm in StartP_1,2 and 20 Receive_N in T_56; T_78 = T_56 and
  // the sweeps 2 (T_56 + T_78): 4 x (6 + 20 x 6) us = 504 us of communication.
  CHECK(predict_loggp(s, 3e-9, rndv).sweeps.communication == Approx(4 * (6e-6 + 20 * 6e-6)));
  // Pipeline on the chain of 2, synchronous faces: T_msg = 6 us, one a block: 80 of them (the
  // measured critical path's count; eq. 7 with a chain's delay 2 charged 1 + 2 x 79 = 159).
  CHECK(predict_pipeline(s, 3e-9, rndv).t_msg == Approx(6e-6));
  CHECK(predict_pipeline(s, 3e-9, rndv).t_comm == Approx(80 * 6e-6));

  // The rows name the figure.
  const auto t = compare(rndv, s);
  CHECK(row(t, "loggp", "sweeps: comm + sync").source.find("face 12000 B above the eager limit, after a block (") !=
        std::string::npos);
  CHECK(row(t, "pipeline", "sweeps: T_comm").source.find("Send 5.00 us, Receive 6.00 us, Total_Comm = T_msg = the "
                                                          "Receive (loggps-probe cold rendezvous") != std::string::npos);
  CHECK(row(compare(eager_only, s), "loggp", "sweeps: comm + sync").source.find("no cold rendezvous figures") !=
        std::string::npos);
  // A file whose points do not name today's order of working sets (loggp.cold.order) is an
  // earlier probe's, and the rows say so; today's probe's file is not.
  const std::string earlier = "an earlier probe's points, its working sets one repetition at a time";
  CHECK(row(t, "loggp", "sweeps: comm + sync").source.find(earlier) != std::string::npos);
  const auto today = compare(costs(kEagerTo8255 + kColdKeys + kRendezvousKeys + "loggp.cold.order = " +
                                   instrument::loggp::kColdOrder + "\n"),
                             s);
  CHECK(row(today, "loggp", "sweeps: comm + sync").source.find(earlier) == std::string::npos);
  CHECK(row(today, "pipeline", "sweeps: T_comm").source.find("Receive 6.00 us") != std::string::npos);
}

namespace {

// kStreamKeys with the series of ranks streaming 1 MiB and 4 MiB: the first allreduce twice
// and three times the spinning ranks' (2, 42 us and 3, 63 us at the two points), the second
// 1.5 and 2 us.
const std::string kStreamWorkingSetKeys =
    "loggp.after_stream.working_sets = 2\nloggp.after_stream.working_set.1.bytes = 1048576\n"
    "loggp.after_stream.working_set.2.bytes = 4194304\n"
    "loggp.after_stream.point.1.working_set.1.allreduce8 = 2e-6\n"
    "loggp.after_stream.point.1.working_set.1.second_allreduce8 = 1.5e-6\n"
    "loggp.after_stream.point.1.working_set.2.allreduce8 = 3e-6\n"
    "loggp.after_stream.point.1.working_set.2.second_allreduce8 = 2e-6\n"
    "loggp.after_stream.point.2.working_set.1.allreduce8 = 42e-6\n"
    "loggp.after_stream.point.2.working_set.1.second_allreduce8 = 1.5e-6\n"
    "loggp.after_stream.point.2.working_set.2.allreduce8 = 63e-6\n"
    "loggp.after_stream.point.2.working_set.2.second_allreduce8 = 2e-6\n";

}  // namespace

TEST_CASE("after-stream: the first reduction at the rank's working set, streamed by its kernel") {
  const MachineCosts m = costs(kWarmFile + kColdKeys + kStreamKeys + kStreamWorkingSetKeys);
  REQUIRE(m.after_stream);
  REQUIRE(m.after_stream->working_sets.size() == 2);
  // 0.6 ms, half way between the points: 22 us at 1 MiB, 33 us at 4 MiB (held above), 11 us
  // spinning; half way to 1 MiB linear in N, 2 MiB half way in log N.
  CHECK(allreduce8_after_stream(m, 2, 0.6e-3, 0)->first == Approx(11e-6));
  CHECK(allreduce8_after_stream(m, 2, 0.6e-3, 1 << 19)->first == Approx(16.5e-6));
  CHECK(allreduce8_after_stream(m, 2, 0.6e-3, 1 << 21)->first == Approx(27.5e-6));
  CHECK(allreduce8_after_stream(m, 2, 0.6e-3, 1 << 30)->first == Approx(33e-6));
  CHECK(allreduce8_after_stream(m, 2, 0.6e-3, 1 << 30)->second == Approx(2e-6));
  // chain_1x2 holds 4.5 MB a rank (above 4 MiB): the 4 MiB series, beyond 1.1 ms: 63 + 2 us.
  CHECK(reductions_seconds(chain_1x2(), m, 50e-3) == Approx(63e-6 + 2e-6));
  const auto t = compare(m, chain_1x2());
  for (const char* model : {"loggp", "pipeline"}) {
    const auto& red = row(t, model, "reductions");
    CHECK(red.modelled == Approx(63e-6 + 2e-6));
    CHECK(red.source.find("the ranks streaming 4.50 MB each = 63.00 us, the second 2.00 us") != std::string::npos);
  }
  // Without streaming series the text says the figures are the spinning ranks'.
  CHECK(row(compare(costs(kWarmFile + kColdKeys + kStreamKeys), chain_1x2()), "loggp", "reductions")
            .source.find("ranks spinning (no streaming figures in the machine file") != std::string::npos);
}
