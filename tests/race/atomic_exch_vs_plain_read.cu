//--blockDim=64 --gridDim=1
// A flag swapped atomically by warp 0 and polled with a plain load by warp 1.
__global__ void k(int *flag, int *out) {
  if (threadIdx.x == 0)
    atomicExch(flag, 1); // @X
  if (threadIdx.x == 32)
    out[0] = *flag; // @R
}
