// tc.cu: triangle counting over a symmetric CSR graph with sorted neighbour lists (.egr):
// one thread per vertex u counts, for every neighbour v > u, the common neighbours w > v
// (a merge of the two sorted lists), stores its own count in tri[u] and adds it to a global
// total. Usage: tc GRAPH.egr [threads_per_block]; the grid covers the vertices; checks the
// total and the per-vertex counts against a CPU count.
// Variants (-D): MISSING_ATOMIC (`*total += c`), WRONG_SCOPE (atomicAdd_block on the
// total, one word shared by all blocks), NO_BOUNDS (no `u < n` guard).
#include "../common/util.h"

__global__ void tc_count(int n, const int *nindex, const int *nlist, int *tri, int *total) {
  int u = blockIdx.x * blockDim.x + threadIdx.x;
#ifndef NO_BOUNDS
  if (u >= n)
    return;
#endif
  int ubeg = nindex[u], uend = nindex[u + 1]; // @ROW
  int c = 0;
  for (int e = ubeg; e < uend; e++) {
    int v = nlist[e];
    if (v <= u)
      continue;
    int i = ubeg, j = nindex[v], jend = nindex[v + 1];
    while (i < uend && j < jend) {
      int a = nlist[i], b = nlist[j];
      if (a == b && a > v) c++;
      if (a <= b) i++;
      if (b <= a) j++;
    }
  }
  tri[u] = c; // @TRI
  if (c > 0) {
#ifdef MISSING_ATOMIC
    *total += c; // @TOTAL_PLAIN
#elif defined(WRONG_SCOPE)
    atomicAdd_block(total, c); // @TOTAL_BLOCK
#else
    atomicAdd(total, c); // @TOTAL
#endif
  }
}

static int tc_cpu(const Graph &g, int *tri) {
  int total = 0;
  for (int u = 0; u < g.nodes; u++) {
    tri[u] = 0;
    for (int e = g.nindex[u]; e < g.nindex[u + 1]; e++) {
      int v = g.nlist[e];
      if (v <= u) continue;
      for (int f = g.nindex[v]; f < g.nindex[v + 1]; f++) {
        int w = g.nlist[f];
        if (w <= v) continue;
        for (int h = g.nindex[u]; h < g.nindex[u + 1]; h++)
          if (g.nlist[h] == w) tri[u]++;
      }
    }
    total += tri[u];
  }
  return total;
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s GRAPH.egr [threads_per_block]\n", argv[0]);
    return 2;
  }
  Graph g = read_graph(argv[1]);
  int tpb = arg_int(argc, argv, 2, 64);
  int n = g.nodes;
  int *d_nindex = to_device(g.nindex, n + 1), *d_nlist = to_device(g.nlist, g.edges);
  int *d_tri, *d_total;
  CUDA_CHECK(cudaMalloc((void **)&d_tri, sizeof(int) * n));
  CUDA_CHECK(cudaMalloc((void **)&d_total, sizeof(int)));
  CUDA_CHECK(cudaMemset(d_total, 0, sizeof(int)));
  tc_count<<<(n + tpb - 1) / tpb, tpb>>>(n, d_nindex, d_nlist, d_tri, d_total);
  LAUNCH_CHECK();
  int total = 0;
  int *tri = (int *)malloc(sizeof(int) * n), *want = (int *)malloc(sizeof(int) * n);
  CUDA_CHECK(cudaMemcpy(&total, d_total, sizeof(int), cudaMemcpyDeviceToHost));
  CUDA_CHECK(cudaMemcpy(tri, d_tri, sizeof(int) * n, cudaMemcpyDeviceToHost));
  int want_total = tc_cpu(g, want);
  int rc = verdict_ints("tri", tri, want, n);
  if (rc == 0 && total != want_total) {
    printf("FAIL: total %d, expected %d\n", total, want_total);
    rc = 1;
  } else if (rc == 0) {
    printf("PASS: %d triangles\n", total);
  }
  CUDA_CHECK(cudaFree(d_nindex));
  CUDA_CHECK(cudaFree(d_nlist));
  CUDA_CHECK(cudaFree(d_tri));
  CUDA_CHECK(cudaFree(d_total));
  free(tri);
  free(want);
  return rc;
}
