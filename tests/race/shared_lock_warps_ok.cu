//--blockDim=128 --gridDim=2
// A lock in shared memory taken by lane 0 of every warp, with block-scope fences.
__global__ void k(int *out) {
  __shared__ int mutex, sum;
  if (threadIdx.x == 0) {
    mutex = 0;
    sum = 0;
  }
  __syncthreads();
  if (threadIdx.x % 32 == 0) {
    while (atomicCAS(&mutex, 0, 1) != 0)
      ;
    __threadfence_block();
    sum += threadIdx.x;
    __threadfence_block();
    atomicExch(&mutex, 0);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[blockIdx.x] = sum;
}
