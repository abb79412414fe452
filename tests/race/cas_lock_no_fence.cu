//--blockDim=32 --gridDim=4
// A CAS spin lock without fences (paper 000's unfenced lock): the critical section is not protected.
__device__ void lock(int *m) {
  while (atomicCAS(m, 0, 1) != 0)
    ;
  
}
__device__ void unlock(int *m) {
  
  atomicExch(m, 0);
}
__global__ void k(int *mutex, int *counter) {
  if (threadIdx.x == 0) {
    lock(mutex);
    counter[0] = counter[0] + blockIdx.x + 1; // @C
    unlock(mutex);
  }
}
