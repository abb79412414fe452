//--blockDim=128 --gridDim=2
__global__ void k(int *d) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * blockDim.x;
  s[t] = d[base + t];
  __syncthreads();
  d[base + t] = s[127 - t];
}
