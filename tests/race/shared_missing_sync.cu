//--blockDim=64 --gridDim=1
// Each thread stages its element in shared memory and reads its neighbour's without
// __syncthreads: thread 31 (warp 0) reads s[32], written by warp 1.
__global__ void k(const int *in, int *out) {
  __shared__ int s[64];
  unsigned t = threadIdx.x;
  s[t] = in[t]; // @W
  out[t] = s[(t + 1) % 64]; // @R
}
