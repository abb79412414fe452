//xfail:RACE
//--blockDim=64 --gridDim=4
// stride of one block: block 0's thread at iteration 1 meets block 1's thread at iteration 0
__global__ void copy(const int *in, int *out, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x)
    out[i] = in[i];
}
