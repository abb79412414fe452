// spmv.cu: y = A x for the sparse matrix of a weighted CSR graph (.egr: row v holds
// weight w at column u for every edge v -> u), x[u] = u % 7 + 1, one thread per row
// (grid-stride). Usage: spmv GRAPH.egr [threads_per_block [num_blocks]]; checks y against
// a CPU product.
// Variants (-D): OOB_INDEX (the row loop runs to `e <= nindex[v + 1]`: the last row reads
// past the column and weight arrays).
#include "../common/util.h"

__global__ void spmv(int n, const int *nindex, const int *nlist, const int *wt, const int *x,
                     int *y) {
  for (int v = blockIdx.x * blockDim.x + threadIdx.x; v < n; v += gridDim.x * blockDim.x) {
    int sum = 0;
#ifdef OOB_INDEX
    for (int e = nindex[v]; e <= nindex[v + 1]; e++)
#else
    for (int e = nindex[v]; e < nindex[v + 1]; e++)
#endif
      sum += wt[e] * x[nlist[e]]; // @ROW
    y[v] = sum;
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
  int *x = (int *)malloc(sizeof(int) * n), *y = (int *)malloc(sizeof(int) * n);
  int *want = (int *)malloc(sizeof(int) * n);
  for (int u = 0; u < n; u++) x[u] = u % 7 + 1;
  int *d_nindex = to_device(g.nindex, n + 1), *d_nlist = to_device(g.nlist, g.edges);
  int *d_wt = to_device(g.eweight, g.edges), *d_x = to_device(x, n), *d_y;
  CUDA_CHECK(cudaMalloc((void **)&d_y, sizeof(int) * n));
  spmv<<<blocks, tpb>>>(n, d_nindex, d_nlist, d_wt, d_x, d_y);
  LAUNCH_CHECK();
  CUDA_CHECK(cudaMemcpy(y, d_y, sizeof(int) * n, cudaMemcpyDeviceToHost));
  for (int v = 0; v < n; v++) {
    want[v] = 0;
    for (int e = g.nindex[v]; e < g.nindex[v + 1]; e++) want[v] += g.eweight[e] * x[g.nlist[e]];
  }
  int rc = verdict_ints("y", y, want, n);
  CUDA_CHECK(cudaFree(d_nindex));
  CUDA_CHECK(cudaFree(d_nlist));
  CUDA_CHECK(cudaFree(d_wt));
  CUDA_CHECK(cudaFree(d_x));
  CUDA_CHECK(cudaFree(d_y));
  free(x);
  free(y);
  free(want);
  return rc;
}
