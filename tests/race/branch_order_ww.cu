//--blockDim=32 --gridDim=1
// The two paths of a divergent branch write one location: their order is the SIMT
// stack's choice (a branch-ordering race, paper 003 §3.3.1).
__global__ void k(const int *in, int *out) {
  __shared__ int s[1];
  if (in[threadIdx.x] == 0) {
    s[0] = 1; // @A
    out[1] = 10;
  } else {
    out[2] = 20;
    s[0] = 2; // @B
  }
  __syncthreads();
  if (threadIdx.x == 0)
    out[0] = s[0];
}
