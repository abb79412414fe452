//pass
//--blockDim=64 --gridDim=1 --check-array-bounds
// every thread writes and reads s[tid] and s[63 - tid], all inside the 64-int array
__global__ void k(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = s[63 - threadIdx.x];
}
