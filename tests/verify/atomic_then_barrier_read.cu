//pass
//--blockDim=64 --gridDim=1
// the plain read of the counter is after a barrier
__global__ void k(int *out) {
  __shared__ int c;
  if (threadIdx.x == 0) c = 0;
  __syncthreads();
  atomicAdd(&c, 1);
  __syncthreads();
  if (threadIdx.x == 0) out[0] = c;
}
