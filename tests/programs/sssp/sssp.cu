// sssp.cu: single-source shortest paths (Bellman-Ford, topology-driven) over a weighted CSR
// graph (.egr), double-buffered: a relax kernel reads `dist` and lowers `ndist` with
// atomicMin, a commit kernel (one thread per vertex) copies `ndist` into `dist`; repeated
// until nothing changes. Usage: sssp GRAPH.egr [threads_per_block [num_blocks]]; source 0;
// checks the distances against a CPU Bellman-Ford.
// Variants (-D): MISSING_ATOMIC (test-and-store instead of atomicMin), WRONG_SCOPE (the
// "changed" flag raised with a block-scoped atomic), NO_BOUNDS (commit has no `v < n`
// guard; its grid is rounded up to whole blocks).
#include "../common/util.h"

#define INF 0x3fffffff

__global__ void sssp_relax(int n, const int *nindex, const int *nlist, const int *wt,
                           const int *dist, int *ndist, int *changed) {
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    int dv = dist[v];
    if (dv == INF)
      continue;
    for (int e = nindex[v]; e < nindex[v + 1]; e++) {
      int u = nlist[e];
      int nd = dv + wt[e];
#ifdef MISSING_ATOMIC
      if (nd < ndist[u]) { ndist[u] = nd; atomicExch(changed, 1); } // @RELAX_PLAIN
#else
      if (atomicMin(&ndist[u], nd) > nd) { // @RELAX
#ifdef WRONG_SCOPE
        atomicExch_block(changed, 1); // @CHANGED_BLOCK
#else
        atomicExch(changed, 1); // @CHANGED
#endif
      }
#endif
    }
  }
}

__global__ void sssp_commit(int n, int *dist, const int *ndist) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef NO_BOUNDS
  dist[v] = ndist[v]; // @COMMIT_NOCHECK
#else
  if (v < n)
    dist[v] = ndist[v]; // @COMMIT
#endif
}

static void sssp_cpu(const Graph &g, int src, int *dist) {
  for (int v = 0; v < g.nodes; v++) dist[v] = INF;
  dist[src] = 0;
  for (int changed = 1; changed;) {
    changed = 0;
    for (int v = 0; v < g.nodes; v++) {
      if (dist[v] == INF) continue;
      for (int e = g.nindex[v]; e < g.nindex[v + 1]; e++) {
        int u = g.nlist[e];
        if (dist[v] + g.eweight[e] < dist[u]) {
          dist[u] = dist[v] + g.eweight[e];
          changed = 1;
        }
      }
    }
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s GRAPH.egr [threads_per_block [num_blocks]]\n", argv[0]);
    return 2;
  }
  Graph g = read_graph(argv[1]);
  int tpb = arg_int(argc, argv, 2, 64), blocks = arg_int(argc, argv, 3, 2);
  int n = g.nodes;
  int *h_dist = (int *)malloc(sizeof(int) * n);
  for (int v = 0; v < n; v++) h_dist[v] = v == 0 ? 0 : INF;
  int *d_nindex = to_device(g.nindex, n + 1), *d_nlist = to_device(g.nlist, g.edges);
  int *d_wt = to_device(g.eweight, g.edges);
  int *d_dist = to_device(h_dist, n), *d_ndist = to_device(h_dist, n);
  int *d_changed;
  CUDA_CHECK(cudaMalloc((void **)&d_changed, sizeof(int)));
  int rounds = 0;
  for (int changed = 1; changed; rounds++) {
    changed = 0;
    CUDA_CHECK(cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice));
    sssp_relax<<<blocks, tpb>>>(n, d_nindex, d_nlist, d_wt, d_dist, d_ndist, d_changed);
    LAUNCH_CHECK();
    sssp_commit<<<(n + tpb - 1) / tpb, tpb>>>(n, d_dist, d_ndist);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
  }
  int *want = (int *)malloc(sizeof(int) * n);
  CUDA_CHECK(cudaMemcpy(h_dist, d_dist, sizeof(int) * n, cudaMemcpyDeviceToHost));
  sssp_cpu(g, 0, want);
  int rc = verdict_ints("dist", h_dist, want, n);
  printf("rounds: %d\n", rounds);
  CUDA_CHECK(cudaFree(d_nindex));
  CUDA_CHECK(cudaFree(d_nlist));
  CUDA_CHECK(cudaFree(d_wt));
  CUDA_CHECK(cudaFree(d_dist));
  CUDA_CHECK(cudaFree(d_ndist));
  CUDA_CHECK(cudaFree(d_changed));
  free(h_dist);
  free(want);
  return rc;
}
