//--blockDim=1 --gridDim=2 --buffer=lock=1 --buffer=count=1
// A CAS spin lock (paper 000's CUDA-by-Example style) with fences after acquiring and
// before releasing: the plain increments in the critical section are ordered.
__global__ void inc(int *lock, int *count) {
  while (atomicCAS(lock, 0, 1) != 0) {
  }
  __threadfence();
  count[0] = count[0] + 1;
  __threadfence();
  atomicExch(lock, 0);
}
