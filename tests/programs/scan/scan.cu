// scan.cu: inclusive prefix sum of an integer array read from a file: each block scans its
// slice in shared memory (Hillis-Steele: read the element `off` places back, barrier, add,
// barrier), the host scans the block totals, a second kernel adds each block's offset.
// Usage: scan INTS.txt [threads_per_block] (at most 1024); checks against a CPU scan.
// Variants (-D): MISSING_SYNC_READ (no barrier between the read and the add),
// MISSING_SYNC_ADD (no barrier after the add), NO_BOUNDS (the load has no `i < n` guard).
#include "../common/util.h"

__global__ void scan_block(const int *in, int *out, int *sums, int n) {
  __shared__ int s[1024];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef NO_BOUNDS
  s[t] = in[i]; // @LOAD_NOCHECK
#else
  s[t] = i < n ? in[i] : 0; // @LOAD
#endif
  __syncthreads();
  for (int off = 1; off < blockDim.x; off <<= 1) {
    int x = t >= off ? s[t - off] : 0; // @READ
#ifndef MISSING_SYNC_READ
    __syncthreads();
#endif
    s[t] += x; // @ADD
#ifndef MISSING_SYNC_ADD
    __syncthreads();
#endif
  }
  if (i < n)
    out[i] = s[t];
  if (t == blockDim.x - 1)
    sums[blockIdx.x] = s[t];
}

__global__ void add_offsets(int *out, const int *offsets, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n && blockIdx.x > 0)
    out[i] += offsets[blockIdx.x - 1];
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s INTS.txt [threads_per_block]\n", argv[0]);
    return 2;
  }
  int n = 0;
  int *h = read_ints(argv[1], &n);
  int tpb = arg_int(argc, argv, 2, 128);
  if (tpb > 1024) {
    fprintf(stderr, "threads_per_block must be at most 1024\n");
    return 2;
  }
  int blocks = (n + tpb - 1) / tpb;
  int *d_in = to_device(h, n), *d_out, *d_sums;
  CUDA_CHECK(cudaMalloc((void **)&d_out, sizeof(int) * n));
  CUDA_CHECK(cudaMalloc((void **)&d_sums, sizeof(int) * blocks));
  scan_block<<<blocks, tpb>>>(d_in, d_out, d_sums, n);
  LAUNCH_CHECK();
  int *sums = (int *)malloc(sizeof(int) * blocks);
  CUDA_CHECK(cudaMemcpy(sums, d_sums, sizeof(int) * blocks, cudaMemcpyDeviceToHost));
  for (int b = 1; b < blocks; b++) sums[b] += sums[b - 1];
  CUDA_CHECK(cudaMemcpy(d_sums, sums, sizeof(int) * blocks, cudaMemcpyHostToDevice));
  add_offsets<<<blocks, tpb>>>(d_out, d_sums, n);
  LAUNCH_CHECK();
  int *got = (int *)malloc(sizeof(int) * n);
  CUDA_CHECK(cudaMemcpy(got, d_out, sizeof(int) * n, cudaMemcpyDeviceToHost));
  for (int i = 1; i < n; i++) h[i] += h[i - 1];
  int rc = verdict_ints("prefix", got, h, n);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_out));
  CUDA_CHECK(cudaFree(d_sums));
  free(sums);
  free(got);
  free(h);
  return rc;
}
