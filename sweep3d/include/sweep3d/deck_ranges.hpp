// The documented range of every numeric field of the deck (README.md, "Input deck: ranges"),
// checked where the field is read, so that the error names the range and quotes the token as
// written. Checks that involve two fields (mmi divides mm, npe_i*npe_j ranks, the grid's
// cells, a face message's size) are validate_deck's.
//
// Why these bounds (one material, sigma_t = 1/cm, sigma_s0 = 0.5/cm):
// - dx, dy, dz in [1e-6, 1e6] cm: a cell from a millionth to a million mean free paths.
//   Every intermediate stays finite: 2/width is within [2e-6, 2e6] and the diamond-difference
//   denominator within [1, 1e7]; a cell's volume (dx*dy)*dz within [1e-18, 1e18] and a
//   face's area within [1e-12, 1e12]; the scalar flux is at most ~2 (q/sigma_a with P1), so
//   with at most 2^40 cells the balance sums stay below 1e31, and the smallest (absorption
//   at 1e-6 cm, ~1e-22 on 12^3 cells) is far above the smallest double. Through many cells
//   of a million mean free paths the angular flux falls toward 0 (1e-131 of leakage after
//   12 such cells), as it physically does, never to NaN. Outside the range it goes wrong:
//   at 1e308 the volume overflows and the balance prints NaN, below ~1e-160 the volume
//   underflows to 0 and the flux with it. (Measured at the corners of the range, every
//   mix of 1e-6 and 1e6, vacuum and reflective, P1, fixups on: finite balance, flux > 0.)
// - epsi: a converged deck's err is a relative change of the flux, 1 in the first
//   iteration and not measurable below a few ulps of a double, so [1e-15, 1]; a negative
//   epsi is a fixed count int(-epsi + 0.99) of at most kMaxIterations.
// - Counts (cells per axis, blocking, process grid) up to 2^24: sums such as jt + mk + mmi
//   stay far inside int, and kMaxCells bounds the grid; larger runs are refused by memory.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "sweep3d/model/model_ranges.hpp"

namespace sweep3d {

using model::kMaxExtent;                                // cells per axis, mk, npe_i, npe_j
using model::kMaxIterations;                            // fixed counts, --max-its, -ifixups
inline constexpr long long kMaxCells = 1LL << 40;       // it_g * jt_g * kt
inline constexpr long long kMaxNcpu = 65536;            // CPUs per SMP node (printed estimate)
inline constexpr double kMinWidth = 1e-6, kMaxWidth = 1e6;  // cm
inline constexpr double kMinEpsi = 1e-15, kMaxEpsi = 1.0;

// Field indices are Deck::kFieldNames'. Each throws instrument::InputError(file, where,
// "<name> (<meaning>) must be <range>; got \"<token>\"") when the value is outside its
// range; integer flags (ibc, jbc, kbc, iprint, idsa) take any value, as the original.
void check_integer_field(int field, long long value, std::string_view token, const std::string& file,
                         const std::string& where);
void check_real_field(int field, double value, std::string_view token, const std::string& file,
                      const std::string& where);

// The range of a field as the error names it, e.g. "in [1e-6, 1e6] cm" (tests, docs).
std::string field_range(int field);

}  // namespace sweep3d
