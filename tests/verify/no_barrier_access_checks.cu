//pass
//--blockDim=64 --gridDim=1 --no-barrier-access-checks
// a barrier only the first warp reaches, with barrier checks turned off by the header flag (barrier_divergent_if.cu without the flag)
__global__ void k(int *A) {
  A[threadIdx.x] = threadIdx.x;
  if (threadIdx.x < 32) __syncthreads();
}
