//xfail:DEADLOCK
//--blockDim=64 --gridDim=1
// Deadlock: warp 0 waits at named barrier 1 for the whole block, warp 1 at barrier 0; neither
// barrier can complete.
__global__ void deadlock_named_barriers(int *out) {
  if (threadIdx.x < 32) {
    asm volatile("bar.sync 1;" ::: "memory");
  } else {
    __syncthreads();
  }
  out[threadIdx.x] = 1;
}
