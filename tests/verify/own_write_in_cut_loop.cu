//pass
//--blockDim=64 --gridDim=1
// every iteration of the loop (its trip count n is a parameter, so it is cut with invariants) writes s[tid] and reads it back before the barrier that ends the iteration; no other thread writes s[tid] in between, so the read sees the iteration's j
__global__ void k(int *out, int n) {
  __shared__ int s[64];
  unsigned i = threadIdx.x;
  for (int j = 0; j < n; j++) {
    s[i] = j;
    __assert(s[i] == j);
    __syncthreads();
    out[j * 64 + i] = s[(i + 1) % 64];
    __syncthreads();
  }
}
