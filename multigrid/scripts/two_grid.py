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

The mesh is checked as tycho's readers check it before any of it is used: a regular file of at
most 256 MiB; a .smesh header whose counts match the file's size, node indices below the node
count; a .msh's format line, counts, numbers and node references; then every coordinate
finite within +-1e30 and no degenerate cell (volume > 1e-12 x the longest edge cubed); and a
coarse grid with a node off the boundary. Anything else: one line naming the file and the
place, exit status 1 (tools/suite_inputs.py).
"""
import itertools
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
import suite_inputs as si  # noqa: E402

# numpy and scipy, imported by main() inside si.run(): a missing one is then one line
# (si.NotInstalled), not a traceback from the import at load time.
np = sp = sla = None


def import_numerics():
    global np, sp, sla
    np = si.import_module("numpy", "python3-numpy")
    sp = si.import_module("scipy.sparse", "python3-scipy")
    sla = si.import_module("scipy.sparse.linalg", "python3-scipy")

PROGRAM = "two_grid.py"
MAX_MESH_BYTES = 256 << 20
MAX_CELLS = 10**6       # coarse cells: the fine grid has 8 times as many, in Python loops
MAX_COORDINATE = 1e30   # tycho's kMaxCoordinate
DEGENERATE_VOLUME = 1e-12  # of the longest edge cubed, as tycho's mesh checks
SMESH_NAME = b"Tycho 2 Serial Mesh"
SMESH_HEADER, SMESH_CELL, SMESH_FACE, SMESH_NODE = 64, 72, 40, 24


def read_smesh(path):
    """Nodes and cells of a Tycho2 serial mesh, its header checked against the file's size
    (mesh/src/smesh_reader.cpp) and every cell's node indices against the node count."""
    data = si.read_input_bytes(path, "Tycho2 serial mesh", MAX_MESH_BYTES)
    if len(data) < SMESH_HEADER:
        raise si.Refusal(path, "header", "a 64-byte header (a Tycho2 serial mesh)", f"{len(data)} bytes")
    if data[:32] != SMESH_NAME.ljust(32, b"\0"):
        raise si.Refusal(path, "header", f"the format name \"{SMESH_NAME.decode()}\" zero-padded to 32 bytes",
                         si.quote(data[:32].rstrip(b"\0")))
    version, cells, faces, nodes = struct.unpack_from("<4Q", data, 32)
    if version != 2:
        raise si.Refusal(path, "header", "version 2 of the serial mesh format", str(version))
    size = SMESH_HEADER + SMESH_CELL * cells + SMESH_FACE * faces + SMESH_NODE * nodes
    if size != len(data):
        raise si.Refusal(path, "header", f"{size} bytes for {cells} cells, {faces} faces and {nodes} nodes "
                                         "(64 + 72 C + 40 F + 24 N)", f"{len(data)} bytes")
    if not (1 <= cells <= MAX_CELLS and nodes >= 4):
        raise si.Refusal(path, "header", f"1 to {MAX_CELLS} cells and at least 4 nodes",
                         f"{cells} cells, {nodes} nodes")
    c = np.frombuffer(data, dtype="<u8", count=9 * cells, offset=SMESH_HEADER).reshape(cells, 9)[:, 4:8]
    bad = np.argwhere(c >= nodes)
    if len(bad):
        cell, slot = bad[0]
        raise si.Refusal(path, f"cell {cell}", f"node indices below {nodes} (its node {slot + 1})", str(c[cell, slot]))
    x = np.frombuffer(data, dtype="<f8", count=3 * nodes, offset=SMESH_HEADER + SMESH_CELL * cells + SMESH_FACE * faces)
    return x.reshape(nodes, 3).copy(), c.astype(np.int64)


def section(path, lines, name, start=0):
    """The index of the line `name` ($Nodes) at or after start."""
    for k in range(start, len(lines)):
        if lines[k][1].strip() == name:
            return k
    raise si.Refusal(path, "", f"a {name} section (a Gmsh 2.2 ASCII mesh)", "none")


def fields_at(path, lines, k, what):
    if k >= len(lines):
        raise si.Refusal(path, f"line {len(lines) + 1}", what, "the end of the file")
    return lines[k][0], lines[k][1].split()


def read_msh22(path):
    """Nodes and 4-node tetrahedra of a Gmsh 2.2 ASCII mesh, every count, number and node
    reference checked."""
    lines = si.text_lines(si.read_input_text(path, "Gmsh mesh", MAX_MESH_BYTES))
    k = section(path, lines, "$MeshFormat")
    lineno, f = fields_at(path, lines, k + 1, "the mesh format line")
    if len(f) != 3 or f[0] != "2.2" or f[1] != "0":
        raise si.Refusal(path, f"line {lineno}", "'2.2 0 8', a Gmsh 2.2 ASCII mesh (gmsh M.msh -save -format msh22)",
                         si.quote(lines[k + 1][1]))
    k = section(path, lines, "$Nodes", k)
    lineno, f = fields_at(path, lines, k + 1, "the node count")
    n = si.whole(f[0] if len(f) == 1 else " ".join(f), path, f"line {lineno}", "the node count", 4, len(lines))
    ids, xyz = {}, []
    for i in range(n):
        lineno, f = fields_at(path, lines, k + 2 + i, "a node line 'id x y z'")
        place = f"line {lineno}"
        if len(f) != 4:
            raise si.Refusal(path, place, "a node line 'id x y z'", f"{len(f)} fields")
        node = si.whole(f[0], path, place, "the node id", 1)
        if node in ids:
            raise si.Refusal(path, place, f"each node id once, {node} first on line {lineno - i + ids[node]}",
                             "it again")
        ids[node] = i
        xyz.append([si.real(v, path, place, "a coordinate", -MAX_COORDINATE, MAX_COORDINATE) for v in f[1:]])
    lineno, f = fields_at(path, lines, k + 2 + n, "$EndNodes")
    if f != ["$EndNodes"]:
        raise si.Refusal(path, f"line {lineno}", f"$EndNodes after {n} nodes", si.quote(lines[k + 2 + n][1]))
    k = section(path, lines, "$Elements", k)
    lineno, f = fields_at(path, lines, k + 1, "the element count")
    m = si.whole(f[0] if len(f) == 1 else " ".join(f), path, f"line {lineno}", "the element count", 1, len(lines))
    tets = []
    for i in range(m):
        lineno, f = fields_at(path, lines, k + 2 + i, "an element line")
        place = f"line {lineno}"
        if len(f) < 3:
            raise si.Refusal(path, place, "an element line 'id type ntags tags... nodes...'", f"{len(f)} fields")
        if f[1] != "4":  # not a 4-node tetrahedron: not part of the grid
            continue
        tags = si.whole(f[2], path, place, "the tag count", 0, 100)
        if len(f) != 7 + tags:
            raise si.Refusal(path, place, f"{7 + tags} fields for a tetrahedron with {tags} tags", f"{len(f)}")
        cell = []
        for v in f[3 + tags:7 + tags]:
            node = si.whole(v, path, place, "a node id", 1)
            if node not in ids:
                raise si.Refusal(path, place, "node ids of the $Nodes section", str(node))
            cell.append(ids[node])
        tets.append(cell)
        if len(tets) > MAX_CELLS:
            raise si.Refusal(path, place, f"at most {MAX_CELLS} tetrahedra", "more")
    if not tets:
        raise si.Refusal(path, "$Elements", "at least one 4-node tetrahedron (type 4)", "none")
    return np.array(xyz, dtype=np.float64), np.array(tets, dtype=np.int64)


def check_cells(path, x, tets):
    """Finite coordinates within +-1e30, four distinct nodes a cell, no degenerate cell (tycho's
    mesh checks): what the stiffness matrix needs to be finite and the operator definite."""
    bad = np.argwhere(~(np.abs(x) <= MAX_COORDINATE))
    if len(bad):
        node = bad[0][0]
        raise si.Refusal(path, f"node {node}", "finite coordinates within +-1e30",
                         "(" + ", ".join(repr(float(v)) for v in x[node]) + ")")
    corners = x[tets]
    edges = [corners[:, j] - corners[:, i] for i, j in itertools.combinations(range(4), 2)]
    longest = np.sqrt(np.max([np.einsum("ij,ij->i", e, e) for e in edges], axis=0))
    volume = np.abs(np.einsum("ij,ij->i", edges[0], np.cross(edges[1], edges[2]))) / 6
    for c in np.argwhere(~(volume > DEGENERATE_VOLUME * longest ** 3))[:1, 0]:
        raise si.Refusal(path, f"cell {c}", f"a non-degenerate tetrahedron (volume > 1e-12 x longest edge cubed, "
                                            f"nodes {', '.join(str(v) for v in tets[c])})",
                         f"volume {volume[c]:g}, longest edge {longest[c]:g}")


def read_mesh(path):
    x, tets = read_smesh(path) if path.endswith(".smesh") else read_msh22(path)
    check_cells(path, x, tets)
    return x, tets


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
    ap = si.ArgumentParser(prog=PROGRAM, description=__doc__.split("\n")[0])
    ap.add_argument("mesh")
    ap.add_argument("--smoother", choices=["chebyshev", "sgs"], default="chebyshev")
    ap.add_argument("--lower", type=float, default=0.25, help="Chebyshev's a / lambda_max (default 0.25)")
    ap.add_argument("--iterations", type=int, default=2, help="smoothing iterations before and after (default 2)")
    o = ap.parse_args()
    import_numerics()
    if not 0 < o.lower < 1:
        raise si.UsageError(f"command line: --lower: expected a number in (0, 1), found {o.lower:g}")
    if not 1 <= o.iterations <= 100:
        raise si.UsageError(f"command line: --iterations: expected a whole number in [1, 100], found {o.iterations}")

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
    if len(free_c) < 1 or len(free_f) < 6:
        raise si.Refusal(o.mesh, "mesh", "a coarse grid with a node off the boundary (a free node; the fine grid "
                                         "at least 6, for the 4 eigenvalues)",
                         f"{len(free_c)} free coarse nodes, {len(free_f)} free fine nodes")
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
    si.run(PROGRAM, main)
