//xfail:RACE
//--blockDim=64 --gridDim=1
// n is zeroed by a plain store and then incremented atomically: not accessed by one repetition-free operation only (paper 002 §4.3), so the counter stays adversarial and buf[i] races (expected false positive, as in GPUVerify)
__global__ void k(int *out) {
  __shared__ unsigned n;
  __shared__ int buf[64];
  if (threadIdx.x == 0) n = 0;
  __syncthreads();
  unsigned i = atomicAdd(&n, 1u);
  buf[i] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = buf[threadIdx.x];
}
