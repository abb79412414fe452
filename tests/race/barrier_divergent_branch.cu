//--blockDim=32 --gridDim=1
// __syncthreads inside a branch that splits a warp (barrier divergence, paper 003 BAR).
__global__ void k(int *out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  if (threadIdx.x < 16) {
    __syncthreads(); // @B
  }
  out[threadIdx.x] = s[31 - threadIdx.x];
}
