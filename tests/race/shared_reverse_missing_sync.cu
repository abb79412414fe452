//--blockDim=128 --gridDim=2
// Array reversal in shared memory, barrier forgotten.
__global__ void k(int *d) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  unsigned base = blockIdx.x * blockDim.x;
  s[t] = d[base + t]; // @W
  d[base + t] = s[127 - t]; // @R
}
