// File names given on the command line (option_file.hpp).
#include "instrument/option_file.hpp"

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/mpi_main.hpp"
#include "instrument/output_file.hpp"
#include "instrument/text_split.hpp"

namespace instrument {

std::string output_file_option(const std::string& option, const std::string& text) {
  return file_option(option, text);
}

std::string file_option(const std::string& option, const std::string& text) {
  if (text.empty()) throw InputError("command line", option, "expected a file name, got \"\"");
  return text;
}

std::vector<std::string> file_list_option(const std::string& option, const std::string& text) {
  std::vector<std::string> files = split(text, ",");
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!files[i].empty()) continue;
    throw InputError("command line", option,
                     files.size() == 1
                         ? std::string("expected a file name, got \"\"")
                         : "expected file names separated by commas, got an empty name (entry " +
                               std::to_string(i + 1) + " of " + std::to_string(files.size()) +
                               ") in " + quote_token(text));
  }
  return files;
}

void check_output_file(const std::string& path, const std::string& what) {
  const OutputFile check(path, what);  // refuses in its constructor; creates nothing
}

void check_output_file_on_root(const std::string& path, const std::string& what, MPI_Comm comm,
                               int root) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  std::string error;
  if (rank == root) {
    try {
      check_output_file(path, what);
    } catch (const std::exception& e) {
      error = e.what();
    }
  }
  throw_if_any_rank_failed(comm, error);
}

}  // namespace instrument
