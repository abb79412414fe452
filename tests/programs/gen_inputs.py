#!/usr/bin/env python3
"""Writes the inputs of the whole-program suite (tests/programs/inputs/): CSR graphs in the
.egr layout (little-endian int32: nodes, edges, nindex[nodes+1], nlist[edges], eweight[edges])
and integer arrays as text (count, then values). Deterministic: the committed files are this
script's output (run it from anywhere; it writes next to itself)."""
import os
import random
import struct

HERE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "inputs")


def write_egr(name, n, edges, weights=None):
    """edges: list of (u, v) directed pairs (symmetric graphs list both directions)."""
    edges = sorted(set(edges))
    adj = [[] for _ in range(n)]
    for u, v in edges:
        adj[u].append(v)
    nindex, nlist = [0], []
    for u in range(n):
        nlist.extend(sorted(adj[u]))
        nindex.append(len(nlist))
    if weights is None:
        w = [1] * len(nlist)
    else:
        w = [weights(u, v) for u in range(n) for v in sorted(adj[u])]
    with open(os.path.join(HERE, name), "wb") as f:
        f.write(struct.pack("<2i", n, len(nlist)))
        f.write(struct.pack("<%di" % len(nindex), *nindex))
        f.write(struct.pack("<%di" % len(nlist), *nlist))
        f.write(struct.pack("<%di" % len(w), *w))


def sym(pairs):
    out = []
    for u, v in pairs:
        if u != v:
            out += [(u, v), (v, u)]
    return out


def weight_of(u, v):
    # symmetric, deterministic, 1..9
    a, b = min(u, v), max(u, v)
    return 1 + (a * 7 + b * 13) % 9


def tiny():
    # 8 nodes. From source 0: level 1 = {1, 5}; node 6 is a neighbour of both 1 and 5, so
    # with 4 threads per block it is reached from two blocks in one step. Triangles:
    # (0,1,5), (1,5,6), (2,3,4).
    pairs = [(0, 1), (0, 5), (1, 5), (1, 6), (5, 6), (1, 2), (2, 3), (3, 4), (2, 4), (6, 7)]
    write_egr("tiny.egr", 8, sym(pairs), weight_of)


def path():
    # a chain of 40 nodes: every node is reached from exactly one frontier node.
    n = 40
    write_egr("path.egr", n, sym([(i, i + 1) for i in range(n - 1)]), weight_of)


def dag():
    # 6 layers of 8 nodes, every node points to 3 nodes of the next layer (directed, acyclic).
    rnd = random.Random(26)
    layers, width = 6, 8
    pairs = []
    for layer in range(layers - 1):
        for i in range(width):
            u = layer * width + i
            for v in rnd.sample(range(width), 3):
                pairs.append((u, (layer + 1) * width + v))
    write_egr("dag.egr", layers * width, pairs, weight_of)


def powerlaw():
    # preferential attachment (Barabasi-Albert, m = 3) on 160 nodes: a few hubs with many
    # neighbours, most nodes with 3 to 5.
    rnd = random.Random(5)
    n, m = 160, 3
    pairs = [(0, 1), (1, 2), (0, 2)]
    ends = [0, 1, 1, 2, 0, 2]
    for u in range(3, n):
        chosen = set()
        while len(chosen) < m:
            chosen.add(rnd.choice(ends))
        for v in sorted(chosen):
            pairs.append((u, v))
            ends += [u, v]
    write_egr("powerlaw.egr", n, sym(pairs), weight_of)


def ints(name, n, lo, hi, seed, extra=()):
    rnd = random.Random(seed)
    vals = [rnd.randint(lo, hi) for _ in range(n)]
    for i, v in extra:
        vals[i] = v
    with open(os.path.join(HERE, name), "w") as f:
        f.write("%d\n" % n)
        for i in range(0, n, 16):
            f.write(" ".join(str(v) for v in vals[i:i + 16]) + "\n")


def main():
    os.makedirs(HERE, exist_ok=True)
    tiny()
    path()
    dag()
    powerlaw()
    ints("ints_1000.txt", 1000, 0, 99, 1)
    ints("ints_256.txt", 256, 0, 63, 2)
    # histogram input whose values all lie in 0..63 except one 64 (index 700)
    ints("hist_outlier.txt", 1000, 0, 63, 3, extra=[(700, 64)])
    ints("hist_1000.txt", 1000, 0, 63, 3)
    ints("keys_200.txt", 200, 1, 100000, 4)


if __name__ == "__main__":
    main()
