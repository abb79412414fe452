//--blockDim=1 --gridDim=2 --buffer=lock=1 --buffer=count=1
// The same CAS spin lock without fences (paper 000: the stale-value bug): relaxed atomics
// do not synchronise, so the critical sections race.
__global__ void inc(int *lock, int *count) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  count[0] = count[0] + 1;
  atomicExch(lock, 0);
}
