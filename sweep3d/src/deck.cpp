#include "sweep3d/deck.hpp"

#include <cctype>
#include <climits>
#include <cmath>
#include <fstream>
#include <sstream>
#include <vector>

#include "instrument/error.hpp"
#include "instrument/mpi_main.hpp"
#include "sweep3d/list_directed.hpp"

namespace sweep3d {

namespace {

constexpr int kRecordOf[20] = {1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 5, 5, 5};
constexpr int kFirstOfRecord[6] = {0, 0, 5, 10, 14, 17};

bool is_real_field(int f) { return f >= 10 && f <= 13; }

// Pointers to the deck's fields in kFieldNames order.
struct FieldRefs {
  std::array<int*, 20> ints{};
  std::array<double*, 20> reals{};
  explicit FieldRefs(Deck& d) {
    int* i[] = {&d.npe_i, &d.npe_j, &d.mk, &d.mmi, &d.ncpu, &d.it_g, &d.jt_g, &d.kt, &d.mm, &d.isct};
    for (int k = 0; k < 10; ++k) ints[k] = i[k];
    reals[10] = &d.dx;
    reals[11] = &d.dy;
    reals[12] = &d.dz;
    reals[13] = &d.epsi;
    int* j[] = {&d.ibc, &d.jbc, &d.kbc, &d.iprint, &d.idsa, &d.ifixups};
    for (int k = 0; k < 6; ++k) ints[14 + k] = j[k];
  }
};

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

std::string show(double v) {
  std::ostringstream s;
  s.precision(17);
  s << v;
  return s.str();
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
      if (is_real_field(f)) *refs.reals[f] = v.real;
      else *refs.ints[f] = static_cast<int>(v.integer);
      d.line[f] = v.line;
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
        throw instrument::InputError(file, at, "expected key = value, got '" + w + "'");
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
        throw instrument::InputError(file, at, "unknown key '" + key + "'; expected one of " + known);
      }
      if (seen[f])
        throw instrument::InputError(file, at + " (" + key + ")",
                                     "given twice (first on line " + std::to_string(d.line[f]) + ")");
      seen[f] = true;
      d.line[f] = lineno;
      if (is_real_field(f)) {
        if (!parse_fortran_real(val, *refs.reals[f]))
          throw instrument::InputError(file, at + " (" + key + ")", "expected a real number, got '" + val + "'");
      } else {
        long long v = 0;
        if (!parse_fortran_integer(val, v))
          throw instrument::InputError(file, at + " (" + key + ")", "expected an integer, got '" + val + "'");
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
  std::ifstream f(path, std::ios::binary);
  if (!f) throw instrument::InputError(path, "", "cannot open the input deck (missing or unreadable)");
  std::ostringstream s;
  s << f.rdbuf();
  if (f.bad()) throw instrument::InputError(path, "", "cannot read the input deck");
  return parse_deck(s.str(), path);
}

void validate_deck(const Deck& d, int nranks) {
  // In the order of the deck; each test names what the original does wrong with it.
  if (d.npe_i <= 0) refuse(d, 0, "npe_i must be >= 1, got " + std::to_string(d.npe_i));
  if (d.npe_j <= 0) refuse(d, 1, "npe_j must be >= 1, got " + std::to_string(d.npe_j));
  if (static_cast<long long>(d.npe_i) * d.npe_j != nranks)
    refuse(d, 1, "npe_i*npe_j = " + std::to_string(d.npe_i) + "*" + std::to_string(d.npe_j) + " = " +
                     std::to_string(static_cast<long long>(d.npe_i) * d.npe_j) +
                     " must equal the number of MPI ranks, " + std::to_string(nranks));
  if (d.mk <= 0) refuse(d, 2, "mk (k-planes per block) must be >= 1, got " + std::to_string(d.mk));
  if (d.ncpu <= 0) refuse(d, 4, "ncpu must be >= 1, got " + std::to_string(d.ncpu));
  if (d.it_g <= 0) refuse(d, 5, "it_g (cells in I) must be >= 1, got " + std::to_string(d.it_g));
  if (d.jt_g <= 0) refuse(d, 6, "jt_g (cells in J) must be >= 1, got " + std::to_string(d.jt_g));
  if (d.kt <= 0) refuse(d, 7, "kt (cells in K) must be >= 1, got " + std::to_string(d.kt));
  if (d.mm != 3 && d.mm != 6)
    refuse(d, 8, "mm (angles per octant) must be 3 (S4) or 6 (S6), got " + std::to_string(d.mm));
  if (d.mmi <= 0 || d.mm % d.mmi != 0)
    refuse(d, 3, "mmi (angles per block) must divide mm = " + std::to_string(d.mm) +
                     (d.mm == 3 ? " (1 or 3)" : " (1, 2, 3 or 6)") + ", got " + std::to_string(d.mmi));
  if (d.isct != 0 && d.isct != 1)
    refuse(d, 9, "isct (scattering order) must be 0 (P0) or 1 (P1), got " + std::to_string(d.isct));
  const double widths[3] = {d.dx, d.dy, d.dz};
  for (int a = 0; a < 3; ++a)
    if (!(widths[a] > 0.0) || !std::isfinite(widths[a]))
      refuse(d, 10 + a, "cell width must be a positive finite number, got " + show(widths[a]));
  if (!std::isfinite(d.epsi))
    refuse(d, 13, "epsi must be a finite number, got " + show(d.epsi));
  if (d.epsi == 0.0)
    refuse(d, 13, "epsi must not be 0 (the original iterates until err is exactly 0, i.e. for ever); "
                  "use epsi > 0 to converge or epsi < 0 for a fixed count");
  if (d.epsi < 0.0 && -d.epsi + 0.99 >= static_cast<double>(INT_MAX))
    refuse(d, 13, "fixed iteration count -epsi is too large, got " + show(d.epsi));
  const long long cells = static_cast<long long>(d.it_g) * d.jt_g * d.kt;
  if (cells > (1LL << 40)) refuse(d, 7, "grid of " + std::to_string(cells) + " cells is too large");
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
