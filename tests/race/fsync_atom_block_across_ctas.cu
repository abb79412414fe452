//--blockDim=32 --gridDim=2
// As fsync_add_fenced_ok with the flag updated by atomicAdd_block (atom.cta) on both sides
// between two blocks: the fences are at GPU scope but the strong accesses are CTA-scoped, so
// neither includes the other block's thread; the patterns are not morally strong and do not
// synchronise (E6), and under scopes the two blocks' atomics race. PTX memory model
// fence-synchronisation (docs/race.md, "Trace operations", E5-E6): a release pattern (fence;
// strong write) synchronises with an acquire pattern (strong read; fence) that observes its
// write when both are morally strong.
__global__ void k(int *data, int *flag, int *out) {
  if (threadIdx.x != 0)
    return;
  if (blockIdx.x == 0) {
    data[0] = 42; // @D
    __threadfence();
    atomicAdd_block(flag, 1); // @F
  } else {
    while (atomicAdd_block(flag, 0) == 0) // @S
      ;
    __threadfence();
    out[0] = data[0]; // @R
  }
}
