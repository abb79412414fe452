//xfail:LIVELOCK
//--blockDim=32 --gridDim=1
// The classic SIMT livelock: every lane of one warp spins on the same lock. The lane that wins
// waits at the loop's reconvergence point while the others spin forever, so the lock is never
// released. Reported when the step limit is reached.
__global__ void spinlock_livelock(int *mutex, int *count) {
  while (atomicCAS(mutex, 0, 1) != 0) {
  }
  *count += 1;
  atomicExch(mutex, 0);
}
