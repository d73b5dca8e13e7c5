// The Sweep3D input deck: the original 5-record list-directed `input` file, or the same
// twenty fields as key = value pairs (README.md, "Input deck"). Rank 0 reads and validates;
// every rank learns the verdict and the values (distribute_deck).
#pragma once
#include <array>
#include <string>
#include <string_view>

#include "instrument/comm.hpp"

namespace sweep3d {

enum class DeckForm { list_directed, key_value };

struct Deck {
  // record 1
  int npe_i = 1, npe_j = 1, mk = 1, mmi = 1, ncpu = 1;
  // record 2
  int it_g = 1, jt_g = 1, kt = 1, mm = 6, isct = 0;
  // record 3
  double dx = 0.1, dy = 0.1, dz = 0.1, epsi = -1.0;
  // record 4
  int ibc = 0, jbc = 0, kbc = 0;
  // record 5
  int iprint = 0, idsa = 0, ifixups = 0;

  std::string file;  // where it came from (for messages and the results file)
  std::string text;  // the deck verbatim (rank 0 only)
  DeckForm form = DeckForm::list_directed;
  // The line each field was read from, in kFieldNames order (0 when not from a file), and
  // the field as written there (for errors).
  std::array<int, 20> line{};
  std::array<std::string, 20> token{};

  static constexpr std::array<std::string_view, 20> kFieldNames = {
      "npe_i", "npe_j", "mk",   "mmi",  "ncpu", "it_g", "jt_g",   "kt",   "mm",  "isct",
      "dx",    "dy",    "dz",   "epsi", "ibc",  "jbc",  "kbc", "iprint", "idsa", "ifixups"};

  // Number of iterations for a fixed-count deck (epsi < 0): int(-epsi + 0.99f), >= 1.
  int fixed_iterations() const;
  // Fixups in iteration `its` (1-based): ifixups > 0 always, 0 never, < 0 after -ifixups
  // (negated in 64 bits: -INT_MIN does not fit an int).
  bool fixups_in(int its) const {
    return ifixups > 0 || (ifixups < 0 && its > -static_cast<long long>(ifixups));
  }
};

// Parses a deck in either form (key = value when the first line that is not blank or a
// comment contains '='), each field checked against its range (deck_ranges.hpp). Throws
// instrument::InputError naming file, line, field and the range.
Deck parse_deck(std::string_view text, const std::string& file);

// Reads `path` (instrument::read_input_file: a regular file of at most kMaxDeckBytes; a FIFO,
// device or directory is refused without blocking) and parses it.
Deck read_deck_file(const std::string& path);

inline constexpr std::size_t kMaxDeckBytes = std::size_t{1} << 20;  // five records, or twenty keys

// The checks across fields: mmi divides mm, npe_i*npe_j is the number of ranks, at most
// kMaxCells cells, and a face message of at most INT_MAX doubles (an MPI count). Throws
// InputError naming the field. (Each field's own range is checked by parse_deck.)
void validate_deck(const Deck& deck, int nranks);

// A process grid given on the command line instead of the deck's npe_i x npe_j (0: none).
struct GridOverride {
  int npe_i = 0, npe_j = 0;
};

// Rank 0 reads, parses and validates `path` (with the grid override applied first); every
// rank then either throws the same instrument::CollectiveError (one line, printed once by
// run_mpi_main) or returns the deck.
Deck distribute_deck(const std::string& path, instrument::Comm& comm, GridOverride grid = {});

// Same for a deck given as text (tests, benchmarks).
Deck distribute_deck_text(const std::string& text, const std::string& name, instrument::Comm& comm,
                          GridOverride grid = {});

}  // namespace sweep3d
