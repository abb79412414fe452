//--blockDim=64 --gridDim=1
// Thread 0 resets the counter while the other warp adds to it.
__global__ void k(int *count) {
  if (threadIdx.x == 0)
    *count = 0; // @W
  atomicAdd(&count[threadIdx.x / blockDim.x], 1); // @A
}
