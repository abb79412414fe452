//xfail:RACE
//--blockDim=64 --gridDim=1
// paper 002 §5: BFS kernels are race-free only under quantified preconditions on the graph (frontier and visited sets disjoint); expected false positive
__global__ void bfs(const int *start, const int *edges, const int *mask, int *cost, unsigned ne) {
  unsigned t = threadIdx.x;
  if (mask[t]) {
    for (int e = start[t]; e < start[t + 1]; e++) {
      int id = edges[e];
      cost[id] = cost[t] + 1;
    }
  }
}
