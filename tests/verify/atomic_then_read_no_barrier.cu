//xfail:RACE
//--blockDim=64 --gridDim=1
// thread 0's plain read of c races with other threads' atomics
__global__ void k(int *out) {
  __shared__ int c;
  if (threadIdx.x == 0) c = 0;
  __syncthreads();
  atomicAdd(&c, 1);
  if (threadIdx.x == 0) out[0] = c;
}
