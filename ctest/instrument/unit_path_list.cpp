// path_list: the shared head and tail written once at '/' boundaries, the rest in braces.
#include <catch2/catch.hpp>

#include "instrument/path_list.hpp"

using instrument::path_list;

TEST_CASE("path_list: a campaign's runs in braces", "[instrument]") {
  CHECK(path_list({}) == "");
  CHECK(path_list({"/c/runs/0007/results.h5"}) == "/c/runs/0007/results.h5");
  CHECK(path_list({"a.h5", "a.h5"}) == "a.h5");
  CHECK(path_list({"/c/runs/0007/results.h5", "/c/runs/0008/results.h5", "/c/runs/0022/results.h5"}) ==
        "/c/runs/{0007,0008,0022}/results.h5");
  // The head stops at a '/': runs/0007 and runs/0008 share "runs/000" but not a directory.
  CHECK(path_list({"/c/0007/r.h5", "/c/0017/r.h5"}) == "/c/{0007,0017}/r.h5");
  // Different file names in one directory: no tail.
  CHECK(path_list({"/d/cal1.h5", "/d/cal2.h5"}) == "/d/{cal1.h5,cal2.h5}");
  // A tail only.
  CHECK(path_list({"x/results.h5", "y/results.h5"}) == "{x,y}/results.h5");
  // Nothing shared at a '/': listed.
  CHECK(path_list({"cal1.h5", "cal2.h5"}) == "cal1.h5, cal2.h5");
  // Head and tail never overlap within a path ("/a/{,x}/b.h5" would expand to "/a//b.h5").
  CHECK(path_list({"/a/b.h5", "/a/x/b.h5"}) == "/a/{b.h5,x/b.h5}");
}
