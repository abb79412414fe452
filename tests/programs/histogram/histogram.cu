// histogram.cu: a 64-bin histogram of integers read from a file: each block counts into a
// private shared-memory histogram with shared atomics (zeroed first, a barrier, counting, a
// barrier), then merges it into the global one with global atomics. Values outside 0..63
// go to the nearest end bin. Usage: histogram INTS.txt [threads_per_block [num_blocks]];
// checks the bins against a CPU histogram.
// Variants (-D): MISSING_ATOMIC_SHARED (`s[b] += 1`), MISSING_SYNC_ZERO (no barrier after
// zeroing), MISSING_SYNC_MERGE (no barrier before merging), MISSING_ATOMIC_GLOBAL (plain
// `bins[b] +=` in the merge), WRONG_SCOPE (atomicAdd_block in the merge), NO_CLAMP (a value
// is used as the bin index unchecked: an input with a value of 64 writes past the array).
#include "../common/util.h"

#define BINS 64

__global__ void histogram(const int *in, int n, int *bins) {
  __shared__ int s[BINS];
  for (int b = threadIdx.x; b < BINS; b += blockDim.x)
    s[b] = 0; // @ZERO
#ifndef MISSING_SYNC_ZERO
  __syncthreads();
#endif
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    int v = in[i];
#ifdef NO_CLAMP
    int b = v;
#else
    int b = v < 0 ? 0 : (v >= BINS ? BINS - 1 : v);
#endif
#ifdef MISSING_ATOMIC_SHARED
    s[b] += 1; // @COUNT_PLAIN
#else
    atomicAdd(&s[b], 1); // @COUNT
#endif
  }
#ifndef MISSING_SYNC_MERGE
  __syncthreads();
#endif
  for (int b = threadIdx.x; b < BINS; b += blockDim.x) {
#ifdef MISSING_ATOMIC_GLOBAL
    bins[b] += s[b]; // @MERGE_PLAIN
#elif defined(WRONG_SCOPE)
    atomicAdd_block(&bins[b], s[b]); // @MERGE_BLOCK
#else
    atomicAdd(&bins[b], s[b]); // @MERGE
#endif
  }
}

int main(int argc, char **argv) {
  if (argc < 2) {
    fprintf(stderr, "usage: %s INTS.txt [threads_per_block [num_blocks]]\n", argv[0]);
    return 2;
  }
  int n = 0;
  int *h = read_ints(argv[1], &n);
  int tpb = arg_int(argc, argv, 2, 64), blocks = arg_int(argc, argv, 3, 2);
  int *d_in = to_device(h, n), *d_bins;
  CUDA_CHECK(cudaMalloc((void **)&d_bins, sizeof(int) * BINS));
  CUDA_CHECK(cudaMemset(d_bins, 0, sizeof(int) * BINS));
  histogram<<<blocks, tpb>>>(d_in, n, d_bins);
  LAUNCH_CHECK();
  int got[BINS], want[BINS];
  CUDA_CHECK(cudaMemcpy(got, d_bins, sizeof(got), cudaMemcpyDeviceToHost));
  for (int b = 0; b < BINS; b++) want[b] = 0;
  for (int i = 0; i < n; i++) want[h[i] < 0 ? 0 : (h[i] >= BINS ? BINS - 1 : h[i])]++;
  int rc = verdict_ints("bins", got, want, BINS);
  CUDA_CHECK(cudaFree(d_in));
  CUDA_CHECK(cudaFree(d_bins));
  free(h);
  return rc;
}
