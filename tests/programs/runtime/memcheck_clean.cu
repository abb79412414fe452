// The same kernels as memcheck_errors.cu without the planted errors: in-bounds writes,
// initialised reads, every allocation freed once. Expected: no memcheck error.
#include <cstdio>

__global__ void fill(int *a) { a[threadIdx.x] = 1; }

__global__ void copy(const int *src, int *dst) { dst[threadIdx.x] = src[threadIdx.x]; }

int main() {
  int *a, *b;
  cudaMalloc(&a, 64 * sizeof(int));
  cudaMalloc(&b, 64 * sizeof(int));
  fill<<<1, 64>>>(a);
  copy<<<1, 64>>>(a, b);
  cudaFree(a);
  cudaFree(b);
  printf("done\n");
  return 0;
}
