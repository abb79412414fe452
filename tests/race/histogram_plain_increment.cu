//--blockDim=64 --gridDim=1
// A histogram with plain increments instead of atomics.
__global__ void k(const int *in, int *hist) {
  hist[in[threadIdx.x] & 3]++; // @INC
}
