//--blockDim=32 --gridDim=2
// Message passing between two blocks through an atomicExch flag: block 0 publishes data,
// __threadfence(), atomicExch(flag, 1); block 1 spins on atomicExch(flag, 0) and then
// __threadfence() before reading the data. PTX memory model fence-synchronisation
// (docs/race.md, "Trace operations", E5-E6): a release pattern (fence; strong write)
// synchronises with an acquire pattern (strong read; fence) that observes its write when both
// are morally strong.
__global__ void k(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42; // @D
    __threadfence();
    atomicExch(flag, 1); // @F
  } else {
    while (atomicExch(flag, 0) == 0) // @S
      ;
    __threadfence();
    out[0] = data[0]; // @R
  }
}
