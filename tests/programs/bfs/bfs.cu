// bfs.cu: level-synchronous breadth-first search over a CSR graph (.egr), topology-driven
// (every vertex checks whether it is on the current level), double-buffered: a step kernel
// reads `level` and lowers `next` with atomicMin, a commit kernel copies `next` into `level`.
// Usage: bfs GRAPH.egr [threads_per_block [num_blocks]]; source vertex 0; checks the levels
// against a CPU breadth-first search.
// Variants (-D): MISSING_ATOMIC (plain store to next[u]), WRONG_SCOPE (the "changed" flag
// raised with a block-scoped atomic from every block), OOB_INIT (init's guard is `<=`).
#include "../common/util.h"

#define INF 0x3fffffff

__global__ void bfs_init(int *level, int *next, int n, int src) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef OOB_INIT
  if (v <= n)
#else
  if (v < n)
#endif
    level[v] = next[v] = (v == src) ? 0 : INF; // @INIT
}

__global__ void bfs_step(int n, const int *nindex, const int *nlist, const int *level,
                         int *next, int cur, int *changed) {
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    if (level[v] != cur)
      continue;
    for (int e = nindex[v]; e < nindex[v + 1]; e++) {
      int u = nlist[e];
      if (level[u] == INF) {
#ifdef MISSING_ATOMIC
        next[u] = cur + 1; // @NEXT_PLAIN
#else
        atomicMin(&next[u], cur + 1); // @NEXT
#endif
#ifdef WRONG_SCOPE
        atomicExch_block(changed, 1); // @CHANGED_BLOCK
#else
        atomicExch(changed, 1); // @CHANGED
#endif
      }
    }
  }
}

__global__ void bfs_commit(int n, int *level, const int *next) {
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x)
    level[v] = next[v];
}

static void bfs_cpu(const Graph &g, int src, int *level) {
  int *queue = (int *)malloc(sizeof(int) * (size_t)g.nodes);
  for (int v = 0; v < g.nodes; v++) level[v] = INF;
  int head = 0, tail = 0;
  level[src] = 0;
  queue[tail++] = src;
  while (head < tail) {
    int v = queue[head++];
    for (int e = g.nindex[v]; e < g.nindex[v + 1]; e++) {
      int u = g.nlist[e];
      if (level[u] == INF) {
        level[u] = level[v] + 1;
        queue[tail++] = u;
      }
    }
  }
  free(queue);
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s GRAPH.egr [threads_per_block [num_blocks]]\n", argv[0]);
    return 2;
  }
  Graph g = read_graph(argv[1]);
  int tpb = arg_int(argc, argv, 2, 64), blocks = arg_int(argc, argv, 3, 2);
  int n = g.nodes;
  int *d_nindex = to_device(g.nindex, n + 1), *d_nlist = to_device(g.nlist, g.edges);
  int *d_level, *d_next, *d_changed;
  CUDA_CHECK(cudaMalloc((void **)&d_level, sizeof(int) * n));
  CUDA_CHECK(cudaMalloc((void **)&d_next, sizeof(int) * n));
  CUDA_CHECK(cudaMalloc((void **)&d_changed, sizeof(int)));

  bfs_init<<<(n + tpb - 1) / tpb, tpb>>>(d_level, d_next, n, 0);
  LAUNCH_CHECK();
  int changed = 1, cur = 0;
  while (changed) {
    changed = 0;
    CUDA_CHECK(cudaMemcpy(d_changed, &changed, sizeof(int), cudaMemcpyHostToDevice));
    bfs_step<<<blocks, tpb>>>(n, d_nindex, d_nlist, d_level, d_next, cur, d_changed);
    LAUNCH_CHECK();
    bfs_commit<<<blocks, tpb>>>(n, d_level, d_next);
    LAUNCH_CHECK();
    CUDA_CHECK(cudaMemcpy(&changed, d_changed, sizeof(int), cudaMemcpyDeviceToHost));
    cur++;
  }

  int *got = (int *)malloc(sizeof(int) * n), *want = (int *)malloc(sizeof(int) * n);
  CUDA_CHECK(cudaMemcpy(got, d_level, sizeof(int) * n, cudaMemcpyDeviceToHost));
  bfs_cpu(g, 0, want);
  int rc = verdict_ints("level", got, want, n);
  printf("levels: %d\n", cur);
  CUDA_CHECK(cudaFree(d_nindex));
  CUDA_CHECK(cudaFree(d_nlist));
  CUDA_CHECK(cudaFree(d_level));
  CUDA_CHECK(cudaFree(d_next));
  CUDA_CHECK(cudaFree(d_changed));
  free(got);
  free(want);
  return rc;
}
