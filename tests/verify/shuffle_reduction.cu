//pass
//--blockDim=64 --gridDim=2
// register shuffles only; lane 0 of each warp writes its own element
__global__ void k(const int *in, int *out) {
  unsigned i = blockIdx.x * 64 + threadIdx.x;
  int v = in[i];
  for (int d = 16; d > 0; d /= 2) v += __shfl_down_sync(0xffffffffu, v, d);
  if ((threadIdx.x & 31) == 0) out[i / 32] = v;
}
