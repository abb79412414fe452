//pass
//--blockDim=256 --gridDim=4
// Reduction with atomics: a per-block partial sum in shared memory (atomicAdd on shared),
// then one atomicAdd per block into the global total.
__global__ void atomic_reduction(const int *in, int *total, unsigned n) {
  __shared__ int partial;
  if (threadIdx.x == 0) {
    partial = 0;
  }
  __syncthreads();
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&partial, in[i]);
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    atomicAdd(total, partial);
  }
}
