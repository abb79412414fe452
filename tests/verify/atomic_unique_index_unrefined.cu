//xfail:RACE
//--blockDim=64 --gridDim=4 --no-refined-atomics
// the same with plain adversarial abstraction of the counter: false positive (paper 002 §4.2)
__global__ void mandel(unsigned *counter, int *out) {
  unsigned i = atomicAdd(counter, 1u);
  out[i] = blockIdx.x * 64 + threadIdx.x;
}
