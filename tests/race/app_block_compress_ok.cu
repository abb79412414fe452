//--blockDim=64 --gridDim=2
// Block-compression style kernel (dxtc-like, reduced): each block computes the min and max
// of its 64 values with shared-memory atomics, then every thread quantises its value
// against them.
__global__ void compress(const int *in, unsigned char *codes, int *ends) {
  __shared__ int lo, hi;
  unsigned t = threadIdx.x;
  int v = in[blockIdx.x * 64 + t];
  if (t == 0) {
    lo = 1 << 30;
    hi = -(1 << 30);
  }
  __syncthreads();
  atomicMin(&lo, v);
  atomicMax(&hi, v);
  __syncthreads();
  int range = hi - lo;
  codes[blockIdx.x * 64 + t] = range ? (unsigned char)((v - lo) * 3 / range) : 0;
  if (t == 0) {
    ends[2 * blockIdx.x] = lo;
    ends[2 * blockIdx.x + 1] = hi;
  }
}
