// OutputFile, the suite's one writer: symbolic links and non-regular targets refused and left
// as they were, temporaries of dead writers removed by the next write, an
// uncommitted temporary removed; the results file and the trace written through it.
#include <catch2/catch.hpp>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "../scratch_dir.hpp"
#include "instrument/error.hpp"
#include "instrument/output_file.hpp"
#include "instrument/results_file.hpp"
#include "instrument/trace_export.hpp"

using namespace instrument;
namespace fs = std::filesystem;

namespace {

std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A pid that ran and has ended (reaped): kill(pid, 0) now fails with ESRCH.
pid_t dead_pid() {
  const pid_t child = ::fork();
  if (child == 0) ::_exit(0);
  REQUIRE(child > 0);
  int status = 0;
  ::waitpid(child, &status, 0);
  REQUIRE(::kill(child, 0) != 0);
  return child;
}

std::string refusal(const std::string& path, const std::string& what) {
  try {
    write_text_output(path, what, "must not be written\n");
  } catch (const InputError& e) {
    CHECK(e.file() == path);
    return e.what();
  }
  FAIL("write_text_output should have refused " + path);
  return "";
}

ResultsDocument small_document() {
  Recorder rec(4);
  const PhaseId solve = rec.define_phase("solve");
  rec.add_time(solve, 1.5, 1);
  rec.record_interval(solve, rec.origin() + 10, rec.origin() + 20);
  ResultsDocument doc;
  doc.run = gather_results(rec, make_run_info("output-file-test", MPI_COMM_SELF), MPI_COMM_SELF);
  doc.write_trace = true;
  return doc;
}

}  // namespace

TEST_CASE("a plain write creates the file and leaves no temporary") {
  ScratchDir dir("output_file_test");
  const fs::path p = dir.path / "out.csv";
  write_text_output(p.string(), "CSV", "a,b\n1,2\n");
  CHECK(slurp(p) == "a,b\n1,2\n");
  write_text_output(p.string(), "CSV", "x\n");  // replaced whole
  CHECK(slurp(p) == "x\n");
  CHECK(dir.names() == std::set<std::string>{"out.csv"});
}

TEST_CASE("a symbolic link is refused, its target left byte for byte") {
  ScratchDir dir("output_file_test");
  fs::create_directory(dir.path / "real");
  std::ofstream(dir.path / "real" / "data.txt") << "old\n";
  fs::create_symlink("real/data.txt", dir.path / "link.txt");  // relative, as users make them
  const std::string link = (dir.path / "link.txt").string();
  CHECK(refusal(link, "results file") ==
        link + ": cannot write results file: it is a symbolic link (to real/data.txt); refusing "
               "to write through it; give the real path");
  CHECK(fs::is_symlink(link));
  CHECK(fs::read_symlink(link) == "real/data.txt");
  CHECK(slurp(dir.path / "real" / "data.txt") == "old\n");
  CHECK(dir.names() == std::set<std::string>{"link.txt", "real"});

  SECTION("refused at construction, so nothing is ever opened through it") {
    CHECK_THROWS_WITH(OutputFile(link, "CSV"), Catch::Contains("it is a symbolic link"));
  }
  SECTION("a dangling symbolic link: its target is not created") {
    fs::create_symlink("real/fresh.txt", dir.path / "dangling");
    CHECK_THAT(refusal((dir.path / "dangling").string(), "CSV"),
               Catch::Contains("it is a symbolic link (to real/fresh.txt)"));
    CHECK_FALSE(fs::exists(dir.path / "real" / "fresh.txt"));
    CHECK(fs::is_symlink(dir.path / "dangling"));
  }
  SECTION("a symbolic link loop") {
    fs::create_symlink("loop_b", dir.path / "loop_a");
    fs::create_symlink("loop_a", dir.path / "loop_b");
    CHECK_THAT(refusal((dir.path / "loop_a").string(), "CSV"),
               Catch::Contains("it is a symbolic link (to loop_b)"));
  }
  SECTION("a link among the directories above is resolved as usual") {
    fs::create_directory_symlink("real", dir.path / "real_link");
    write_text_output((dir.path / "real_link" / "new.txt").string(), "CSV", "new\n");
    CHECK(slurp(dir.path / "real" / "new.txt") == "new\n");
  }
}

TEST_CASE("a target that is not a regular file is refused and left alone") {
  ScratchDir dir("output_file_test");
  SECTION("FIFO") {
    const fs::path fifo = dir.path / "fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    CHECK(refusal(fifo.string(), "results file") ==
          fifo.string() + ": cannot write results file: it is a FIFO, not a regular file; "
                          "refusing to replace it");
    CHECK(fs::is_fifo(fifo));
    fs::create_symlink("fifo", dir.path / "to_fifo");
    CHECK_THAT(refusal((dir.path / "to_fifo").string(), "CSV"),
               Catch::Contains("it is a symbolic link (to fifo)"));
    CHECK(dir.names() == std::set<std::string>{"fifo", "to_fifo"});
  }
  SECTION("directory") {
    fs::create_directory(dir.path / "d");
    CHECK_THAT(refusal((dir.path / "d").string(), "CSV"), Catch::Contains("it is a directory"));
  }
  SECTION("/dev/null: refused at construction, so never opened for writing") {
    CHECK_THROWS_WITH(OutputFile("/dev/null", "results file"),
                      Catch::Contains("it is a character device, not a regular file"));
    const fs::path p = "/dev/null";
    CHECK(fs::is_character_file(p));
  }
  SECTION("the results file and the trace refuse it too") {
    const fs::path fifo = dir.path / "fifo";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    const ResultsDocument doc = small_document();
    CHECK_THROWS_WITH(write_results(fifo.string(), doc), Catch::Contains("is a FIFO"));
    CHECK_THROWS_WITH(write_chrome_trace_file(fifo.string(), doc.run.trace),
                      Catch::Contains("is a FIFO"));
    CHECK(fs::is_fifo(fifo));
    CHECK(dir.names() == std::set<std::string>{"fifo"});
  }
}

TEST_CASE("temporaries of writers that no longer run are removed by the next write") {
  ScratchDir dir("output_file_test");
  const fs::path target = dir.path / "run.h5";
  const pid_t dead = dead_pid();
  const std::string stale = "run.h5.tmp." + std::to_string(dead);
  std::ofstream(dir.path / stale) << "partial";
  // Kept: a live process's temporary (our parent runs), another file's, not a pid.
  const std::string live = "run.h5.tmp." + std::to_string(::getppid());
  std::ofstream(dir.path / live) << "being written";
  const std::string other = "other.h5.tmp." + std::to_string(dead);
  std::ofstream(dir.path / other) << "not ours";
  std::ofstream(dir.path / "run.h5.tmp.12ab") << "not a pid";

  write_text_output(target.string(), "results file", "done\n");
  CHECK(dir.names() == std::set<std::string>{"run.h5", live, other, "run.h5.tmp.12ab"});
}

TEST_CASE("a writer killed mid-write leaves nothing after the next write") {
  ScratchDir dir("output_file_test");
  const fs::path target = dir.path / "run.json";
  const pid_t child = ::fork();
  if (child == 0) {  // no MPI here: write half a file, then die as a kill would make it
    OutputFile out(target.string(), "trace");
    std::ofstream(out.temp_path()) << "{\"traceEvents\":[";
    ::raise(SIGKILL);
    ::_exit(3);
  }
  REQUIRE(child > 0);
  int status = 0;
  ::waitpid(child, &status, 0);
  REQUIRE(WIFSIGNALED(status));
  REQUIRE(dir.names() == std::set<std::string>{"run.json.tmp." + std::to_string(child)});

  write_chrome_trace_file(target.string(), small_document().run.trace);
  CHECK(dir.names() == std::set<std::string>{"run.json"});
  const std::string json = slurp(target);  // the whole new trace, not the killed half
  CHECK(json.rfind("{\"displayTimeUnit\"", 0) == 0);
  CHECK(json.size() > 3);
  CHECK(json.substr(json.size() - 3) == "]}\n");
}

TEST_CASE("an uncommitted temporary is removed, the old file kept") {
  ScratchDir dir("output_file_test");
  const fs::path target = dir.path / "m.machine";
  std::ofstream(target) << "old\n";
  try {
    OutputFile out(target.string(), "machine file");
    std::ofstream(out.temp_path()) << "half";
    REQUIRE(fs::exists(out.temp_path()));
    throw std::runtime_error("failed mid-write");
  } catch (const std::runtime_error&) {
  }
  CHECK(dir.names() == std::set<std::string>{"m.machine"});
  CHECK(slurp(target) == "old\n");
}

TEST_CASE("a path replaced by a symbolic link before the commit is refused then too") {
  ScratchDir dir("output_file_test");
  const fs::path target = dir.path / "out.csv";
  std::ofstream(dir.path / "victim") << "keep\n";
  {
    OutputFile out(target.string(), "CSV");
    std::ofstream(out.temp_path()) << "mine\n";
    fs::create_symlink("victim", target);  // planted while the output was being written
    CHECK_THROWS_WITH(out.commit(), Catch::Contains("it is a symbolic link (to victim)"));
  }
  CHECK(slurp(dir.path / "victim") == "keep\n");
  CHECK(fs::is_symlink(target));
  CHECK(dir.names() == std::set<std::string>{"out.csv", "victim"});
}

TEST_CASE("a temporary name taken by a symlink is never followed") {
  ScratchDir dir("output_file_test");
  const fs::path target = dir.path / "out.txt";
  std::ofstream(dir.path / "victim") << "keep\n";
  // Planted at our own temporary's name (as a dead process with our pid might have left it).
  fs::create_symlink("victim", dir.path / ("out.txt.tmp." + std::to_string(::getpid())));
  write_text_output(target.string(), "CSV", "mine\n");
  CHECK(slurp(dir.path / "victim") == "keep\n");
  CHECK(slurp(target) == "mine\n");
  CHECK(dir.names() == std::set<std::string>{"out.txt", "victim"});
}

TEST_CASE("the results file and the trace refuse a symbolic link, even a dangling one") {
  ScratchDir dir("output_file_test");
  fs::create_directory(dir.path / "store");
  std::ofstream(dir.path / "store" / "run.h5") << "someone else's file\n";
  fs::create_symlink("store/run.h5", dir.path / "latest.h5");
  fs::create_symlink("store/new.json", dir.path / "dangling.json");
  const ResultsDocument doc = small_document();
  CHECK_THROWS_WITH(write_results((dir.path / "latest.h5").string(), doc),
                    Catch::Contains("cannot write results file: it is a symbolic link"));
  CHECK_THROWS_WITH(write_chrome_trace_file((dir.path / "dangling.json").string(), doc.run.trace),
                    Catch::Contains("cannot write trace: it is a symbolic link"));
  CHECK(slurp(dir.path / "store" / "run.h5") == "someone else's file\n");
  CHECK(dir.names() == std::set<std::string>{"dangling.json", "latest.h5", "store"});
  CHECK_FALSE(fs::exists(dir.path / "store" / "new.json"));
}
