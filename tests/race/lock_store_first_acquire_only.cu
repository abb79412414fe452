//--blockDim=32 --gridDim=4
// A lock whose critical section starts with a store: the store follows the CAS's acquire
// fence (it is not a release, E4), and the unlock is an unfenced exchange, so nothing is
// released and the stores of the blocks race.
__global__ void k(int *mutex, int *out) {
  if (threadIdx.x == 0) {
    while (atomicCAS(mutex, 0, 1) != 0)
      ;
    __threadfence();
    out[0] = blockIdx.x; // @W
    atomicExch(mutex, 0);
  }
}
