//pass
// no launch line: verified for every grid and block; the global index is computed in 64 bits, so distinct threads write distinct elements whatever the launch
__global__ void k(int *out) {
  size_t i = (size_t)blockIdx.x * blockDim.x + threadIdx.x;
  out[i] = 1;
}
