// The loops over an I or J face of one block outside the kernel (octant_sweep.cpp), kept here
// so that the sweep and the probe of their cost (face_copy_probe.hpp) run the same code.
//
// A face in the kernel's layout is face[(plane * n + cell) * ls + angle] (ls the lane stride,
// angle_block.hpp); a message in the original's is msg[(angle * mk + plane) * n + cell]. A
// rank with a neighbour upstream copies the message into the face (unpack); one at the domain
// edge zeroes the face (vacuum). A rank with a neighbour downstream copies the face into the
// message (pack); one at the edge sums the leakage over it (and on a reflective low face
// stores it for the mirror octant).
#pragma once
#include <algorithm>

namespace sweep3d {

// The extents of one block's face: na angles, nk planes (of mk a message holds), n cells a
// plane, lane stride ls.
struct FaceExtent {
  int na = 0, nk = 0, mk = 0, n = 0, ls = 1;
  long values() const noexcept { return static_cast<long>(na) * nk * n; }
};

inline void unpack_face(const FaceExtent& e, const double* msg, double* face) {
  for (int a = 0; a < e.na; ++a)
    for (int kp = 0; kp < e.nk; ++kp)
      for (int c = 0; c < e.n; ++c) face[(kp * e.n + c) * e.ls + a] = msg[(a * e.mk + kp) * e.n + c];
}

inline void vacuum_face(const FaceExtent& e, double* face) {
  std::fill(face, face + static_cast<long>(e.nk) * e.n * e.ls, 0.0);
}

inline void pack_face(const FaceExtent& e, const double* face, double* msg) {
  for (int a = 0; a < e.na; ++a)
    for (int kp = 0; kp < e.nk; ++kp)
      for (int c = 0; c < e.n; ++c) msg[(a * e.mk + kp) * e.n + c] = face[(kp * e.n + c) * e.ls + a];
}

// Where an outflow at the domain edge stores its values for the mirror octant: value (plane
// kp, cell c, angle a) goes to store[((k_first + kp * sk) * n + c) * mm + m0 + a].
struct ReflectedStore {
  double* store = nullptr;  // null: vacuum, nothing stored
  int k_first = 0, sk = 1, mm = 0, m0 = 0;
};

// The leakage through an outflow face at the domain edge: the sum of ((w[a] * psi) * width1)
// * width2, in the original's order (angle, plane, cell).
inline double edge_leakage(const FaceExtent& e, const double* face, const double* w, double width1, double width2,
                           const ReflectedStore& r = {}) {
  double sum = 0.0;
  for (int a = 0; a < e.na; ++a)
    for (int kp = 0; kp < e.nk; ++kp) {
      const long k = r.k_first + kp * r.sk;
      for (int c = 0; c < e.n; ++c) {
        const double v = face[(kp * e.n + c) * e.ls + a];
        sum += ((w[a] * v) * width1) * width2;
        if (r.store) r.store[(k * e.n + c) * r.mm + r.m0 + a] = v;
      }
    }
  return sum;
}

}  // namespace sweep3d
