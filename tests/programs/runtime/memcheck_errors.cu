// memcheck findings planted by design: thread 64 of block 0 writes one int past a 64-int
// allocation (line @oob; the address is 0 bytes after the allocation's 256 bytes); a read of
// device memory never written (line @uninit, with --initcheck); cudaFree of a pointer freed
// already (invalid cudaFree); a 128-byte allocation never freed (a leak).
#include <cstdio>

__global__ void fill(int *a) {
  a[threadIdx.x] = 1; // @oob
}

__global__ void copy(const int *src, int *dst) {
  dst[threadIdx.x] = src[threadIdx.x]; // @uninit
}

int main() {
  int *a, *b, *c, *leak;
  cudaMalloc(&a, 64 * sizeof(int));
  cudaMalloc(&b, 64 * sizeof(int));
  cudaMalloc(&c, 64 * sizeof(int));
  cudaMalloc(&leak, 128);
  fill<<<1, 65>>>(a);
  copy<<<1, 32>>>(b, c);
  cudaDeviceSynchronize();
  cudaFree(a);
  cudaFree(a);
  cudaFree(b);
  cudaFree(c);
  printf("done\n");
  return 0;
}
