//pass
//--blockDim=64 --gridDim=2
// block-scope atomics on shared memory are always in scope
__global__ void k(int *out) {
  __shared__ int c;
  if (threadIdx.x == 0) c = 0;
  __syncthreads();
  atomicAdd_block(&c, 1);
  __syncthreads();
  if (threadIdx.x == 0) out[blockIdx.x] = c;
}
