// degree.cu: in-degrees of a directed CSR graph (.egr), one thread per edge (grid-stride)
// adding 1 to its target's count with atomicAdd. Usage: degree GRAPH.egr
// [threads_per_block [num_blocks]]; checks the counts against the CPU.
// Variants (-D): MISSING_ATOMIC (`deg[v] += 1`), WRONG_SCOPE (atomicAdd_block: edges of
// two blocks may share a target).
#include "../common/util.h"

__global__ void indegree(int m, const int *nlist, int *deg) {
  for (int e = blockIdx.x * blockDim.x + threadIdx.x; e < m; e += gridDim.x * blockDim.x) {
    int v = nlist[e];
#ifdef MISSING_ATOMIC
    deg[v] += 1; // @DEG_PLAIN
#elif defined(WRONG_SCOPE)
    atomicAdd_block(&deg[v], 1); // @DEG_BLOCK
#else
    atomicAdd(&deg[v], 1); // @DEG
#endif
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
  int *d_nlist = to_device(g.nlist, g.edges), *d_deg;
  CUDA_CHECK(cudaMalloc((void **)&d_deg, sizeof(int) * n));
  CUDA_CHECK(cudaMemset(d_deg, 0, sizeof(int) * n));
  indegree<<<blocks, tpb>>>(g.edges, d_nlist, d_deg);
  LAUNCH_CHECK();
  int *got = (int *)malloc(sizeof(int) * n), *want = (int *)calloc((size_t)n, sizeof(int));
  CUDA_CHECK(cudaMemcpy(got, d_deg, sizeof(int) * n, cudaMemcpyDeviceToHost));
  for (int e = 0; e < g.edges; e++) want[g.nlist[e]]++;
  int rc = verdict_ints("indegree", got, want, n);
  CUDA_CHECK(cudaFree(d_nlist));
  CUDA_CHECK(cudaFree(d_deg));
  free(got);
  free(want);
  return rc;
}
