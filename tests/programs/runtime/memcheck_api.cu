// More memcheck findings planted by design: a 4-byte read at an address 1 byte into an
// allocation (misaligned, line @misaligned), and a cudaMemcpy that reads 8 bytes past the
// end of a 64-byte allocation (an invalid cudaMemcpy, which fails with cudaErrorInvalidValue).
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
  peek<<<1, 1>>>(p, out);
  cudaDeviceSynchronize();
  cudaError_t e = cudaMemcpy(h, out, 72, cudaMemcpyDeviceToHost);
  printf("copy past the end: %s\n", cudaGetErrorName(e));
  cudaFree(p);
  cudaFree(out);
  return 0;
}
