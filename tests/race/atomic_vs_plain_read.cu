//--blockDim=64 --gridDim=2
// Threads add to a counter atomically while thread 0 of each block reads it plainly.
__global__ void k(int *count, int *seen) {
  atomicAdd(&count[threadIdx.x / blockDim.x], 1); // @A
  if (threadIdx.x == 0)
    seen[blockIdx.x] = *count; // @R
}
