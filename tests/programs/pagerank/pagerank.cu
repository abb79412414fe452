// pagerank.cu: PageRank-like power iteration (damping 0.85, 10 iterations) over a
// symmetric CSR graph (.egr). Push style: every vertex adds rank/degree to its neighbours'
// `next` with a float atomicAdd; a finish kernel (one thread per vertex) forms the new
// rank and clears `next`. Usage: pagerank GRAPH.egr [threads_per_block [num_blocks]];
// checks the ranks against a CPU power iteration (relative tolerance 1e-4: the atomics add
// in another order).
// Variants (-D): MISSING_ATOMIC (`next[u] += c`), PULL (each vertex sums its neighbours'
// contributions into its own slot: race-free without atomics), NO_BOUNDS (finish has no
// `v < n` guard).
#include "../common/util.h"
#include <math.h>

#define DAMP 0.85f
#define ITERS 10

__global__ void pr_push(int n, const int *nindex, const int *nlist, const float *rank,
                        float *next) {
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
#ifdef PULL
    float sum = 0.0f;
    for (int e = nindex[v]; e < nindex[v + 1]; e++) {
      int u = nlist[e];
      sum += rank[u] / (float)(nindex[u + 1] - nindex[u]);
    }
    next[v] = sum; // @PULL
#else
    int deg = nindex[v + 1] - nindex[v];
    if (deg == 0)
      continue;
    float c = rank[v] / (float)deg;
    for (int e = nindex[v]; e < nindex[v + 1]; e++) {
#ifdef MISSING_ATOMIC
      next[nlist[e]] += c; // @PUSH_PLAIN
#else
      atomicAdd(&next[nlist[e]], c); // @PUSH
#endif
    }
#endif
  }
}

__global__ void pr_finish(int n, float *rank, float *next) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
#ifndef NO_BOUNDS
  if (v >= n)
    return;
#endif
  rank[v] = (1.0f - DAMP) / (float)n + DAMP * next[v]; next[v] = 0.0f; // @FINISH
}

static void pr_cpu(const Graph &g, float *rank) {
  int n = g.nodes;
  float *next = (float *)calloc((size_t)n, sizeof(float));
  for (int v = 0; v < n; v++) rank[v] = 1.0f / (float)n;
  for (int it = 0; it < ITERS; it++) {
    for (int v = 0; v < n; v++) {
      int deg = g.nindex[v + 1] - g.nindex[v];
      for (int e = g.nindex[v]; e < g.nindex[v + 1]; e++) next[g.nlist[e]] += rank[v] / (float)deg;
    }
    for (int v = 0; v < n; v++) {
      rank[v] = (1.0f - DAMP) / (float)n + DAMP * next[v];
      next[v] = 0.0f;
    }
  }
  free(next);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s GRAPH.egr [threads_per_block [num_blocks]]\n", argv[0]);
    return 2;
  }
  Graph g = read_graph(argv[1]);
  int tpb = arg_int(argc, argv, 2, 64), blocks = arg_int(argc, argv, 3, 2);
  int n = g.nodes;
  float *h = (float *)malloc(sizeof(float) * n), *want = (float *)malloc(sizeof(float) * n);
  for (int v = 0; v < n; v++) h[v] = 1.0f / (float)n;
  int *d_nindex = to_device(g.nindex, n + 1), *d_nlist = to_device(g.nlist, g.edges);
  float *d_rank, *d_next;
  CUDA_CHECK(cudaMalloc((void **)&d_rank, sizeof(float) * n));
  CUDA_CHECK(cudaMalloc((void **)&d_next, sizeof(float) * n));
  CUDA_CHECK(cudaMemcpy(d_rank, h, sizeof(float) * n, cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemset(d_next, 0, sizeof(float) * n));
  for (int it = 0; it < ITERS; it++) {
    pr_push<<<blocks, tpb>>>(n, d_nindex, d_nlist, d_rank, d_next);
    LAUNCH_CHECK();
    pr_finish<<<(n + tpb - 1) / tpb, tpb>>>(n, d_rank, d_next);
    LAUNCH_CHECK();
  }
  CUDA_CHECK(cudaMemcpy(h, d_rank, sizeof(float) * n, cudaMemcpyDeviceToHost));
  pr_cpu(g, want);
  int rc = 0;
  for (int v = 0; v < n && rc == 0; v++) {
    if (fabsf(h[v] - want[v]) > 1e-4f * want[v]) {
      printf("FAIL: rank[%d] = %g, expected %g\n", v, h[v], want[v]);
      rc = 1;
    }
  }
  if (rc == 0) printf("PASS: rank (%d values)\n", n);
  CUDA_CHECK(cudaFree(d_nindex));
  CUDA_CHECK(cudaFree(d_nlist));
  CUDA_CHECK(cudaFree(d_rank));
  CUDA_CHECK(cudaFree(d_next));
  free(h);
  free(want);
  return rc;
}
