// Issue 26 item 3: a block-scoped atomic (atomicAdd_block) on one global word from two
// blocks. The scoped definition (weft race's default) reports it as an atomic-scope race on
// the marked line; BARRACUDA's original definition (--definition barracuda) does not.
#include <cstdio>

__global__ void add(int *c) {
  atomicAdd_block(c, 1); // @scope
}

int main() {
  int *c, h = 0;
  cudaMalloc(&c, sizeof(int));
  cudaMemset(c, 0, sizeof(int));
  add<<<2, 32>>>(c);
  cudaMemcpy(&h, c, sizeof h, cudaMemcpyDeviceToHost);
  printf("counter %d\n", h);
  cudaFree(c);
  return 0;
}
