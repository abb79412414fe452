//--blockDim=128 --gridDim=2
// A block-wide inclusive scan (CUB-style block primitive): warp scans with shuffles,
// warp totals through shared memory, a barrier, then the warp offsets.
__global__ void scan(const int *in, int *out) {
  __shared__ int totals[4];
  unsigned t = threadIdx.x, lane = t % 32, w = t / 32;
  int v = in[blockIdx.x * 128 + t];
  for (int d = 1; d < 32; d <<= 1) {
    int u = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v += u;
  }
  if (lane == 31)
    totals[w] = v;
  __syncthreads();
  int off = 0;
  for (unsigned k = 0; k < w; ++k)
    off += totals[k];
  out[blockIdx.x * 128 + t] = v + off;
}
