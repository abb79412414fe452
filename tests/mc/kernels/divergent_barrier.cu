//--blockDim=2 --gridDim=1 --buffer=out=2
// Only thread 0 reaches the barrier: it waits forever for thread 1.
__global__ void k(int *out) {
  unsigned t = threadIdx.x;
  if (t == 0) {
    __syncthreads();
  }
  out[t] = t;
}
