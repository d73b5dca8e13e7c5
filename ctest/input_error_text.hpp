// What the bad-input tests compare: the message of the InputError a call throws.
#pragma once
#include <string>

#include "instrument/error.hpp"

// The text of the instrument::InputError that `f` throws; "" if it throws none (any other
// exception escapes, and fails the test).
template <class F>
std::string input_error_text(F&& f) {
  try {
    f();
  } catch (const instrument::InputError& e) {
    return e.what();
  }
  return "";
}
