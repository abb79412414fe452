//xfail:RACE
//--blockDim=64 --gridDim=1
// neighbours read s[l+-1] while their owners write them
__global__ void stencil(const float *in, float *out) {
  __shared__ float s[66];
  unsigned l = threadIdx.x + 1;
  s[l] = in[l];
  out[threadIdx.x] = s[l - 1] + s[l] + s[l + 1];
}
