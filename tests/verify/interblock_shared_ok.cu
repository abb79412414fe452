//pass
//--blockDim=64 --gridDim=2
// shared memory is per block: same index in different blocks is different memory
__global__ void k(int *out) {
  __shared__ int S[64];
  S[threadIdx.x] = blockIdx.x;
  __syncthreads();
  out[blockIdx.x * 64 + threadIdx.x] = S[63 - threadIdx.x];
}
