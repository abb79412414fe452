//--blockDim=64 --gridDim=1
__global__ void k(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  out[t] = s[(t + 1) % 64];
}
