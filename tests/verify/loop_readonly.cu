//pass
//--blockDim=64 --gridDim=2
// every thread reads the whole input and writes its own element
__global__ void k(const int *in, int *out, unsigned n) {
  int acc = 0;
  for (unsigned j = 0; j < n; j++) acc += in[j];
  out[blockIdx.x * 64 + threadIdx.x] = acc;
}
