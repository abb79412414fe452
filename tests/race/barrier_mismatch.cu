//--blockDim=64 --gridDim=1
// Warp 0 and warp 1 wait at two different __syncthreads (warp-uniform branch).
__global__ void k(int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = t;
  if (t < 32) {
    __syncthreads(); // @B1
    out[t] = s[t + 32];
  } else {
    __syncthreads(); // @B2
    out[t] = s[t - 32];
  }
}
