// One read of an input file for a whole job: the root reads it (input_file.hpp's checks),
// every rank gets the same bytes. Why: ranks reading a file on their own can see two
// versions of it when it changes during the run, and then choose different blockings or
// models and deadlock; and N ranks opening one file is N times the metadata traffic.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <string>

namespace instrument {

// Collective over comm. On a read error every rank throws the same InputError (the root's
// message), so callers stay in step.
std::string read_input_file_shared(const std::string& path, const std::string& what,
                                   std::size_t max_bytes, MPI_Comm comm, int root = 0);

}  // namespace instrument
