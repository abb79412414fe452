//--blockDim=1 --gridDim=2 --buffer=lock=1 --buffer=count=1
// A CAS lock whose atomics and fences have block scope, used by two blocks.
__global__ void inc(int *lock, int *count) {
  while (atomicCAS_block(lock, 0, 1) != 0) {
  }
  __threadfence_block();
  count[0] = count[0] + 1;
  __threadfence_block();
  atomicExch_block(lock, 0);
}
