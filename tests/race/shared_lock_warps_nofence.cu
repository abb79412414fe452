//--blockDim=128 --gridDim=1
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
    sum += threadIdx.x; // @C
    atomicExch(&mutex, 0);
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = sum;
}
