//xfail:RACE
//--blockDim=32 --gridDim=1 --warp-sync=32
// one warp in lock-step: thread 0 zeroes `n` again between two rounds of atomicAdd, so the rounds return the same values and two threads write the same buf word; the zeroing is also on a divergent path, which races with the other threads' atomics under §3.1's re-sync rule (weft reports that one first); the relaxed repetition-free refinement is not used with lock-step
__global__ void k(int *out) {
  __shared__ unsigned n;
  __shared__ int buf[32];
  if (threadIdx.x == 0) n = 0;
  unsigned v1 = atomicAdd(&n, 1u);
  if (threadIdx.x == 0) n = 0;
  unsigned v2 = atomicAdd(&n, 1u);
  buf[v1] = 1;
  buf[v2] = 2;
}
