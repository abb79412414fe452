// A planted race: every thread of two blocks increments one global counter without an
// atomic (read and write on the marked line), in two launches; the race-free variant
// (-DFIXED) uses atomicAdd. Expected (from the design): races only between the marked line
// and itself, shown by both launches; none with -DFIXED.
#include <cstdio>

__global__ void count(int *c) {
#ifdef FIXED
  atomicAdd(c, 1);
#else
  c[0] = c[0] + 1; // @race
#endif
}

int main() {
  int *c, h = 0;
  cudaMalloc(&c, sizeof(int));
  cudaMemset(c, 0, sizeof(int));
  count<<<2, 64>>>(c);
  count<<<2, 64>>>(c);
  cudaMemcpy(&h, c, sizeof h, cudaMemcpyDeviceToHost);
  printf("counter %s\n", h == 256 ? "256" : "lost updates");
  cudaFree(c);
  return 0;
}
