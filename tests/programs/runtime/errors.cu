// CUDA's error codes for bad launch configurations and bad calls, as the program sees them
// through cudaGetLastError/cudaGetErrorName/cudaGetErrorString; the device properties.
#include <cstdio>

__global__ void k(int *a) { a[threadIdx.x] = 1; }

static void show(const char *what) {
  cudaError_t e = cudaGetLastError();
  printf("%s: %s (%s)\n", what, cudaGetErrorName(e), cudaGetErrorString(e));
}

int main() {
  int *d;
  cudaMalloc(&d, 4096);
  k<<<1, 2048>>>(d);
  show("block of 2048 threads");
  k<<<0, 32>>>(d);
  show("empty grid");
  k<<<1, 32, 1 << 20>>>(d);
  show("1 MiB of shared memory");
  k<<<1, 32>>>(d);
  show("good launch");
  int x;
  printf("cudaFree of a host pointer: %s\n", cudaGetErrorName(cudaFree(&x)));
  cudaGetLastError();
  int n = 0;
  cudaGetDeviceCount(&n);
  cudaDeviceProp p;
  cudaGetDeviceProperties(&p, 0);
  printf("devices %d warp %d max threads %d shared %zu\n", n, p.warpSize, p.maxThreadsPerBlock,
         p.sharedMemPerBlock);
  printf("set device 3: %s\n", cudaGetErrorName(cudaSetDevice(3)));
  cudaFree(d);
  return 0;
}
