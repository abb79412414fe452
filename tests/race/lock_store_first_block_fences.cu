//--blockDim=32 --gridDim=4
// A global lock fenced with __threadfence_block, critical section starting with a store:
// block-scope acquire and release from different blocks do not synchronise.
__global__ void k(int *mutex, int *out) {
  if (threadIdx.x == 0) {
    while (atomicCAS(mutex, 0, 1) != 0)
      ;
    __threadfence_block();
    out[0] = blockIdx.x; // @W
    __threadfence_block();
    atomicExch(mutex, 0);
  }
}
