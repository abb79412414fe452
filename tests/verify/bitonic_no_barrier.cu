//xfail:RACE
//--blockDim=64 --gridDim=1
// compare-exchange steps not separated: s[ixj] of one step is s[t] of another thread's next step
__global__ void bitonic(int *g) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = g[t];
  __syncthreads();
  for (unsigned j = 32; j > 0; j /= 2) {
    unsigned ixj = t ^ j;
    if (ixj > t) { int a = s[t], b = s[ixj]; if (a > b) { s[t] = b; s[ixj] = a; } }
  }
  __syncthreads();
  g[t] = s[t];
}
