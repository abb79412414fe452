//--blockDim=32 --gridDim=3
// Two blocks publish a value each and count themselves with __threadfence(); atomicAdd(n, 1);
// block 2 polls atomicAdd(n, 0) until it reads 2, then __threadfence() and reads both values.
// PTX memory model: the consumer's read of 2 observes the second publisher's atomicAdd, which
// read the first publisher's (observation order runs through atomic RMWs), so both release
// patterns synchronise with the consumer's acquire pattern (docs/race.md, "Trace operations",
// E5: a release RMW keeps the releases it read).
__global__ void k(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x < 2) {
    data[blockIdx.x] = 10 + blockIdx.x; // @D
    __threadfence();
    atomicAdd(flag, 1); // @F
  } else {
    while (atomicAdd(flag, 0) != 2) // @S
      ;
    __threadfence();
    out[0] = data[0] + data[1]; // @R
  }
}
