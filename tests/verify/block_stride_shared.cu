//pass
//--blockDim=64 --gridDim=1
// block-stride loop
__global__ void k(int *out, unsigned n) {
  __shared__ int s[64];
  s[threadIdx.x] = 0;
  for (unsigned i = threadIdx.x; i < n; i += 64) out[i] = i;
  __syncthreads();
}
