// A fresh directory for one test process's files, removed with everything in it at the end.
#pragma once
#include <unistd.h>

#include <filesystem>
#include <set>
#include <string>

struct ScratchDir {
  std::filesystem::path path;
  // Under the temporary directory, named by `tag` and this process's id.
  explicit ScratchDir(const std::string& tag)
      : path(std::filesystem::temp_directory_path() / (tag + "_" + std::to_string(::getpid()))) {
    std::filesystem::remove_all(path);
    std::filesystem::create_directories(path);
  }
  ~ScratchDir() {
    std::error_code ignored;
    std::filesystem::remove_all(path, ignored);
  }
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;
  // The names of the entries in it now (what a write left behind).
  std::set<std::string> names() const {
    std::set<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(path)) out.insert(e.path().filename().string());
    return out;
  }
};
