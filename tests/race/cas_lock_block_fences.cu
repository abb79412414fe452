//--blockDim=32 --gridDim=4
// A global lock fenced with __threadfence_block: block-scope acquire/release across blocks.
__device__ void lock(int *m) {
  while (atomicCAS(m, 0, 1) != 0)
    ;
  __threadfence_block();
}
__device__ void unlock(int *m) {
  __threadfence_block();
  atomicExch(m, 0);
}
__global__ void k(int *mutex, int *counter) {
  if (threadIdx.x == 0) {
    lock(mutex);
    counter[0] = counter[0] + blockIdx.x + 1; // @C
    unlock(mutex);
  }
}
