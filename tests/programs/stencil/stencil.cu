// stencil.cu: three steps of a 1-D three-point stencil (out[i] = in[i-1] + in[i] + in[i+1],
// zero outside the array) over an integer array read from a file; each block stages its
// slice plus one halo element on each side in shared memory. Usage: stencil INTS.txt
// [threads_per_block] (at most 1024); the grid covers the array; ping-pong buffers between
// steps; checks against a CPU stencil.
// Variants (-D): MISSING_SYNC (no barrier between staging and use: a thread at a warp's
// edge reads its neighbour's element from the other warp), HALO_OOB (the right halo is
// loaded without checking the array's end).
#include "../common/util.h"

#define STEPS 3

__global__ void stencil3(const int *in, int *out, int n) {
  __shared__ int tile[1024 + 2];
  int t = threadIdx.x, i = blockIdx.x * blockDim.x + threadIdx.x;
  tile[t + 1] = i < n ? in[i] : 0; // @TILE
  if (t == 0)
    tile[0] = (i > 0 && i - 1 < n) ? in[i - 1] : 0; // @HALO_L
  if (t == blockDim.x - 1) {
#ifdef HALO_OOB
    tile[t + 2] = in[i + 1]; // @HALO_R_NOCHECK
#else
    tile[t + 2] = i + 1 < n ? in[i + 1] : 0; // @HALO_R
#endif
  }
#ifndef MISSING_SYNC
  __syncthreads();
#endif
  if (i < n)
    out[i] = tile[t] + tile[t + 1] + tile[t + 2]; // @USE
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
  int *d_a = to_device(h, n), *d_b = to_device(h, n);
  for (int s = 0; s < STEPS; s++) {
    stencil3<<<(n + tpb - 1) / tpb, tpb>>>(s % 2 ? d_b : d_a, s % 2 ? d_a : d_b, n);
    LAUNCH_CHECK();
  }
  int *got = (int *)malloc(sizeof(int) * n), *tmp = (int *)malloc(sizeof(int) * n);
  CUDA_CHECK(cudaMemcpy(got, STEPS % 2 ? d_b : d_a, sizeof(int) * n, cudaMemcpyDeviceToHost));
  for (int s = 0; s < STEPS; s++) {
    for (int i = 0; i < n; i++)
      tmp[i] = (i > 0 ? h[i - 1] : 0) + h[i] + (i + 1 < n ? h[i + 1] : 0);
    memcpy(h, tmp, sizeof(int) * n);
  }
  int rc = verdict_ints("out", got, h, n);
  CUDA_CHECK(cudaFree(d_a));
  CUDA_CHECK(cudaFree(d_b));
  free(got);
  free(tmp);
  free(h);
  return rc;
}
