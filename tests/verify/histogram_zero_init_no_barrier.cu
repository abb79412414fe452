//xfail:RACE
//--blockDim=64 --gridDim=1
// paper 002 §5 (Parboil tpacf): zero-initialisation then atomic updates without a barrier: atomic/non-atomic race
__global__ void histo(const int *A, unsigned *out) {
  __shared__ unsigned bins[16];
  if (threadIdx.x < 16) bins[threadIdx.x] = 0;
  atomicAdd(&bins[A[threadIdx.x] & 15], 1u);
  __syncthreads();
  if (threadIdx.x < 16) out[threadIdx.x] = bins[threadIdx.x];
}
