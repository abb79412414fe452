//pass
//--blockDim=128 --gridDim=8
// Histogram with atomicAdd: a per-block histogram in shared memory, merged into the global
// one with atomicAdd. Inputs are taken modulo the bin count.
#define BINS 16
__global__ void histogram(const unsigned *in, unsigned *hist, unsigned n) {
  __shared__ unsigned local[BINS];
  if (threadIdx.x < BINS) {
    local[threadIdx.x] = 0;
  }
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
    atomicAdd(&local[in[i] % BINS], 1u);
  }
  __syncthreads();
  if (threadIdx.x < BINS) {
    atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
  }
}
