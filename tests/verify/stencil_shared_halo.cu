//pass
//--blockDim=64 --gridDim=2
// 1-D stencil with halo loaded before a barrier
__global__ void stencil(const float *in, float *out) {
  __shared__ float s[66];
  unsigned g = blockIdx.x * 64 + threadIdx.x, l = threadIdx.x + 1;
  s[l] = in[g + 1];
  if (threadIdx.x == 0) { s[0] = in[g]; s[65] = in[g + 65]; }
  __syncthreads();
  out[g] = s[l - 1] + s[l] + s[l + 1];
}
