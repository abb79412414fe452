//--blockDim=32 --gridDim=2
// As fsync_exch_fenced_ok without the reader's fence: ScoR's norace_interblock_fence_raw
// shape. The reader's atomicExch observes the flag but, with no fence after it, is no acquire
// pattern (a relaxed RMW alone does not synchronise): the read of the data races with the
// write. PTX memory model fence-synchronisation (docs/race.md, "Trace operations", E5-E6): a
// release pattern (fence; strong write) synchronises with an acquire pattern (strong read;
// fence) that observes its write when both are morally strong.
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
    out[0] = data[0]; // @R
  }
}
