// The cost of each loop over a block's I or J face (face_copies.hpp), per face value, for the
// models' faces (model/face_work.hpp, which says why they are priced apart from W_g).
//
// Timed on the run's own face extents (rank 0's: what a calibration describes), alternated,
// medians of 41 rounds. The face a pack reads is one the kernel just wrote (in cache); the
// message it writes is taken out of the caches first, as MPI's copy to the receiver leaves
// it. In a 1x2 run on the AMD EPYC Zen 5 guest the pack took 1.2 ns a value against this
// probe's 0.8-0.9: the receiver's copy leaves the lines in the other CPU's cache, whose round
// trip (the vCPUs' placement) the probe does not see.
#pragma once
#include "sweep3d/face_copies.hpp"
#include "sweep3d/model/face_work.hpp"

namespace sweep3d {

// The loops timed on faces of these extents (na angles, nk = mk planes, n cells; I and J):
// the per-value costs of model::FaceWork (fill_s: vacuum_face, leak_s: edge_leakage,
// unpack_s, pack_s), not yet priced (the calibration decides: work_figures.cpp). About 3 ms.
model::FaceWork measure_face_loops(const FaceExtent& i_face, const FaceExtent& j_face);

}  // namespace sweep3d
