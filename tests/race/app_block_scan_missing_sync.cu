//--blockDim=128 --gridDim=1
// The block scan without the barrier between publishing warp totals and reading them.
__global__ void scan(const int *in, int *out) {
  __shared__ int totals[4];
  unsigned t = threadIdx.x, lane = t % 32, w = t / 32;
  int v = in[t];
  for (int d = 1; d < 32; d <<= 1) {
    int u = __shfl_up_sync(0xffffffffu, v, d);
    if (lane >= d)
      v += u;
  }
  if (lane == 31)
    totals[w] = v; // @T
  int off = 0;
  for (unsigned k = 0; k < w; ++k)
    off += totals[k]; // @O
  out[t] = v + off;
}
