// The one flow rule of sweep_dag.hpp, shared by direction_order and boundary_depth so the
// two can never disagree on a face: s = dot(omega, A_f n_f) summed x, y, z in that order.
#pragma once
#include "tycho/mesh_types.hpp"

namespace tycho::sweep_dag_detail {

inline double flow(const Vec3& omega, const Vec3& area_normal) {
  return omega.x * area_normal.x + omega.y * area_normal.y + omega.z * area_normal.z;
}

// The upwind and downwind cells of an interior face, or false when the face carries nothing
// (s == 0, or a boundary face: never an edge).
inline bool face_edge(const Face& face, const Vec3& omega, const Vec3& area_normal, Index& up, Index& down) {
  if (face.on_boundary()) return false;
  const double s = flow(omega, area_normal);
  if (s > 0) {
    up = face.cells[0], down = face.cells[1];
    return true;
  }
  if (s < 0) {
    up = face.cells[1], down = face.cells[0];
    return true;
  }
  return false;
}

}  // namespace tycho::sweep_dag_detail
