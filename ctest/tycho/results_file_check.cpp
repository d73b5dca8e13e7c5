// Reads the results file of a tycho run on the Kuhn cube 6^3 (1296 cells, S8: 80 directions, 2 groups)
// with instrument's reader and checks it against what the run must have done. Run by
// tycho_run.cmake after the run that wrote it: TYCHO_RESULTS_FILE the file,
// TYCHO_RESULTS_RANKS its ranks, TYCHO_RESULTS_ITERATIONS its iterations.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <string>
#include <variant>

#include "instrument/results_file.hpp"
#include "../results_table_column.hpp"
#include "tycho/results_calibration.hpp"
#include "tycho/source_iteration.hpp"

namespace {

constexpr std::int64_t kCells = 1296, kDirections = 80;

std::string env(const char* name) {
  const char* v = std::getenv(name);
  if (!v) FAIL(std::string(name) + " is not set (run by ctest: tycho.run.results_read.*)");
  return v;
}

const instrument::Table& table(const instrument::ResultsDocument& doc, const std::string& path) {
  const instrument::Table* t = doc.extras.find_table(path);
  if (!t) FAIL("no table " + path);
  return *t;
}

template <class T>
T attribute(const instrument::ResultsDocument& doc, const std::string& group, const std::string& name) {
  const auto g = doc.extras.group_attributes.find(group);
  if (g == doc.extras.group_attributes.end()) FAIL("no attributes on " + group);
  const auto a = g->second.find(name);
  if (a == g->second.end()) FAIL("no attribute " + group + "/" + name);
  const T* v = std::get_if<T>(&a->second);
  if (!v) FAIL(group + "/" + name + " is not of the expected type");
  return *v;
}

}  // namespace

TEST_CASE("the results file of a tycho run holds what the run did", "[tycho][results]") {
  const std::string path = env("TYCHO_RESULTS_FILE");
  const std::int64_t ranks = std::stoll(env("TYCHO_RESULTS_RANKS"));
  const std::int64_t iterations = std::stoll(env("TYCHO_RESULTS_ITERATIONS"));
  const instrument::ResultsDocument doc = instrument::read_results(path);
  CHECK(doc.run.info.app == "tycho");
  CHECK(doc.run.info.nranks == ranks);
  CHECK(doc.run.info.inputs.at("iterations") == std::to_string(iterations));

  CHECK(attribute<std::int64_t>(doc, "/tycho", "cells") == kCells);
  CHECK(attribute<std::int64_t>(doc, "/tycho", "directions") == kDirections);
  CHECK(attribute<std::int64_t>(doc, "/tycho", "groups") == 2);
  CHECK(attribute<std::int64_t>(doc, "/tycho", "ranks") == ranks);
  CHECK(attribute<std::int64_t>(doc, "/tycho", "lagged_pairs") == 0);
  CHECK(attribute<std::string>(doc, "/tycho", "quadrature") == "S8");
  const std::string digest = attribute<std::string>(doc, "/tycho", "digest");
  CHECK(digest.size() == 16);
  CHECK(digest.find_first_not_of("0123456789abcdef") == std::string::npos);
  CHECK(attribute<std::string>(doc, "/solution", "digest") == digest);
  CHECK(attribute<std::int64_t>(doc, "/solution", "iterations") == iterations);

  SECTION("the steps' work is every cell-angle task of every iteration, each once") {
    const instrument::Table& steps = table(doc, "/tycho/steps");
    const auto& rank = column<std::int64_t>(steps, "rank");
    const auto& iteration = column<std::int64_t>(steps, "iteration");
    const auto& work = column<std::int64_t>(steps, "work");
    std::int64_t total = 0;
    std::map<std::int64_t, std::int64_t> per_iteration;
    std::map<std::int64_t, std::int64_t> per_rank;
    for (std::size_t i = 0; i < steps.rows(); ++i) {
      CHECK((rank[i] >= 0 && rank[i] < ranks));
      CHECK((work[i] >= 0 && work[i] <= 512));  // MCPS, the default
      total += work[i];
      per_iteration[iteration[i]] += work[i];
      per_rank[rank[i]] += work[i];
    }
    CHECK(total == kCells * kDirections * iterations);
    CHECK(per_iteration.size() == static_cast<std::size_t>(iterations));
    for (const auto& [it, w] : per_iteration) CHECK(w == kCells * kDirections);
    CHECK(per_rank.size() == static_cast<std::size_t>(ranks));
    for (const auto& [r, w] : per_rank) CHECK(w % (kDirections * iterations) == 0);  // whole cells
  }

  SECTION("the messages table and the steps' counts agree; every byte sent is received") {
    const instrument::Table& steps = table(doc, "/tycho/steps");
    const instrument::Table& messages = table(doc, "/tycho/messages");
    std::int64_t sends = 0, send_bytes = 0, receives = 0, receive_bytes = 0;
    for (std::size_t i = 0; i < steps.rows(); ++i) {
      sends += column<std::int64_t>(steps, "sends")[i];
      send_bytes += column<std::int64_t>(steps, "send_bytes")[i];
      receives += column<std::int64_t>(steps, "receives")[i];
      receive_bytes += column<std::int64_t>(steps, "receive_bytes")[i];
    }
    std::int64_t m_sends = 0, m_send_bytes = 0, m_receives = 0, m_receive_bytes = 0;
    const auto& direction = column<std::string>(messages, "direction");
    const auto& bytes = column<std::int64_t>(messages, "bytes");
    const auto& peer = column<std::int64_t>(messages, "peer");
    const auto& rank = column<std::int64_t>(messages, "rank");
    for (std::size_t i = 0; i < messages.rows(); ++i) {
      CHECK((direction[i] == "send" || direction[i] == "recv"));
      CHECK((peer[i] >= 0 && peer[i] < ranks && peer[i] != rank[i]));
      CHECK(bytes[i] > 0);
      (direction[i] == "send" ? m_sends : m_receives) += 1;
      (direction[i] == "send" ? m_send_bytes : m_receive_bytes) += bytes[i];
    }
    CHECK(m_sends == sends);
    CHECK(m_send_bytes == send_bytes);
    CHECK(m_receives == receives);
    CHECK(m_receive_bytes == receive_bytes);
    CHECK(send_bytes == receive_bytes);
    CHECK(sends == receives);
    if (ranks == 1) CHECK(messages.rows() == 0);
    else CHECK(messages.rows() > 0);
  }

  SECTION("PCE per iteration: every task counted, 1 at one rank") {
    const instrument::Table& pce = table(doc, "/tycho/pce");
    REQUIRE(pce.rows() == static_cast<std::size_t>(iterations));
    for (std::size_t i = 0; i < pce.rows(); ++i) {
      CHECK(column<std::int64_t>(pce, "total_work")[i] == kCells * kDirections);
      const double e = column<double>(pce, "pce")[i];
      CHECK((e > 0 && e <= 1));
      if (ranks == 1) CHECK(e == 1.0);
    }
    // /tycho's pce is the scored iterations' (all but the first of more than two) as one:
    // their w_p summed over their sum_max_work summed, what the measured rows average.
    const std::size_t first = pce.rows() > 2 ? 1 : 0;
    double w_p = 0, sum_max = 0;
    for (std::size_t i = first; i < pce.rows(); ++i) {
      w_p += column<double>(pce, "w_p")[i];
      sum_max += static_cast<double>(column<std::int64_t>(pce, "sum_max_work")[i]);
    }
    CHECK(attribute<double>(doc, "/tycho", "pce") == Approx(w_p / sum_max).epsilon(1e-12));
    if (ranks == 1) CHECK(attribute<double>(doc, "/tycho", "pce") == 1.0);
  }

  SECTION("the calibration a later --calibration reads") {
    const tycho::TychoCalibration c = tycho::read_tycho_calibration(path);
    CHECK(c.e_p == Approx(static_cast<double>(kCells) / static_cast<double>(ranks)));
    CHECK(c.groups == 2);
    CHECK(c.directions == kDirections);
    CHECK(c.scheme == "ld");
    CHECK(c.threads == 1);
    CHECK_THAT(c.mesh, Catch::EndsWith("kuhn-6.smesh"));
    CHECK((c.t_elem_s > 1e-9 && c.t_elem_s < 1e-3));
    CHECK(attribute<double>(doc, "/tycho", "t_elem_s") == c.t_elem_s);
    // Its part in the gathers and solves: timed inside each step's compute, so below T_elem,
    // over the same iterations (the first iteration's tasks, dearer, summed in too would put
    // it near or past T_elem at 3 iterations).
    const double gather_solve = attribute<double>(doc, "/tycho", "t_elem_gather_solve_s");
    CHECK((gather_solve > 0.1 * c.t_elem_s && gather_solve < c.t_elem_s));
    // T_elem is the tasks' time over the scored iterations only (the first left out when
    // there are more than two, as the sweep time's median leaves it out), every rank's.
    const instrument::Table& steps = table(doc, "/tycho/steps");
    const auto& iteration = column<std::int64_t>(steps, "iteration");
    const auto& work = column<std::int64_t>(steps, "work");
    const auto& compute = column<double>(steps, "compute_s");
    // The rule, written out rather than read from first_scored_iteration (which it checks):
    // with more than two iterations the first is left out.
    const std::int64_t first = iterations > 2 ? 1 : 0;
    CHECK(static_cast<std::int64_t>(tycho::first_scored_iteration(static_cast<std::size_t>(iterations))) == first);
    double scored_compute = 0, all_compute = 0, scored_work = 0;
    for (std::size_t i = 0; i < steps.rows(); ++i) {
      all_compute += compute[i];
      if (iteration[i] < first) continue;
      scored_compute += compute[i];
      scored_work += static_cast<double>(work[i]);
    }
    CHECK(scored_work == static_cast<double>(kCells * kDirections * (iterations - first)));
    CHECK(c.t_elem_s == Approx(scored_compute / scored_work).epsilon(1e-9));
    if (first > 0)  // the first iteration's tasks are in the steps but not in T_elem
      CHECK(all_compute > scored_compute);
  }

  SECTION("the solution: its iterations and balance") {
    const instrument::Table& its = table(doc, "/solution/iterations");
    REQUIRE(its.rows() == static_cast<std::size_t>(iterations));
    for (std::size_t i = 0; i < its.rows(); ++i) {
      CHECK(column<std::int64_t>(its, "iteration")[i] == static_cast<std::int64_t>(i));
      CHECK(std::abs(column<double>(its, "residual")[i]) < 1e-12);
      CHECK(column<double>(its, "sweep_s")[i] > 0);
      CHECK(column<double>(its, "iteration_s")[i] >= column<double>(its, "sweep_s")[i]);
    }
    CHECK(std::abs(attribute<double>(doc, "/solution", "balance_relative_residual")) < 1e-12);
    // A unit source density over the [0,100]^3 cube: 10^6 particles per unit time.
    CHECK(attribute<double>(doc, "/solution", "source") == Approx(1e6).epsilon(1e-12));
    CHECK(attribute<double>(doc, "/solution", "absorption") > 0);
    CHECK(attribute<double>(doc, "/solution", "leakage") > 0);
  }
}
