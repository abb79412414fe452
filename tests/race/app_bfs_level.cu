//--blockDim=32 --gridDim=2
// One level of a SHOC-style BFS (paper 003 §6.3): frontier nodes relax their neighbours'
// cost and raise a global "changed" flag, all with plain stores.
__global__ void bfs(const int *rowptr, const int *cols, int *cost, const int *frontier,
                    int *next, int *over, int n) {
  int v = blockIdx.x * blockDim.x + threadIdx.x;
  if (v < n && frontier[v]) {
    for (int e = rowptr[v]; e < rowptr[v + 1]; ++e) {
      int u = cols[e];
      if (cost[u] < 0) {
        cost[u] = cost[v] + 1; // @WRITE
        next[u] = 1;
        *over = 1; // @OVER
      }
    }
  }
}
