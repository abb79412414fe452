//--blockDim=32 --gridDim=2
// Message passing between two blocks through atomicCAS: block 0 publishes data,
// __threadfence(), atomicCAS(flag, 0, 1); block 1 spins until atomicCAS(flag, 1, 2) returns 1,
// then __threadfence() and reads. PTX memory model fence-synchronisation (docs/race.md, "Trace
// operations", E5-E6): a release pattern (fence; strong write) synchronises with an acquire
// pattern (strong read; fence) that observes its write when both are morally strong.
__global__ void k(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42; // @D
    __threadfence();
    atomicCAS(flag, 0, 1); // @F
  } else {
    while (atomicCAS(flag, 1, 2) != 1) // @S
      ;
    __threadfence();
    out[0] = data[0]; // @R
  }
}
