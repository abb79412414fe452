// A launch that never ends: every thread waits for a flag nobody sets. Under --timeout the
// program is stopped (exit 3) and the report of the launch before it is kept.
#include <cstdio>

__global__ void first(int *f) { f[1] = 1; }

__global__ void wait_forever(volatile int *f) {
  while (f[0] == 0) {
  }
}

int main() {
  int *f;
  cudaMalloc(&f, 2 * sizeof(int));
  cudaMemset(f, 0, 2 * sizeof(int));
  first<<<1, 1>>>(f);
  printf("first done\n");
  fflush(stdout);
  wait_forever<<<1, 32>>>(f);
  cudaDeviceSynchronize();
  printf("never\n");
  return 0;
}
