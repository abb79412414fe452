// __CUDA_ARCH__ is defined when the device side is compiled and not on the host side (CUDA
// C++ Programming Guide, "__CUDA_ARCH__"): a __host__ __device__ function tells the two
// apart, so the host's call returns 0 and the kernel's 1. Expected: "host 0 device 1".
#include <cstdio>

__host__ __device__ int on_device() {
#ifdef __CUDA_ARCH__
  return 1;
#else
  return 0;
#endif
}

__global__ void k(int *o) { o[0] = on_device(); }

int main() {
  int *d, h = -1;
  cudaMalloc(&d, sizeof(int));
  k<<<1, 1>>>(d);
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("host %d device %d\n", on_device(), h);
  cudaFree(d);
  return 0;
}
