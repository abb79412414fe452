//pass
//--blockDim=32 --gridDim=4
// A global spin lock: atomicCAS to acquire, __threadfence around the critical section,
// atomicExch to release (the pattern paper 003 §3.1 infers acquire/release from).
__device__ void lock(int *mutex) {
  while (atomicCAS(mutex, 0, 1) != 0) {
  }
  __threadfence();
}

__device__ void unlock(int *mutex) {
  __threadfence();
  atomicExch(mutex, 0);
}

__global__ void spin_lock(int *mutex, int *counter) {
  if (threadIdx.x == 0) {
    lock(mutex);
    *counter = *counter + 1;
    unlock(mutex);
  }
}
