//pass
//--blockDim=[64,1] --gridDim=[16,1]
// Histogram with atomicAdd on global buckets (paper 002 Fig. 2a, in CUDA).
__global__ void atomic_histogram(const unsigned *data, unsigned *bins, int nbins) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&bins[data[i] % nbins], 1u);
}
