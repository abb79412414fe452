//xfail:BARRIER_DIVERGENCE
//--blockDim=64 --gridDim=1
// Two warps meet at barrier 0 from two different __syncthreads() calls (then/else branches):
// hardware counts them as one barrier; weft reports the textual mismatch.
__global__ void barrier_mismatch(int *out) {
  __shared__ int s[64];
  if (threadIdx.x < 32) {
    s[threadIdx.x] = 1;
    __syncthreads();
  } else {
    s[threadIdx.x] = 2;
    __syncthreads();
  }
  out[threadIdx.x] = s[63 - threadIdx.x];
}
