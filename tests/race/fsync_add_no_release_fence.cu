//--blockDim=32 --gridDim=2
// As fsync_add_fenced_ok without the writer's fence: atomicAdd(flag, 1) right after the data
// store is no release pattern, so the reader's acquire synchronises with nothing that carries
// the data store. PTX memory model fence-synchronisation (docs/race.md, "Trace operations",
// E5-E6): a release pattern (fence; strong write) synchronises with an acquire pattern (strong
// read; fence) that observes its write when both are morally strong.
__global__ void k(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42; // @D
    atomicAdd(flag, 1); // @F
  } else {
    while (atomicAdd(flag, 0) == 0) // @S
      ;
    __threadfence();
    out[0] = data[0]; // @R
  }
}
