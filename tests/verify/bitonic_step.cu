//pass
//--blockDim=64 --gridDim=1
// bitonic sort network, a barrier after every compare-exchange step
__global__ void bitonic(int *g) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = g[t];
  __syncthreads();
  for (unsigned k = 2; k <= 64; k *= 2)
    for (unsigned j = k / 2; j > 0; j /= 2) {
      unsigned ixj = t ^ j;
      if (ixj > t) {
        int a = s[t], b = s[ixj];
        if (((t & k) == 0) == (a > b)) { s[t] = b; s[ixj] = a; }
      }
      __syncthreads();
    }
  g[t] = s[t];
}
