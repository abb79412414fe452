// An atomic past the end of a __shared__ array (issue 26): 5 threads, 4 ints, so thread 4
// adds at byte offset 16 of a 16-byte block. memcheck must name it as compute-sanitizer
// does (an invalid __shared__ atomic with its line, thread, block and address), once.
#include <cstdio>

__global__ void bump(int *o) {
  __shared__ int s[4];
  if (threadIdx.x < 4) s[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(&s[threadIdx.x], 1); // @ATOM
  __syncthreads();
  if (threadIdx.x < 4) o[threadIdx.x] = s[threadIdx.x];
}

int main() {
  int *o;
  cudaMalloc(&o, 4 * sizeof(int));
  bump<<<1, 5>>>(o);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaFree(o);
  return 0;
}
