#!/usr/bin/env python3
"""The two-grid convergence factor of the multigrid app's cycle on one mesh, computed exactly.

    python3 multigrid/scripts/two_grid.py MESH [--smoother chebyshev|sgs] [--lower F] [--iterations N]

MESH is the coarse grid: a Tycho2 .smesh or a Gmsh 2.2 ASCII .msh (gmsh M.msh -save -format
msh22 -o M2.msh). The fine grid is its uniform refinement (each tetrahedron into eight, the
octahedron cut along its shortest diagonal, as the app's refine does). On the free nodes (every
boundary node Dirichlet) the script forms the P1 Laplacian, linear interpolation P and the
Galerkin coarse operator P^T A P (which for nested P1 grids is the coarse discretisation), and
takes the largest eigenvalues of the two-grid error propagator
    E = S (I - P (P^T A P)^-1 P^T A) S,
S the smoother: `chebyshev`, the app's polynomial in D^-1 A over [F lambda_max, lambda_max] of
N iterations with the exact lambda_max (the app estimates it); or `sgs`, N symmetric
Gauss-Seidel sweeps, a stronger smoother the app does not have (it would cost a superstep per
colour). It prints those eigenvalues and where the slowest mode is largest: which fine nodes,
and whether the coarse nodes they interpolate from are on the boundary.

What it is for: telling a smoother that is too weak from a coarse grid that cannot represent
the error (multigrid/BENCHMARKS.md, convergence). Needs python3-numpy and python3-scipy.
"""
import argparse
import itertools
import struct

import numpy as np
import scipy.sparse as sp
import scipy.sparse.linalg as sla


def read_mesh(path):
    if path.endswith(".smesh"):
        data = open(path, "rb").read()
        cells, faces, nodes = struct.unpack_from("<3Q", data, 40)
        c = np.frombuffer(data, dtype="<u8", count=9 * cells, offset=64).reshape(cells, 9)
        x = np.frombuffer(data, dtype="<f8", count=3 * nodes, offset=64 + 72 * cells + 40 * faces)
        return x.reshape(nodes, 3).copy(), c[:, 4:8].astype(np.int64)
    lines = open(path).read().split("\n")
    if "$MeshFormat" not in lines or not lines[lines.index("$MeshFormat") + 1].startswith("2.2 0"):
        raise SystemExit(f"{path}: expected a Gmsh 2.2 ASCII mesh (gmsh M.msh -save -format msh22)")
    i = lines.index("$Nodes")
    n = int(lines[i + 1])
    ids, xyz = {}, []
    for k in range(n):
        f = lines[i + 2 + k].split()
        ids[int(f[0])] = k
        xyz.append([float(v) for v in f[1:4]])
    j = lines.index("$Elements")
    tets = []
    for k in range(int(lines[j + 1])):
        f = lines[j + 2 + k].split()
        if f[1] == "4":  # 4-node tetrahedron
            tags = int(f[2])
            tets.append([ids[int(v)] for v in f[3 + tags:7 + tags]])
    return np.array(xyz), np.array(tets, dtype=np.int64)


def boundary_nodes(tets):
    count = {}
    for t in tets:
        for f in itertools.combinations(sorted(t), 3):
            count[f] = count.get(f, 0) + 1
    return sorted({v for f, c in count.items() if c == 1 for v in f})


def refine(x, tets):
    """Uniform refinement; returns fine nodes, fine cells and the edge -> midpoint map."""
    xs, mid = list(x), {}

    def midpoint(a, b):
        key = (min(a, b), max(a, b))
        if key not in mid:
            mid[key] = len(xs)
            xs.append(0.5 * (x[a] + x[b]))
        return mid[key]

    fine = []
    for t in tets:
        m = {}
        for a, b in itertools.combinations(range(4), 2):
            m[(a, b)] = m[(b, a)] = midpoint(t[a], t[b])
        for a in range(4):
            fine.append([t[a]] + [m[(a, b)] for b in range(4) if b != a])
        # The interior octahedron: cut along its shortest diagonal, four cells around it.
        diagonals = [((0, 1), (2, 3)), ((0, 2), (1, 3)), ((0, 3), (1, 2))]
        d = min(diagonals, key=lambda e: np.linalg.norm(xs[m[e[0]]] - xs[m[e[1]]]))
        ring_edges = [e for e in itertools.combinations(range(4), 2) if e not in d]
        ring = [ring_edges.pop(0)]
        while ring_edges:  # neighbours on the equator share a corner of the parent
            nxt = next(e for e in ring_edges if set(e) & set(ring[-1]))
            ring.append(nxt)
            ring_edges.remove(nxt)
        for k in range(4):
            fine.append([m[d[0]], m[d[1]], m[ring[k]], m[ring[(k + 1) % 4]]])
    return np.array(xs), np.array(fine, dtype=np.int64), mid


def stiffness(x, tets):
    rows, cols, vals = [], [], []
    for t in tets:
        m = np.hstack([np.ones((4, 1)), x[t]])
        grad = np.linalg.inv(m)[1:, :]
        k = abs(np.linalg.det(m)) / 6 * grad.T @ grad
        for a in range(4):
            rows += [t[a]] * 4
            cols += list(t)
            vals += list(k[a])
    return sp.csr_matrix((vals, (rows, cols)), shape=(len(x), len(x)))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("mesh")
    ap.add_argument("--smoother", choices=["chebyshev", "sgs"], default="chebyshev")
    ap.add_argument("--lower", type=float, default=0.25, help="Chebyshev's a / lambda_max (default 0.25)")
    ap.add_argument("--iterations", type=int, default=2, help="smoothing iterations before and after (default 2)")
    o = ap.parse_args()

    xc, tc = read_mesh(o.mesh)
    xf, tf, mid = refine(xc, tc)
    nc, nf = len(xc), len(xf)
    interp = sp.lil_matrix((nf, nc))
    for v in range(nc):
        interp[v, v] = 1.0
    for (a, b), v in mid.items():
        interp[v, a] = interp[v, b] = 0.5
    bc, bf = set(boundary_nodes(tc)), boundary_nodes(tf)
    free_f = np.setdiff1d(np.arange(nf), bf)
    free_c = np.array([v for v in range(nc) if v not in bc])
    a = stiffness(xf, tf)[free_f][:, free_f].tocsr()
    p = interp.tocsr()[free_f][:, free_c]
    coarse = sla.splu((p.T @ a @ p).tocsc())
    dinv = 1.0 / a.diagonal()
    scaled = sp.diags(np.sqrt(dinv)) @ a @ sp.diags(np.sqrt(dinv))
    lam = sla.eigsh(scaled, k=1, which="LA")[0][0]
    lower, upper = sp.tril(a).tocsr(), sp.triu(a).tocsr()

    def smooth(e):
        if o.smoother == "sgs":
            for _ in range(o.iterations):
                e = e - sla.spsolve_triangular(lower, a @ e, lower=True)
                e = e - sla.spsolve_triangular(upper, a @ e, lower=False)
            return e
        hi, lo = lam, o.lower * lam  # the app's chebyshev() in cycle.cpp, on the error
        theta, delta = 0.5 * (hi + lo), 0.5 * (hi - lo)
        sigma = theta / delta
        z = -dinv * (a @ e)
        d, rho = z / theta, 1.0 / sigma
        for k in range(1, o.iterations + 1):
            e = e + d
            if k == o.iterations:
                break
            z = z - dinv * (a @ d)
            rho_next = 1.0 / (2.0 * sigma - rho)
            d = rho_next * rho * d + 2.0 * rho_next / delta * z
            rho = rho_next
        return e

    def two_grid(e):
        e = smooth(e)
        e = e + p @ coarse.solve(p.T @ (-(a @ e)))
        return smooth(e)

    op = sla.LinearOperator(a.shape, matvec=two_grid)
    vals, vecs = sla.eigs(op, k=4, which="LM", tol=1e-6)
    order = np.argsort(-abs(vals))
    print(f"{o.mesh}: {len(tc)} coarse cells ({sum(all(v in bc for v in t) for t in tc)} with all four corners on the "
          f"boundary), {len(free_c)} of {nc} coarse nodes free; {len(tf)} fine cells, {len(free_f)} free fine nodes")
    what = (f"Chebyshev over [{o.lower:g}, 1] lambda_max" if o.smoother == "chebyshev" else "symmetric Gauss-Seidel")
    print(f"  {what}, {o.iterations} + {o.iterations}; lambda_max(D^-1 A) = {lam:.4f}")
    print("  two-grid factor (largest |eigenvalues| of E):", " ".join(f"{abs(vals[k]):.4f}" for k in order))
    v = np.real(vecs[:, order[0]])
    v /= abs(v).max()
    pf = interp.tocsr()[free_f]
    print("  the slowest mode is largest at (fine node, value, its coarse nodes: B boundary, F free):")
    for k in np.argsort(-abs(v))[:5]:
        parents = "".join("B" if q in bc else "F" for q in pf.getrow(k).indices)
        print(f"    {np.round(xf[free_f[k]], 3)}  {v[k]:+.3f}  {parents}")


if __name__ == "__main__":
    main()
