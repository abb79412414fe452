//--blockDim=64 --gridDim=1
// As fsync_add_block_fences_across_ctas but between warp 0 and warp 1 of one block: a
// CTA-scope fence includes both threads, so the patterns synchronise. PTX memory model
// fence-synchronisation (docs/race.md, "Trace operations", E5-E6): a release pattern (fence;
// strong write) synchronises with an acquire pattern (strong read; fence) that observes its
// write when both are morally strong.
__global__ void k(int *data, int *flag, int *out) {
  if (threadIdx.x % 32 != 0)
    return;
  if (threadIdx.x == 0) {
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
