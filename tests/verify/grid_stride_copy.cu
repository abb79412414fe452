//pass
//--blockDim=64 --gridDim=4
// grid-stride loop: needs the stride invariant i = gid (mod 256)
__global__ void copy(const int *in, int *out, unsigned n) {
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    out[i] = in[i];
}
