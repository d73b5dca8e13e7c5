// project_schedule (schedule_projection.hpp): the schedule P ranks would follow, made in one
// process. Checked against what must hold whatever the rounds: every task done once, by its
// owner; the records between parts exactly the (face, direction) pairs that cross a part
// boundary downwind; every message received once, in its round; a hand-counted schedule on
// two tets; and a replay that accepts it.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "instrument/recorder.hpp"
#include "instrument/replay.hpp"
#include "mesh/mesh_examples.hpp"
#include "mesh/mesh_geometry.hpp"
#include "tycho/model/pce.hpp"
#include "tycho/model/trace_program.hpp"
#include "mesh/partition.hpp"
#include "tycho/quadrature.hpp"
#include "tycho/problem.hpp"
#include "tycho/schedule_projection.hpp"
#include "tycho/step_history.hpp"
#include "tycho/sweep_engine.hpp"
#include "tycho/sweep_plan.hpp"
#include "tycho/sweep_dag.hpp"
#include "../instrument/unit_replay_program.hpp"
#include "../mesh/jittered_cube.hpp"

using namespace tycho;
using namespace mesh;

namespace {

// (face, direction) pairs that carry data from one part to another in a sweep: interior, not
// lagged, omega.n != 0, the two cells in different parts.
std::int64_t crossing_records(const Mesh& mesh, const Partition& part, const std::vector<Vec3>& omega) {
  const std::vector<Vec3> normals = face_area_normals(mesh);
  std::int64_t n = 0;
  for (const Vec3& w : omega) {
    const DirectionOrder order = direction_order(mesh, normals, w);
    std::vector<char> lagged(mesh.faces.size(), 0);
    for (Index f : order.lagged) lagged[f] = 1;
    for (std::size_t f = 0; f < mesh.faces.size(); ++f) {
      const Face& face = mesh.faces[f];
      if (face.on_boundary() || lagged[f]) continue;
      const double s = w.x * normals[f].x + w.y * normals[f].y + w.z * normals[f].z;
      if (s != 0 && part.part_of_cell[face.cells[0]] != part.part_of_cell[face.cells[1]]) ++n;
    }
  }
  return n;
}

// A problem of `groups` groups on level-symmetric S_sn, every cell the default material.
Problem one_material_problem(int groups, int sn) {
  Problem problem;
  problem.groups = groups;
  problem.quadrature = level_symmetric(sn, "test");
  problem.fallback = default_material(groups);
  return problem;
}

}  // namespace

TEST_CASE("projected schedule: every task once, by its owner; the crossing records; messages matched", "[tycho][projection]") {
  // An unstructured mesh of 1296 cells: [0,100]^3 as 6^3 Kuhn cubes, the interior nodes
  // jittered (../mesh/jittered_cube.hpp), so that METIS's parts and the rounds are irregular.
  const Mesh mesh = meshtest::jittered_cube(6, 100.0);
  const Quadrature q = level_symmetric(4, "test");
  for (const Priority priority : {Priority::blevel, Priority::band_octant, Priority::octant})
  for (int parts : {1, 3, 8}) {
    for (std::int64_t mcps : {1, 7, 512}) {
      CAPTURE(priority_name(priority), parts, mcps);
      const Partition partition = metis_partition(mesh, parts, "jittered cube");
      const ProjectedSchedule s = project_schedule(mesh, partition, q.omega, 2, mcps, priority);
      REQUIRE(s.ranks.size() == static_cast<std::size_t>(parts));
      std::vector<std::int64_t> owned(static_cast<std::size_t>(parts), 0);
      for (std::int32_t p : partition.part_of_cell) owned[static_cast<std::size_t>(p)] += static_cast<std::int64_t>(q.size());
      std::map<std::pair<int, int>, std::pair<std::int64_t, std::int64_t>> pair_bytes;  // (from, to): sent, received
      std::int64_t steps_max = 0;
      for (int p = 0; p < parts; ++p) {
        const RankHistory& h = s.ranks[static_cast<std::size_t>(p)];
        std::int64_t work = 0;
        for (std::size_t k = 0; k < h.steps.size(); ++k) {
          CHECK(h.steps[k].step == static_cast<std::int32_t>(k));
          CHECK(h.steps[k].work <= mcps);
          work += h.steps[k].work;
        }
        CHECK(work == owned[static_cast<std::size_t>(p)]);
        steps_max = std::max<std::int64_t>(steps_max, static_cast<std::int64_t>(h.steps.size()));
        for (const MessageRecord& m : h.messages) {
          CHECK(m.peer != p);
          CHECK(m.bytes % (8 + 24 * 2) == 0);
          if (m.sent) pair_bytes[{p, m.peer}].first += m.bytes;
          else pair_bytes[{m.peer, p}].second += m.bytes;
        }
      }
      std::int64_t sent = 0;
      for (const auto& [pair, b] : pair_bytes) {
        CHECK(b.first == b.second);
        sent += b.first;
      }
      CHECK(s.records == crossing_records(mesh, partition, q.omega));
      CHECK(sent == s.records * (8 + 24 * 2));
      CHECK(s.rounds >= steps_max);
      if (parts == 1) {
        CHECK(s.records == 0);
        if (mcps == 1) CHECK(s.rounds == static_cast<std::int64_t>(mesh.cells.size() * q.size()));
      }
      // The replay accepts it: every receive has its send.
      CHECK_NOTHROW(model::trace_model_time(s.ranks, {0}, 1e-6, replay_test::round_machine()));
    }
  }
}

TEST_CASE("projected schedule on two tets in two parts, by hand", "[tycho][projection]") {
  // Two tets across x = 0, cell 0 at x > 0; omega = (-1, 0, 0) only: cell 0 feeds cell 1.
  // Round 1: rank 0 solves cell 0 and sends one record to rank 1, which receives it in a step
  // of no work. Round 2: rank 1 solves cell 1.
  Mesh mesh = two_tet_mesh();
  compute_geometry(mesh);
  const Partition partition{2, {0, 1}};
  const std::vector<Vec3> omega = {Vec3{-1, 0, 0}};
  const ProjectedSchedule s = project_schedule(mesh, partition, omega, 1, 4, Priority::blevel);
  CHECK(s.rounds == 2);
  CHECK(s.records == 1);
  REQUIRE(s.ranks[0].steps.size() == 1);
  CHECK(s.ranks[0].steps[0].work == 1);
  CHECK(s.ranks[0].steps[0].sends == 1);
  CHECK(s.ranks[0].steps[0].send_bytes == 32);
  REQUIRE(s.ranks[1].steps.size() == 2);
  CHECK(s.ranks[1].steps[0].work == 0);
  CHECK(s.ranks[1].steps[0].receives == 1);
  CHECK(s.ranks[1].steps[0].receive_bytes == 32);
  CHECK(s.ranks[1].steps[1].work == 1);
  REQUIRE(s.ranks[1].messages.size() == 1);
  CHECK_FALSE(s.ranks[1].messages[0].sent);
  CHECK(s.ranks[1].messages[0].peer == 0);
  // PCE (eq. 4): W_p = 1, steps 2, max work per step 1 and 1: 1 / 2.
  CHECK(model::parallel_computational_efficiency(s.ranks, 0).pce == Approx(0.5));
}

TEST_CASE("projected schedule: bad arguments", "[tycho][projection]") {
  Mesh mesh = two_tet_mesh();
  compute_geometry(mesh);
  const Partition partition{2, {0, 1}};
  const std::vector<Vec3> omega = {Vec3{1, 0, 0}};
  CHECK_THROWS_AS(project_schedule(mesh, partition, omega, 1, 0, Priority::blevel), std::invalid_argument);
  CHECK_THROWS_AS(project_schedule(mesh, partition, {}, 1, 4, Priority::blevel), std::invalid_argument);
  CHECK_THROWS_AS(project_schedule(mesh, partition, omega, 0, 4, Priority::blevel), std::invalid_argument);
  CHECK_THROWS_AS(project_schedule(mesh, Partition{2, {0}}, omega, 1, 4, Priority::blevel), std::invalid_argument);
  for (const Priority p : {Priority::boundary, Priority::direction, Priority::fifo})
    CHECK_THROWS_AS(project_schedule(mesh, partition, omega, 1, 4, p), std::invalid_argument);
  const std::vector<Vec3> many(513, Vec3{1, 0, 0});  // octant's limit, as the engine's plan
  CHECK_THROWS_AS(project_schedule(mesh, partition, many, 1, 4, Priority::octant), std::invalid_argument);
  CHECK_NOTHROW(project_schedule(mesh, partition, many, 1, 4, Priority::blevel));
}

TEST_CASE("projected schedule at P = 1: the engine's steps, the blevel, band-octant and octant orders mirrored", "[tycho][projection]") {
  // One rank, no message: which tasks each step takes is set by which tasks the order makes
  // ready, so the projection's steps equal the engine's when its queue orders tasks as the
  // engine's buckets do (the plan's key, the last pushed first, the tasks ready at the start
  // queued in the plan's cell order). 6000 cells, S8, MCPS 512: b-levels past several bands,
  // slabs of 512 cells, batches the readiness limits. Checked to fail with the projection's
  // bands of 16 against the engine's 32, and with the start's tasks queued in cell id order.
  const Mesh mesh = meshtest::jittered_cube(10, 100.0);
  const Problem problem = one_material_problem(2, 8);
  const Partition partition = metis_partition(mesh, 1, "jittered cube");
  for (const Priority priority : {Priority::blevel, Priority::band_octant, Priority::octant}) {
    CAPTURE(priority_name(priority));
    const SweepPlan plan = make_sweep_plan(mesh, partition, problem, 0, priority, "jittered cube");
    SweepOptions options;
    options.mcps = 512;
    instrument::Recorder recorder;
    SweepEngine engine(plan, problem, options, MPI_COMM_SELF, recorder);
    RankHistory history;
    std::vector<double> leakage(2, 0.0);
    engine.sweep(0, history, leakage);
    const ProjectedSchedule s = project_schedule(mesh, partition, problem.quadrature.omega, 2, options.mcps, priority);
    REQUIRE(s.ranks.size() == 1);
    REQUIRE(s.ranks[0].steps.size() == history.steps.size());
    std::int64_t work = 0, differ = 0;
    for (std::size_t k = 0; k < history.steps.size(); ++k) {
      work += history.steps[k].work;
      if (history.steps[k].work != s.ranks[0].steps[k].work) ++differ;
    }
    CHECK(work == static_cast<std::int64_t>(plan.tasks()));
    CHECK(differ == 0);
  }
}

TEST_CASE("the step history's room made before a sweep: no reallocation inside it", "[tycho][history]") {
  // Grown inside the sweep, the history's reallocations were timed as the sweep's work
  // (SweepEngine::make_history_room). The first sweep's room is an estimate; every later one
  // is the last sweep's count and more, so a sweep after it never moves the records.
  const Mesh mesh = meshtest::jittered_cube(6, 100.0);
  const Problem problem = one_material_problem(1, 4);
  const Partition partition = metis_partition(mesh, 1, "jittered cube");
  const SweepPlan plan = make_sweep_plan(mesh, partition, problem, 0, Priority::band_octant, "jittered cube");
  for (const std::int64_t mcps : {std::int64_t{1}, std::int64_t{16}, std::int64_t{1} << 40}) {
    CAPTURE(mcps);
    SweepOptions options;
    options.mcps = mcps;
    instrument::Recorder recorder(std::size_t{1} << 20);  // traced, as when the models run
    SweepEngine engine(plan, problem, options, MPI_COMM_SELF, recorder);
    RankHistory history;
    std::vector<double> leakage(1, 0.0);
    engine.make_history_room(history);
    const StepRecord* before_first = history.steps.data();
    engine.sweep(0, history, leakage);
    const std::size_t first = history.steps.size();
    REQUIRE(first > 0);
    // At MCPS 1 a step is a task: the first sweep's estimate is exact, and holds it.
    if (mcps == 1) CHECK(history.steps.data() == before_first);
    for (std::int32_t it = 1; it < 4; ++it) {
      engine.make_history_room(history);
      const StepRecord* storage = history.steps.data();
      CHECK(history.steps.capacity() >= history.steps.size() + first);
      const std::size_t events = recorder.trace_events().size();
      engine.sweep(it, history, leakage);
      CHECK(history.steps.data() == storage);
      // The trace's room is counted as an event a step and one a message (none at one rank),
      // and the sweep's own: what the sweep records.
      CHECK(recorder.trace_events().size() - events == first + 1);
      CHECK(history.steps.size() == (static_cast<std::size_t>(it) + 1) * first);  // one rank: the same steps each sweep
    }
  }
}

TEST_CASE("a task that can never be ready: the sweep stops at once with the rank's state", "[tycho][stall]") {
  // With every face record in (at one rank there are none) and nothing ready, no message can
  // ever make a task ready: the sweep must say so at once, not probe for stall_seconds.
  const Mesh mesh = meshtest::jittered_cube(3, 100.0);
  const Problem problem = one_material_problem(1, 2);
  const Partition partition = metis_partition(mesh, 1, "jittered cube");
  SweepPlan plan = make_sweep_plan(mesh, partition, problem, 0, Priority::band_octant, "jittered cube");
  REQUIRE(plan.records_in == 0);
  plan.in_degree[plan.tasks() / 2] += 1;  // a dependency no task or record satisfies
  SweepOptions options;
  options.stall_seconds = 10;  // the probing path would stop only after these, naming them
  instrument::Recorder recorder;
  SweepEngine engine(plan, problem, options, MPI_COMM_SELF, recorder);
  RankHistory history;
  std::vector<double> leakage(1, 0.0);
  engine.make_history_room(history);
  try {
    engine.sweep(0, history, leakage);
    FAIL("the sweep finished with a task that can never be ready");
  } catch (const std::runtime_error& e) {
    const std::string what = e.what();
    CHECK(what.find("no progress (every face record in) on rank 0") != std::string::npos);
    CHECK(what.find("no face record to come") != std::string::npos);
    // The blocked task and every task downwind of it are left, the rest done.
    const std::string of = " of " + std::to_string(plan.tasks()) + " tasks left, none ready";
    const std::size_t at = what.find(of);
    REQUIRE(at != std::string::npos);
    const std::size_t number = what.rfind(' ', at - 1) + 1;
    const long long left = std::stoll(what.substr(number, at - number));
    CHECK(left >= 1);
    CHECK(left < static_cast<long long>(plan.tasks()));
  }
}
