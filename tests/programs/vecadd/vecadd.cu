// vecadd.cu: c = a + b for integer arrays, a read from a file and b its reverse, one thread
// per element. Usage: vecadd INTS.txt [threads_per_block]; the grid is rounded up to whole
// blocks; checks c against a CPU sum.
// Variants (-D): NO_GUARD (no `i < n` check: only arrays that are not a multiple of the
// block size are overrun), OFF_BY_ONE (the check is `i <= n`), LEAK (`c` is never freed).
#include "../common/util.h"

__global__ void vecadd(const int *a, const int *b, int *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if defined(NO_GUARD)
  c[i] = a[i] + b[i]; // @ADD_NOGUARD
#elif defined(OFF_BY_ONE)
  if (i <= n)
    c[i] = a[i] + b[i]; // @ADD_OFFBYONE
#else
  if (i < n)
    c[i] = a[i] + b[i]; // @ADD
#endif
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s INTS.txt [threads_per_block]\n", argv[0]);
    return 2;
  }
  int n = 0;
  int *a = read_ints(argv[1], &n);
  int tpb = arg_int(argc, argv, 2, 128);
  int *b = (int *)malloc(sizeof(int) * n), *c = (int *)malloc(sizeof(int) * n);
  for (int i = 0; i < n; i++) b[i] = a[n - 1 - i];
  int *d_a = to_device(a, n), *d_b = to_device(b, n), *d_c;
  CUDA_CHECK(cudaMalloc((void **)&d_c, sizeof(int) * n));
  vecadd<<<(n + tpb - 1) / tpb, tpb>>>(d_a, d_b, d_c, n);
  LAUNCH_CHECK();
  CUDA_CHECK(cudaMemcpy(c, d_c, sizeof(int) * n, cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) b[i] += a[i];
  int rc = verdict_ints("c", c, b, n);
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
#ifndef LEAK
  CUDA_CHECK(cudaFree(d_c));
#endif
  free(a);
  free(b);
  free(c);
  return rc;
}
