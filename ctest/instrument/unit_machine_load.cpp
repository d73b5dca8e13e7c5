// The machine's load during a run (machine_load.hpp): /proc/stat parsed, the arithmetic from
// two samples and the run's own CPU time with hand-computed figures (counters that wrap, step
// back or do not move), the busy verdict and its line, and the results file's record of it.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <sstream>
#include <string>

#include "../scratch_dir.hpp"
#include "instrument/error.hpp"
#include "instrument/comparison.hpp"
#include "instrument/machine_load.hpp"
#include "instrument/results_file.hpp"

using instrument::CpuJiffies;
using instrument::node_load;

namespace {

CpuJiffies sample(std::uint64_t user, std::uint64_t idle, std::uint64_t iowait = 0, std::uint64_t steal = 0,
                  int cpus = 2) {
  CpuJiffies s;
  s.user = user;
  s.idle = idle;
  s.iowait = iowait;
  s.steal = steal;
  s.cpus = cpus;
  return s;
}

}  // namespace

TEST_CASE("the cpu line of /proc/stat is read, with the node's CPUs counted") {
  const auto s = instrument::parse_proc_stat(
      "cpu  3359303 389613 485547 777826 2699 0 1615 15728 0 0\n"
      "cpu0 1642962 230429 228062 405281 813 0 269 7661 0 0\n"
      "cpu1 1716341 159184 257484 372545 1886 0 1345 8066 0 0\n"
      "intr 123 4 5\nctxt 99\nbtime 1700000000\nprocesses 4242\n");
  REQUIRE(s);
  CHECK(s->user == 3359303);
  CHECK(s->nice == 389613);
  CHECK(s->system == 485547);
  CHECK(s->idle == 777826);
  CHECK(s->iowait == 2699);
  CHECK(s->irq == 0);
  CHECK(s->softirq == 1615);
  CHECK(s->steal == 15728);
  CHECK(s->cpus == 2);
  // A kernel before 2.6.11: no steal column, read as 0.
  const auto old = instrument::parse_proc_stat("cpu 10 20 30 40 50 60 70\ncpu0 10 20 30 40 50 60 70\n");
  REQUIRE(old);
  CHECK(old->steal == 0);
  CHECK(old->softirq == 70);
  CHECK(old->cpus == 1);
  CHECK_FALSE(instrument::parse_proc_stat("intr 1 2 3\n"));
  CHECK_FALSE(instrument::parse_proc_stat("cpu 10 x 30 40\n"));
  CHECK_FALSE(instrument::parse_proc_stat("cpu 10 20\n"));
  CHECK_FALSE(instrument::parse_proc_stat(""));
}

TEST_CASE("others and steal from two samples and the run's own CPU time, by hand") {
  CpuJiffies a;
  a.user = 1000, a.nice = 0, a.system = 100, a.idle = 5000, a.iowait = 10, a.irq = 0, a.softirq = 5, a.steal = 0;
  a.cpus = 2;
  CpuJiffies b = a;
  b.user = 1300, b.nice = 20, b.system = 160, b.idle = 5140, b.iowait = 20, b.steal = 20;
  // Deltas: user 300, nice 20, system 60, idle 140, iowait 10, steal 20: capacity 550.
  // The run's ranks used 2.0 s = 200 jiffies at 100 per second: others = 550 - 140 - 10 - 20
  // - 200 = 180 jiffies = 180/550; steal = 20/550.
  const auto l = node_load(a, b, 2.0, 100.0);
  CHECK(l.known);
  CHECK(l.capacity == 550.0);
  CHECK(l.others == Approx(180.0 / 550.0).epsilon(1e-12));
  CHECK(l.steal == Approx(20.0 / 550.0).epsilon(1e-12));
  CHECK(instrument::load_state(l.others, l.steal) == "busy");
  // The same interval with the run using every busy jiffy: nobody else ran.
  const auto alone = node_load(a, b, 3.8, 100.0);
  CHECK(alone.others == 0.0);
  // More own time than the node's busy time (samples a moment apart): clamped at 0, not negative.
  CHECK(node_load(a, b, 5.0, 100.0).others == 0.0);
}

TEST_CASE("a 32-bit counter that wrapped counts what it advanced") {
  const std::uint64_t near_wrap = (std::uint64_t{1} << 32) - 100;
  // user: 2^32 - 100 -> 50 is 150 jiffies; idle 100: capacity 250, nobody's own: others 150/250.
  const auto l = node_load(sample(near_wrap, 1000), sample(50, 1100), 0.0, 100.0);
  CHECK(l.known);
  CHECK(l.capacity == 250.0);
  CHECK(l.others == Approx(0.6).epsilon(1e-12));
}

TEST_CASE("a counter that stepped back counts 0 (iowait does on tickless kernels)") {
  // user +100, idle +200, iowait 500 -> 490 is 0: capacity 300; own 0.5 s = 50 jiffies:
  // others = (300 - 200 - 50) / 300.
  const auto l = node_load(sample(100, 100, 500), sample(200, 300, 490), 0.5, 100.0);
  CHECK(l.known);
  CHECK(l.capacity == 300.0);
  CHECK(l.others == Approx(50.0 / 300.0).epsilon(1e-12));
  CHECK(l.steal == 0.0);
  // A 64-bit counter never wraps in practice (2^64 jiffies): a fall from near 2^64 is a step back.
  const std::uint64_t huge = ~std::uint64_t{0} - 10;
  const auto b = node_load(sample(huge, 100), sample(5, 300), 0.0, 100.0);
  CHECK(b.capacity == 200.0);
  CHECK(b.others == 0.0);
}

TEST_CASE("no jiffies between the samples, or too few, is not known") {
  const auto zero = node_load(sample(100, 100), sample(100, 100), 0.0, 100.0);
  CHECK_FALSE(zero.known);
  CHECK(zero.capacity == 0.0);
  CHECK(zero.why_unknown == "no CPU time passed between the samples");
  // 2 CPUs need 2 x 50 = 100 jiffies; 60 is too few, and said so, with the figures kept.
  const auto short_run = node_load(sample(100, 100), sample(130, 130), 0.0, 100.0);
  CHECK_FALSE(short_run.known);
  CHECK(short_run.capacity == 60.0);
  CHECK(short_run.others == Approx(0.5));
  CHECK(short_run.why_unknown == "the run was too short to tell (60 jiffies of 2 CPUs, fewer than 50 per CPU)");
  const auto just_enough = node_load(sample(100, 100), sample(150, 150), 0.0, 100.0);
  CHECK(just_enough.known);
}

TEST_CASE("busy is others above 25% or steal above 5%, the campaign report's thresholds") {
  CHECK(instrument::load_state(0.25, 0.05) == "idle");
  CHECK(instrument::load_state(0.0, 0.0) == "idle");
  CHECK(instrument::load_state(0.2501, 0.0) == "busy");
  CHECK(instrument::load_state(0.0, 0.0501) == "busy");
  instrument::MachineLoad load;
  load.state = "busy";
  load.others = 0.43;
  load.steal = 0.0;
  CHECK(load.busy_line() ==
        "machine: busy during this run (others used 43% of the CPUs, steal 0.0%): the measured-vs-modelled "
        "comparison is unreliable");
}

TEST_CASE("busy also when some task waited for a CPU over 30% of the run (/proc/pressure/cpu)") {
  using instrument::load_state;
  CHECK(load_state(0.0, 0.0, 0.3) == "idle");
  CHECK(load_state(0.0, 0.0, 0.3001) == "busy");
  CHECK(load_state(0.0, 0.0, std::nan("")) == "idle");  // not known: never busy
  instrument::MachineLoad load;
  load.state = "busy";
  load.cpu_wait = 0.7;  // a run too short for jiffies: others and steal not known
  CHECK(load.busy_line() ==
        "machine: busy during this run (some task waited for a CPU 70% of the time): the measured-vs-modelled "
        "comparison is unreliable");
  load.others = 0.43;
  load.steal = 0.0;
  CHECK(load.busy_line() ==
        "machine: busy during this run (others used 43% of the CPUs, steal 0.0%, some task waited for a CPU 70% of "
        "the time): the measured-vs-modelled comparison is unreliable");
}

TEST_CASE("the pressure file's some total, in microseconds") {
  using instrument::parse_cpu_pressure_total_us;
  CHECK(parse_cpu_pressure_total_us("some avg10=37.87 avg60=32.98 avg300=12.56 total=90682466\n"
                                    "full avg10=0.00 avg60=0.00 avg300=0.00 total=0\n") == 90682466u);
  CHECK(parse_cpu_pressure_total_us("full avg10=0.00 avg60=0.00 avg300=0.00 total=5\n"
                                    "some avg10=1.00 avg60=0.00 avg300=0.00 total=7\n") == 7u);
  CHECK_FALSE(parse_cpu_pressure_total_us(""));
  CHECK_FALSE(parse_cpu_pressure_total_us("some avg10=1.00 avg60=0.00 avg300=0.00\n"));
  CHECK_FALSE(parse_cpu_pressure_total_us("some avg10=1.00 total=-4\n"));
  CHECK_FALSE(parse_cpu_pressure_total_us("some total=99999999999999999999999\n"));
}

TEST_CASE("a busy run's comparison prints one line under its tables; an idle one none") {
  instrument::Comparison c;
  c.add({.model = "loggp", .term = "T_iter", .measured = 1.0, .modelled = 1.1, .source = "machine: m"});
  instrument::MachineLoad load;
  load.state = "idle";
  load.others = 0.1;
  load.steal = 0.0;
  instrument::mark_if_busy(c, load);
  std::ostringstream idle;
  c.print(idle);
  CHECK(c.reliable());
  CHECK(idle.str().find("machine: busy") == std::string::npos);
  load.state = "busy";
  load.others = 0.5;
  instrument::mark_if_busy(c, load);
  std::ostringstream busy;
  c.print(busy);
  CHECK_FALSE(c.reliable());
  const std::string text = busy.str();
  const std::string line = load.busy_line() + "\n";
  REQUIRE(text.size() > line.size());
  CHECK(text.substr(text.size() - line.size()) == line);  // the last line, once
  CHECK(text.find("machine: busy") == text.size() - line.size());
}

TEST_CASE("the results file records the load, the pinned CPU and whether /compare is reliable") {
  ScratchDir dir("unit_machine_load");
  instrument::ResultsDocument doc;
  doc.run.info.app = "demo";
  doc.run.info.nranks = 1;
  doc.run.info.pinned_cpu = 1;
  doc.run.machine_load.state = "busy";
  doc.run.machine_load.others = 0.43;
  doc.run.machine_load.steal = 0.0;
  doc.run.machine_load.cpu_wait = 0.62;
  doc.run.machine_load.detail = "by hand";
  doc.comparison.add({.model = "m", .term = "T", .measured = 1.0, .modelled = 2.0, .source = "s"});
  // Not marked by the app: the writer marks /compare from the run's load all the same.
  const std::string busy = (dir.path / "busy.h5").string();
  instrument::write_results(busy, doc);
  const auto back = instrument::read_results(busy);
  CHECK(back.run.info.pinned_cpu == 1);
  CHECK(back.run.machine_load.state == "busy");
  CHECK(back.run.machine_load.others == 0.43);
  CHECK(back.run.machine_load.steal == 0.0);
  CHECK(back.run.machine_load.cpu_wait == 0.62);
  CHECK(back.run.machine_load.detail == "by hand");
  CHECK_FALSE(back.comparison.reliable());
  CHECK(back.comparison.unreliable_because() == doc.run.machine_load.busy_line());
  CHECK(back.extras.group_attributes.count("/") == 0);  // the writer's attributes, not extras

  // A document no run measured: unknown, NaN figures, reliable, not pinned.
  instrument::ResultsDocument plain;
  plain.run.info.app = "demo";
  plain.run.info.nranks = 1;
  plain.comparison.add({.model = "m", .term = "T", .measured = 1.0, .modelled = 2.0, .source = "s"});
  const std::string unknown = (dir.path / "unknown.h5").string();
  instrument::write_results(unknown, plain);
  const auto u = instrument::read_results(unknown);
  CHECK(u.run.info.pinned_cpu == -1);
  CHECK(u.run.machine_load.state == "unknown");
  CHECK(u.run.machine_load.detail == "not measured: not written by a run");
  CHECK(std::isnan(u.run.machine_load.others));
  CHECK(std::isnan(u.run.machine_load.steal));
  CHECK(std::isnan(u.run.machine_load.cpu_wait));
  CHECK(u.comparison.reliable());
}

TEST_CASE("a recorded load or pinned CPU out of its range is refused, naming the attribute") {
  ScratchDir dir("unit_machine_load_bad");
  const auto refusal = [&](const std::string& name, auto change) {
    instrument::ResultsDocument doc;
    doc.run.info.app = "demo";
    doc.run.info.nranks = 1;
    doc.run.machine_load.state = "idle";
    doc.run.machine_load.others = 0.1;
    doc.run.machine_load.steal = 0.0;
    change(doc);
    const std::string path = (dir.path / (name + ".h5")).string();
    instrument::write_results(path, doc);
    try {
      instrument::read_results(path);
    } catch (const instrument::InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  CHECK_THAT(refusal("state", [](auto& d) { d.run.machine_load.state = "loaded"; }),
             Catch::Contains("state.h5:/@machine_load: expected busy, idle or unknown, found 'loaded'"));
  CHECK_THAT(refusal("others", [](auto& d) { d.run.machine_load.others = 1.5; }),
             Catch::Contains("others.h5:/@machine_load_others: expected a fraction in [0, 1] or NaN, found 1.5"));
  CHECK_THAT(refusal("steal", [](auto& d) { d.run.machine_load.steal = -0.5; }),
             Catch::Contains("steal.h5:/@machine_load_steal: expected a fraction in [0, 1] or NaN"));
  CHECK_THAT(refusal("wait", [](auto& d) { d.run.machine_load.cpu_wait = 2.0; }),
             Catch::Contains("wait.h5:/@machine_load_cpu_wait: expected a fraction in [0, 1] or NaN, found 2"));
  CHECK_THAT(refusal("cpu", [](auto& d) { d.run.info.pinned_cpu = 1 << 20; }),
             Catch::Contains("cpu.h5:/@pinned_cpu: expected a CPU number in [0, 1023], found 1048576"));
}
