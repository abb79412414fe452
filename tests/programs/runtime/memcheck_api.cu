// More memcheck findings planted by design, in the order a GPU lets one program show both:
// first a cudaMemcpy that reads 8 bytes past the end of a 64-byte allocation (an invalid
// cudaMemcpy: it fails with cudaErrorInvalidValue, which is not sticky, so the program
// goes on), then a 4-byte read at an address 1 byte into an allocation (misaligned, at
// the line marked @misaligned). On a GPU the misaligned read fails the launch with
// cudaErrorMisalignedAddress (716), which is sticky (CUDA Runtime API: "any further CUDA
// work will return the same error"): the synchronisation and the next copy return it, and
// the program ends there.
#include <cstdio>

__global__ void peek(const char *p, int *out) {
  out[0] = *(const int *)(p + 1); // @misaligned
}

int main() {
  char *p;
  int *out, h[18];
  cudaMalloc(&p, 64);
  cudaMalloc(&out, 64);
  cudaMemset(p, 0, 64);
  cudaMemset(out, 0, 64);
  cudaError_t e = cudaMemcpy(h, out, 72, cudaMemcpyDeviceToHost);
  printf("copy past the end: %s\n", cudaGetErrorName(e));
  peek<<<1, 1>>>(p, out);
  printf("synchronize: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  e = cudaMemcpy(h, out, 64, cudaMemcpyDeviceToHost);
  printf("next copy: %s\n", cudaGetErrorName(e));
  cudaFree(p);
  cudaFree(out);
  return 0;
}
