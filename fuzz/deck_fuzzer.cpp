// sweep3d's input deck, both forms (list-directed and key = value): parse, validate, and
// what the driver then asks of a valid deck. Bad input must be an InputError; a crash, a
// sanitizer report, another exception type or a hang is a finding.
#include <climits>
#include <cstdint>
#include <string>

#include "fuzz_input.hpp"
#include "instrument/error.hpp"
#include "sweep3d/deck.hpp"

namespace {

// The rank count the deck's own grid asks for, as mpiexec would be given it.
int ranks_for(const sweep3d::Deck& d) {
  const long long n = static_cast<long long>(d.npe_i) * d.npe_j;
  return n >= 1 && n <= INT_MAX ? static_cast<int>(n) : 1;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    const sweep3d::Deck deck = sweep3d::parse_deck(fuzz::as_text(data, size), "fuzz.input");
    sweep3d::validate_deck(deck, ranks_for(deck));
    // A valid deck is run: the iteration count and the fixup schedule are asked of it.
    const int iterations = deck.epsi < 0 ? deck.fixed_iterations() : 1;
    for (const int its : {1, 2, iterations, iterations + (iterations < INT_MAX ? 1 : 0)})
      (void)deck.fixups_in(its);
  } catch (const instrument::InputError&) {
  }
  return 0;
}
