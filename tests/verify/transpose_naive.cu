//pass
//--blockDim=[8,8] --gridDim=[2,2]
// naive transpose, fixed size
__global__ void transpose(const float *in, float *out) {
  unsigned x = blockIdx.x * 8 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
  out[x * 16 + y] = in[y * 16 + x];
}
