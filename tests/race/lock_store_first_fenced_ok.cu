//--blockDim=32 --gridDim=4
// The same lock with a fence before the unlock: the exchange releases, the next CAS with
// its fence acquires, so the stores are ordered.
__global__ void k(int *mutex, int *out) {
  if (threadIdx.x == 0) {
    while (atomicCAS(mutex, 0, 1) != 0)
      ;
    __threadfence();
    out[0] = blockIdx.x;
    __threadfence();
    atomicExch(mutex, 0);
  }
}
