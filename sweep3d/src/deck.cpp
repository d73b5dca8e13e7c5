#include "sweep3d/deck.hpp"

#include <cctype>
#include <climits>
#include <cmath>
#include <algorithm>
#include <type_traits>
#include <sstream>
#include <vector>

#include "instrument/error.hpp"
#include "instrument/input_file.hpp"
#include "instrument/mpi_main.hpp"
#include "sweep3d/deck_ranges.hpp"
#include "sweep3d/list_directed.hpp"

namespace sweep3d {

namespace {

constexpr int kRecordOf[20] = {1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5};
constexpr int kFirstOfRecord[6] = {0, 0, 5, 10, 14, 17};

bool is_real_field(int f) { return f >= 10 && f <= 13; }

// Pointers to the deck's fields in kFieldNames order (const when the deck is).
template <class D>
struct FieldRefsOf {
  using Int = std::conditional_t<std::is_const_v<D>, const int, int>;
  using Real = std::conditional_t<std::is_const_v<D>, const double, double>;
  std::array<Int*, 20> ints{};
  std::array<Real*, 20> reals{};
  explicit FieldRefsOf(D& d) {
    Int* i[] = {&d.npe_i, &d.npe_j, &d.mk, &d.mmi, &d.ncpu, &d.it_g, &d.jt_g, &d.kt, &d.mm, &d.isct};
    for (int k = 0; k < 10; ++k) ints[k] = i[k];
    reals[10] = &d.dx;
    reals[11] = &d.dy;
    reals[12] = &d.dz;
    reals[13] = &d.epsi;
    Int* j[] = {&d.ibc, &d.jbc, &d.kbc, &d.iprint, &d.idsa, &d.ifixups};
    for (int k = 0; k < 6; ++k) ints[14 + k] = j[k];
  }
};
using FieldRefs = FieldRefsOf<Deck>;
using ConstFieldRefs = FieldRefsOf<const Deck>;

std::string where(const Deck& d, int f) {
  std::string w;
  if (d.line[f] > 0) w = "line " + std::to_string(d.line[f]) + " ";
  if (d.form == DeckForm::list_directed) {
    const int rec = kRecordOf[f];
    w += "field " + std::to_string(f - kFirstOfRecord[rec] + 1) + " ";
  }
  return w + "(" + std::string(Deck::kFieldNames[f]) + ")";
}

[[noreturn]] void refuse(const Deck& d, int f, const std::string& what) {
  throw instrument::InputError(d.file, where(d, f), what);
}

// The field as written, or (a deck made in code, a grid from the command line) its value.
std::string token_of(const Deck& d, int f) {
  if (!d.token[f].empty()) return d.token[f];
  if (is_real_field(f)) {
    std::ostringstream s;
    s.precision(17);
    s << *ConstFieldRefs(d).reals[f];
    return s.str();
  }
  return std::to_string(*ConstFieldRefs(d).ints[f]);
}

// Every field against its own range (deck_ranges.hpp).
void check_ranges(const Deck& d) {
  const ConstFieldRefs refs(d);
  for (int f = 0; f < 20; ++f) {
    if (is_real_field(f)) check_real_field(f, *refs.reals[f], token_of(d, f), d.file, where(d, f));
    else check_integer_field(f, *refs.ints[f], token_of(d, f), d.file, where(d, f));
  }
}

Deck parse_list_directed(std::string_view text, const std::string& file) {
  Deck d;
  d.file = file;
  d.form = DeckForm::list_directed;
  FieldRefs refs(d);
  ListDirectedReader reader(text, file);
  for (int rec = 1; rec <= 5; ++rec) {
    std::vector<FieldSpec> specs;
    const int first = kFirstOfRecord[rec], last = rec == 5 ? 20 : kFirstOfRecord[rec + 1];
    for (int f = first; f < last; ++f)
      specs.push_back({Deck::kFieldNames[f], is_real_field(f) ? FieldType::real : FieldType::integer});
    const auto values = reader.read(specs, rec);
    for (int f = first; f < last; ++f) {
      const FieldValue& v = values[static_cast<std::size_t>(f - first)];
      d.line[f] = v.line;
      d.token[f] = v.token;
      if (is_real_field(f)) {
        check_real_field(f, v.real, v.token, file, where(d, f));
        *refs.reals[f] = v.real;
      } else {
        check_integer_field(f, v.integer, v.token, file, where(d, f));
        *refs.ints[f] = static_cast<int>(v.integer);
      }
    }
  }
  reader.expect_end();
  return d;
}

Deck parse_key_value(std::string_view text, const std::string& file) {
  Deck d;
  d.file = file;
  d.form = DeckForm::key_value;
  FieldRefs refs(d);
  std::array<bool, 20> seen{};
  std::istringstream in{std::string(text)};
  std::string raw;
  int lineno = 0;
  while (std::getline(in, raw)) {
    ++lineno;
    const std::size_t c = raw.find_first_of("#!");
    std::string s = raw.substr(0, c);
    // Normalise "key = value" to "key=value", then split on blanks.
    std::string norm;
    for (std::size_t p = 0; p < s.size(); ++p) {
      if (s[p] == '=') {
        while (!norm.empty() && std::isspace(static_cast<unsigned char>(norm.back()))) norm.pop_back();
        norm += '=';
        while (p + 1 < s.size() && std::isspace(static_cast<unsigned char>(s[p + 1]))) ++p;
      } else {
        norm += s[p];
      }
    }
    std::istringstream words(norm);
    std::string w;
    while (words >> w) {
      const std::string at = "line " + std::to_string(lineno);
      const std::size_t eq = w.find('=');
      if (eq == std::string::npos || eq == 0 || eq + 1 == w.size())
        throw instrument::InputError(file, at, "expected key = value, got " + instrument::quote_token(w));
      std::string key = w.substr(0, eq);
      for (char& ch : key) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
      const std::string val = w.substr(eq + 1);
      int f = -1;
      for (int k = 0; k < 20; ++k)
        if (Deck::kFieldNames[k] == key) f = k;
      if (f < 0) {
        std::string known;
        for (auto n : Deck::kFieldNames) {
          if (!known.empty()) known += ' ';
          known += n;
        }
        throw instrument::InputError(file, at, "unknown key " + instrument::quote_token(key) + "; expected one of " + known);
      }
      if (seen[f])
        throw instrument::InputError(file, at + " (" + key + ")",
                                     "given twice (first on line " + std::to_string(d.line[f]) + ")");
      seen[f] = true;
      d.line[f] = lineno;
      d.token[f] = val;
      const std::string place = at + " (" + key + ")";
      if (is_real_field(f)) {
        double v = 0.0;
        if (!parse_fortran_real(val, v))
          throw instrument::InputError(file, place, "expected a real number, got " + instrument::quote_token(val));
        check_real_field(f, v, val, file, place);
        *refs.reals[f] = v;
      } else {
        long long v = 0;
        if (!parse_fortran_integer(val, v))
          throw instrument::InputError(file, place, "expected an integer, got " + instrument::quote_token(val));
        check_integer_field(f, v, val, file, place);
        *refs.ints[f] = static_cast<int>(v);
      }
    }
  }
  std::string missing;
  for (int k = 0; k < 20; ++k)
    if (!seen[k]) {
      if (!missing.empty()) missing += ' ';
      missing += Deck::kFieldNames[k];
    }
  if (!missing.empty())
    throw instrument::InputError(file, "end of file", "missing key(s) " + missing + "; every one of the 20 keys is required");
  return d;
}

}  // namespace

int Deck::fixed_iterations() const {
  const double n = -epsi + static_cast<double>(0.99f);  // the original's single-precision 0.99
  const int count = static_cast<int>(n);
  return count < 1 ? 1 : count;
}

Deck parse_deck(std::string_view text, const std::string& file) {
  // The form is decided by the first line that is neither blank nor a comment.
  std::istringstream in{std::string(text)};
  std::string line;
  while (std::getline(in, line)) {
    const std::size_t p = line.find_first_not_of(" \t\r");
    if (p == std::string::npos || line[p] == '#' || line[p] == '!') continue;
    const std::string body = line.substr(0, line.find_first_of("#!"));
    Deck d = body.find('=') != std::string::npos ? parse_key_value(text, file)
                                                  : parse_list_directed(text, file);
    d.text = std::string(text);
    return d;
  }
  throw instrument::InputError(file, "line 1", "the deck is empty; expected 5 records (npe_i npe_j mk mmi ncpu / it_g jt_g kt mm isct / dx dy dz epsi / ibc jbc kbc / iprint idsa ifixups) or key = value lines");
}

Deck read_deck_file(const std::string& path) {
  return parse_deck(instrument::read_input_file(path, "the input deck", kMaxDeckBytes), path);
}

void validate_deck(const Deck& d, int nranks) {
  check_ranges(d);
  // Across fields, in the order of the deck; each test names what the original does wrong.
  const long long ranks = static_cast<long long>(d.npe_i) * d.npe_j;  // both <= 2^24: no overflow
  if (ranks != nranks)
    refuse(d, 1, "npe_i*npe_j = " + std::to_string(d.npe_i) + "*" + std::to_string(d.npe_j) + " = " +
                     std::to_string(ranks) + " must equal the number of MPI ranks, " + std::to_string(nranks));
  if (d.mm % d.mmi != 0)
    refuse(d, 3, "mmi (angles per block) must divide mm = " + std::to_string(d.mm) +
                     (d.mm == 3 ? " (1 or 3)" : " (1, 2, 3 or 6)") + "; got " + instrument::quote_token(token_of(d, 3)));
  // Each extent is at most 2^24, so the product of two fits in 64 bits before the third.
  const long long cells = static_cast<long long>(d.it_g) * d.jt_g;
  if (cells > kMaxCells / d.kt)
    refuse(d, 7, "a grid of " + std::to_string(d.it_g) + "*" + std::to_string(d.jt_g) + "*" + std::to_string(d.kt) +
                     " cells is more than the " + std::to_string(kMaxCells) + " (2^40) cells a run may have");
  // A block's face message is one MPI send of (cells of a face line)*mk*mmi doubles, whose
  // count is an int; rank 0 holds the largest extents. (On one rank nothing is sent.)
  if (ranks > 1) {
    const long long jt0 = (d.jt_g + d.npe_j - 1) / d.npe_j, it0 = (d.it_g + d.npe_i - 1) / d.npe_i;
    const long long doubles = std::max(it0, jt0) * std::min(d.mk, d.kt) * d.mmi;
    if (doubles > INT_MAX)
      refuse(d, 2, "a face message of " + std::to_string(doubles) + " doubles (cells of a face line * mk * mmi) " +
                       "is more than an MPI count, 2147483647; use a smaller mk or mmi");
  }
}

namespace {

Deck finish_distribution(Deck deck, const std::string& error, instrument::Comm& comm) {
  instrument::throw_if_any_rank_failed(comm.mpi(), error);
  std::array<int, 16> ints{deck.npe_i, deck.npe_j, deck.mk,  deck.mmi, deck.ncpu,   deck.it_g,
                           deck.jt_g,  deck.kt,    deck.mm,  deck.isct, deck.ibc,   deck.jbc,
                           deck.kbc,   deck.iprint, deck.idsa, deck.ifixups};
  std::array<double, 4> reals{deck.dx, deck.dy, deck.dz, deck.epsi};
  comm.bcast(ints.data(), 16, MPI_INT, 0);
  comm.bcast(reals.data(), 4, MPI_DOUBLE, 0);
  Deck d = comm.rank() == 0 ? deck : Deck{};
  d.npe_i = ints[0], d.npe_j = ints[1], d.mk = ints[2], d.mmi = ints[3], d.ncpu = ints[4];
  d.it_g = ints[5], d.jt_g = ints[6], d.kt = ints[7], d.mm = ints[8], d.isct = ints[9];
  d.ibc = ints[10], d.jbc = ints[11], d.kbc = ints[12];
  d.iprint = ints[13], d.idsa = ints[14], d.ifixups = ints[15];
  d.dx = reals[0], d.dy = reals[1], d.dz = reals[2], d.epsi = reals[3];
  return d;
}

void apply(Deck& deck, GridOverride grid) {
  if (grid.npe_i <= 0) return;
  deck.npe_i = grid.npe_i;
  deck.npe_j = grid.npe_j;
  deck.line[0] = deck.line[1] = 0;  // no longer from the file
  deck.token[0].clear();
  deck.token[1].clear();
}

// Rank 0 reads and validates; the verdict and the values reach every rank.
template <class Read>
Deck distribute(Read read, instrument::Comm& comm, GridOverride grid) {
  Deck deck;
  std::string error;
  if (comm.rank() == 0) {
    try {
      deck = read();
      apply(deck, grid);
      validate_deck(deck, comm.size());
    } catch (const instrument::InputError& e) {
      error = e.what();
    }
  }
  return finish_distribution(std::move(deck), error, comm);
}

}  // namespace

Deck distribute_deck(const std::string& path, instrument::Comm& comm, GridOverride grid) {
  return distribute([&] { return read_deck_file(path); }, comm, grid);
}

Deck distribute_deck_text(const std::string& text, const std::string& name, instrument::Comm& comm,
                          GridOverride grid) {
  return distribute([&] { return parse_deck(text, name); }, comm, grid);
}

}  // namespace sweep3d
