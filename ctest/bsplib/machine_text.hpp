// Machine files written from a test's text, read with the library's reader and removed: the
// file is named <prefix><name>.machine in the working directory, so that a refusal's message
// (which names the file) can be checked whole.
#pragma once
#include <cstdio>
#include <fstream>
#include <string>

#include "bsplib/model/machine_params.hpp"

inline std::string write_machine_text(const std::string& prefix, const std::string& name, const std::string& text) {
  const std::string path = prefix + name + ".machine";
  std::ofstream(path) << text;
  return path;
}

// The machine the text describes; throws as read_machine_file does (the file removed first).
inline bspmodel::BspMachine read_machine_text(const std::string& prefix, const std::string& name,
                                              const std::string& text) {
  const std::string path = write_machine_text(prefix, name, text);
  try {
    bspmodel::BspMachine m = bspmodel::read_machine_file(path);
    std::remove(path.c_str());
    return m;
  } catch (...) {
    std::remove(path.c_str());
    throw;
  }
}

// The reader's refusal of the text, or "" if it accepts it.
inline std::string machine_text_error(const std::string& prefix, const std::string& name, const std::string& text) {
  try {
    read_machine_text(prefix, name, text);
  } catch (const std::exception& e) {
    return e.what();
  }
  return "";
}
