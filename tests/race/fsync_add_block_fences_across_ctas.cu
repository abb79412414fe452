//--blockDim=32 --gridDim=2
// As fsync_add_fenced_ok with __threadfence_block() on both sides, between two blocks: a
// CTA-scope fence does not include the other block's thread, so the patterns are not morally
// strong and do not synchronise. PTX memory model fence-synchronisation (docs/race.md, "Trace
// operations", E5-E6): a release pattern (fence; strong write) synchronises with an acquire
// pattern (strong read; fence) that observes its write when both are morally strong.
__global__ void k(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42; // @D
    __threadfence_block();
    atomicAdd(flag, 1); // @F
  } else {
    while (atomicAdd(flag, 0) == 0) // @S
      ;
    __threadfence_block();
    out[0] = data[0]; // @R
  }
}
