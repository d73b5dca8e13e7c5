// The ranges of the models' inputs (calibrations, sweep3d-model's options), checked where
// they are read so that no model ever prints NaN, infinity or a negative time: with every
// input inside them each product the models form (cells x angles x iterations x W_g, message
// sizes) is finite and non-negative. sweep3d's deck takes the same extents and counts.
#pragma once

namespace sweep3d::model {

inline constexpr long long kMaxExtent = 1LL << 24;   // cells per axis, mk, processes per axis
inline constexpr long long kMaxIterations = 100000;  // iterations of a run or a projection
inline constexpr int kMaxThreads = 64;               // OpenMP threads per rank (sweep3d's kernel)
// W_g, seconds per cell-angle: from below one clock cycle for the cell solve's ~20 flops to
// a million times what any machine here measured (1-10 ns).
inline constexpr double kMinWg = 1e-12, kMaxWg = 1e-3;
// W_before, W_after: seconds per iteration and local cell (a few ns measured).
inline constexpr double kMaxWorkPerCell = 1e-3;
// A face loop's cost per face value (face_work.hpp): about 1 ns today.
inline constexpr double kMaxFaceValueSeconds = 1e-5;
// --w-before, --w-after of sweep3d-model: seconds per iteration.
inline constexpr double kMaxIterationWork = 1e4;

}  // namespace sweep3d::model
