// reduce.cu: sum of an integer array read from a file: each block reduces its slice in
// shared memory (a tree, halving the stride, a barrier per level), thread 0 adds the block's
// sum to the global total. Usage: reduce INTS.txt [threads_per_block] (a power of two, at
// most 1024); the grid covers the array; checks the total against a CPU sum.
// Variants (-D): MISSING_SYNC (no barrier inside the tree loop: with more than two warps a
// warp reads a partial sum another warp is still writing), MISSING_ATOMIC (`*total +=`),
// WRONG_SCOPE (atomicAdd_block on the total), NO_BOUNDS (the load has no `i < n` guard).
#include "../common/util.h"

__global__ void reduce_sum(const int *in, int n, int *total) {
  __shared__ int s[1024];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
#ifdef NO_BOUNDS
  s[t] = in[i]; // @LOAD_NOCHECK
#else
  s[t] = i < n ? in[i] : 0; // @LOAD
#endif
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride)
      s[t] += s[t + stride]; // @TREE
#ifndef MISSING_SYNC
    __syncthreads();
#endif
  }
  if (t == 0) {
#ifdef MISSING_ATOMIC
    *total += s[0]; // @FINAL_PLAIN
#elif defined(WRONG_SCOPE)
    atomicAdd_block(total, s[0]); // @FINAL_BLOCK
#else
    atomicAdd(total, s[0]); // @FINAL
#endif
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s INTS.txt [threads_per_block]\n", argv[0]);
    return 2;
  }
  int n = 0;
  int *h = read_ints(argv[1], &n);
  int tpb = arg_int(argc, argv, 2, 128);
  if (tpb > 1024 || (tpb & (tpb - 1)) != 0) {
    fprintf(stderr, "threads_per_block must be a power of two up to 1024\n");
    return 2;
  }
  int *d_in = to_device(h, n), *d_total;
  CUDA_CHECK(cudaMalloc((void **)&d_total, sizeof(int)));
  CUDA_CHECK(cudaMemset(d_total, 0, sizeof(int)));
  reduce_sum<<<(n + tpb - 1) / tpb, tpb>>>(d_in, n, d_total);
  LAUNCH_CHECK();
  int got = 0, want = 0;
  CUDA_CHECK(cudaMemcpy(&got, d_total, sizeof(int), cudaMemcpyDeviceToHost));
  for (int i = 0; i < n; i++) want += h[i];
  int rc = verdict_ints("sum", &got, &want, 1);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_total));
  free(h);
  return rc;
}
