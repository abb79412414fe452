//pass
//--blockDim=64 --gridDim=4
// reads from in, writes to out (distinct arrays)
__global__ void stencil(const float *in, float *out) {
  unsigned i = blockIdx.x * 64 + threadIdx.x + 1;
  out[i] = in[i - 1] + in[i] + in[i + 1];
}
